// COMA core without SystemC: the mask table and its gating.
#include <catch2/catch.hpp>

#include "modules/wrf/coma_core.h"

using namespace warpreg;

TEST_CASE("coma core: the table holds one mask per collector unit", "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  CHECK(coma.config().storage_bits() == 512);
  coma.assign(3, 0x0000ffffu);
  coma.assign(7, 0x80000001u);
  CHECK(coma.entry(3) == 0x0000ffffu);
  CHECK(coma.read_mask(3, 0x0000ffffu) == 0x0000ffffu);
  CHECK(coma.read_mask(7, 0x80000001u) == 0x80000001u);
  CHECK(coma.counters().table_writes == 2);
  CHECK(coma.counters().table_reads == 2);
  CHECK(coma.counters().lanes_accessed == 16 + 2);
  CHECK(coma.counters().lanes_gated == 16 + 30);
  CHECK(coma.counters().mismatches == 0);
  CHECK(coma.counters().read_active_lanes[16] == 1);
  CHECK(coma.counters().read_active_lanes[2] == 1);
  CHECK(coma.counters().read_active_lanes[32] == 0);
  CHECK_THROWS_AS(coma.assign(16, 1), std::out_of_range);
}

TEST_CASE("coma core: a reassigned collector gates with the new warp's mask", "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  coma.assign(2, 0x0f0f0f0fu);
  coma.assign(2, 0xffff0000u);
  CHECK(coma.read_mask(2, 0xffff0000u) == 0xffff0000u);
  // An access whose mask differs from the table shows the table out of step.
  coma.read_mask(2, 0x0000ffffu);
  CHECK(coma.counters().mismatches == 1);
}

TEST_CASE("coma core: writebacks gate with the scoreboard's mask", "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  CHECK(coma.write_mask(0x000000ffu) == 0x000000ffu);
  CHECK(coma.counters().writeback_masks == 1);
  CHECK(coma.counters().lanes_accessed == 8);
  CHECK(coma.counters().lanes_gated == 24);
}

TEST_CASE("coma core: collector assignments are counted by active lanes", "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  coma.assign(0, kFullMask);
  coma.assign(1, kFullMask);
  coma.assign(2, 0x0000ffffu);
  coma.assign(2, 0x00000001u);
  const auto& lanes = coma.counters().assigned_active_lanes;
  CHECK(lanes[32] == 2);
  CHECK(lanes[16] == 1);
  CHECK(lanes[1] == 1);
  uint64_t all = 0;
  for (const uint64_t n : lanes) all += n;
  CHECK(all == coma.counters().table_writes);
  CHECK(coma.counters().read_active_lanes[32] == 0);  // no read yet
}

TEST_CASE("coma core: an ungated read switches the given slices, not the mask's", "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  coma.assign(4, 0xffff0000u);
  // A compressed image in the first two 16-byte slices (lanes 0..7) of a warp whose
  // active lanes are 16..31: every bit of the image is needed.
  CHECK(coma.read_ungated(0xffff0000u, 0x000000ffu, false) == 0x000000ffu);
  CHECK(coma.counters().ungated_reads == 1);
  CHECK(coma.counters().table_reads == 1);
  CHECK(coma.counters().lanes_accessed == 8);
  CHECK(coma.counters().lanes_gated == 24);
  CHECK(coma.counters().read_active_lanes[16] == 1);  // the read's active lanes
  CHECK(coma.counters().mismatches == 0);
}

TEST_CASE("coma core: a read the entry would cut goes whole and counts a mismatch",
          "[coma][core]") {
  ComaCore coma(ComaConfig{16});
  coma.assign(0, 0x0000000fu);
  // A stage's own read of a whole register (RFV's spill) that names collector 0.
  CHECK(coma.read_ungated(kFullMask, kFullMask, true) == kFullMask);
  CHECK(coma.counters().mismatches == 1);
  CHECK(coma.counters().lanes_gated == 0);
}

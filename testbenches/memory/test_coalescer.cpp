// Coalescer: GPGPU-Sim's Fermi rule on fully coalesced, partial, strided, scattered,
// misaligned, wide, local, atomic, constant and shared accesses.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "modules/memory/coalescer.h"

using namespace warpreg;
using namespace warpreg::memory;

namespace {

WarpAccess strided(uint64_t base, uint64_t stride, uint32_t bytes = 4, LaneMask mask = kFullMask) {
  WarpAccess a;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) a.address[lane] = base + lane * stride;
  a.bytes = bytes;
  a.active = mask;
  return a;
}

struct Coalesced {
  Coalescer coalescer;
  CoalescedAccess out;
  const CoalescedAccess& operator()(const WarpAccess& a) {
    coalescer.coalesce(a, out);
    return out;
  }
};

}  // namespace

TEST_CASE("coalescer: 32 consecutive words are one 128-byte request", "[memory][coalescer]") {
  Coalesced c;
  const CoalescedAccess& r = c(strided(0x1000, 4));
  REQUIRE(r.count == 1);
  CHECK(r.requests[0].address == 0x1000);
  CHECK(r.requests[0].bytes == 128);
  CHECK(r.requests[0].sectors == 0xf);
  CHECK(r.requests[0].lanes == kFullMask);
  CHECK(r.requests[0].byte_mask.full());
}

TEST_CASE("coalescer: partial masks shrink the segment to the used half or quarter",
          "[memory][coalescer]") {
  Coalesced c;
  const CoalescedAccess& quarter = c(strided(0x1000, 4, 4, 0x000000ffu));  // lanes 0-7
  REQUIRE(quarter.count == 1);
  CHECK(quarter.requests[0].address == 0x1000);
  CHECK(quarter.requests[0].bytes == 32);
  CHECK(quarter.requests[0].sectors == 0x1);
  const CoalescedAccess& second = c(strided(0x1000, 4, 4, 0x0000ff00u));  // lanes 8-15
  REQUIRE(second.count == 1);
  CHECK(second.requests[0].address == 0x1020);
  CHECK(second.requests[0].bytes == 32);
  const CoalescedAccess& upper = c(strided(0x1000, 4, 4, 0xffff0000u));  // lanes 16-31
  REQUIRE(upper.count == 1);
  CHECK(upper.requests[0].address == 0x1040);
  CHECK(upper.requests[0].bytes == 64);
  CHECK(upper.requests[0].sectors == 0xc);
  // Lanes 0-7 and 24-31: both halves used, the whole 128 bytes go.
  const CoalescedAccess& ends = c(strided(0x1000, 4, 4, 0xff0000ffu));
  REQUIRE(ends.count == 1);
  CHECK(ends.requests[0].bytes == 128);
  CHECK(ends.requests[0].sectors == 0x9);
  CHECK(ends.requests[0].lanes == 0xff0000ffu);
  // No active lane: no request.
  CHECK(c(strided(0x1000, 4, 4, 0)).count == 0);
}

TEST_CASE("coalescer: strided accesses need one request per segment touched",
          "[memory][coalescer]") {
  Coalesced c;
  const CoalescedAccess& two = c(strided(0x2000, 8));  // 256 bytes
  REQUIRE(two.count == 2);
  CHECK(two.requests[0].address == 0x2000);
  CHECK(two.requests[1].address == 0x2080);
  CHECK(two.requests[0].bytes == 128);
  CHECK(two.requests[0].lanes == 0x0000ffffu);
  CHECK(two.requests[1].lanes == 0xffff0000u);
  // One word per line: 32 requests, each reduced to its 32-byte quarter.
  const CoalescedAccess& lines = c(strided(0x0, 128));
  REQUIRE(lines.count == 32);
  for (uint32_t i = 0; i < 32; ++i) {
    CHECK(lines.requests[i].address == i * 128);
    CHECK(lines.requests[i].bytes == 32);
    CHECK(lines.requests[i].lanes == (1u << i));
  }
}

TEST_CASE("coalescer: scattered lanes come out once per segment in address order",
          "[memory][coalescer]") {
  Coalesced c;
  WarpAccess a = strided(0, 0);
  const uint64_t lines[4] = {0x9000, 0x1000, 0x5000, 0x1000};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) a.address[lane] = lines[lane % 4] + 4 * lane;
  const CoalescedAccess& r = c(a);
  REQUIRE(r.count == 3);
  CHECK(r.requests[0].address == 0x1000);
  CHECK(r.requests[1].address == 0x5000);
  CHECK(r.requests[2].address == 0x9000);
  CHECK(r.requests[0].lanes == 0xaaaaaaaau);  // lanes 1, 3, 5 ... (lines[1] and lines[3])
}

TEST_CASE("coalescer: a misaligned warp spills into the next segment", "[memory][coalescer]") {
  Coalesced c;
  const CoalescedAccess& r = c(strided(0x1002, 4));  // bytes 0x1002 .. 0x1081
  REQUIRE(r.count == 2);
  CHECK(r.requests[0].address == 0x1000);
  CHECK(r.requests[0].bytes == 128);
  CHECK(r.requests[1].address == 0x1080);
  CHECK(r.requests[1].bytes == 32);
  CHECK(r.requests[1].lanes == 0x80000000u);  // only lane 31 crosses
  CHECK(r.requests[1].byte_mask == ByteMask::range(0, 2));
  CHECK(r.requests[0].byte_mask == ByteMask::range(2, 126));
}

TEST_CASE("coalescer: segment size follows the access size", "[memory][coalescer]") {
  Coalesced c;
  // 1-byte accesses use 32-byte segments.
  const CoalescedAccess& bytes = c(strided(0x100, 1, 1));
  REQUIRE(bytes.count == 1);
  CHECK(bytes.requests[0].bytes == 32);
  // 2-byte accesses use 64-byte segments.
  const CoalescedAccess& shorts = c(strided(0x100, 2, 2));
  REQUIRE(shorts.count == 1);
  CHECK(shorts.requests[0].address == 0x100);
  CHECK(shorts.requests[0].bytes == 64);
  // 16-byte accesses (an Accel-Sim trace's LDG.E.128 with base 0x7f580face400 and lane
  // stride 16, kernel-593): 512 bytes in four 128-byte requests.
  const CoalescedAccess& wide = c(strided(0x7f580face400ull, 16, 16));
  REQUIRE(wide.count == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(wide.requests[i].address == 0x7f580face400ull + 128 * i);
    CHECK(wide.requests[i].bytes == 128);
    CHECK(wide.requests[i].lanes == (0xffu << (8 * i)));
  }
  // ld.cg (L1 bypass): every segment is a 32-byte sector.
  WarpAccess cg = strided(0x1000, 4);
  cg.bypass_l1 = true;
  const CoalescedAccess& sectors = c(cg);
  REQUIRE(sectors.count == 4);
  CHECK(sectors.requests[3].address == 0x1060);
  CHECK(sectors.requests[3].bytes == 32);
}

TEST_CASE("coalescer: wide local accesses split into interleaved words", "[memory][coalescer]") {
  Coalesced c;
  const uint64_t stride = 15ull * 1536 * 4;  // words of all threads lie between a thread's words
  WarpAccess a = strided(0x100000, 4, 8);
  a.space = MemSpace::Local;
  a.local_word_stride = stride;
  const CoalescedAccess& r = c(a);
  REQUIRE(r.count == 2);
  CHECK(r.requests[0].address == 0x100000);
  CHECK(r.requests[1].address == 0x100000 + stride);
  CHECK(r.requests[0].bytes == 128);
  CHECK(r.requests[1].lanes == kFullMask);
}

TEST_CASE("coalescer: atomics to the same word need one request per lane", "[memory][coalescer]") {
  Coalesced c;
  WarpAccess same = strided(0x3000, 0);
  same.kind = MemKind::Atomic;
  const CoalescedAccess& r = c(same);
  REQUIRE(r.count == 32);
  CHECK(r.requests[0].bytes == 32);
  CHECK(r.requests[5].lanes == (1u << 5));
  WarpAccess distinct = strided(0x3000, 4);
  distinct.kind = MemKind::Atomic;
  CHECK(c(distinct).count == 1);
}

TEST_CASE("coalescer: constant loads coalesce per constant-cache line", "[memory][coalescer]") {
  Coalesced c;
  WarpAccess uniform = strided(0x400, 0);
  uniform.space = MemSpace::Constant;
  const CoalescedAccess& one = c(uniform);
  REQUIRE(one.count == 1);
  CHECK(one.requests[0].bytes == 64);
  WarpAccess indexed = strided(0x400, 4);
  indexed.space = MemSpace::Constant;
  CHECK(c(indexed).count == 2);  // 128 bytes over 64-byte lines
  indexed.kind = MemKind::Store;
  CHECK_THROWS_AS(c(indexed), std::invalid_argument);
}

TEST_CASE("coalescer: shared accesses cost bank-conflict passes, no requests",
          "[memory][coalescer]") {
  Coalesced c;
  const auto passes = [&](uint64_t stride) {
    WarpAccess a = strided(0, stride);
    a.space = MemSpace::Shared;
    const CoalescedAccess& r = c(a);
    CHECK(r.count == 0);
    return r.shared_passes;
  };
  CHECK(passes(4) == 1);     // one word per bank
  CHECK(passes(8) == 2);     // two words in each even bank
  CHECK(passes(0) == 1);     // one word, broadcast
  CHECK(passes(128) == 32);  // every lane in bank 0
  CHECK(passes(12) == 1);    // odd word stride: conflict free
}

TEST_CASE("coalescer: an access size it does not know is refused",
          "[memory][coalescer][bad-input]") {
  Coalesced c;
  CHECK_THROWS_AS(c(strided(0, 4, 3)), std::invalid_argument);
  CHECK_THROWS_AS(c(strided(0, 4, 32)), std::invalid_argument);
}

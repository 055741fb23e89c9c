// Warped-Compression bookkeeping without SystemC: valid bits, bank gating and
// wake-up, range indicators, unit contention.
#include <catch2/catch.hpp>

#include "modules/bdi/unit_pool.h"
#include "modules/bdi/wc_state.h"

using namespace warpreg;
using namespace warpreg::bdi;

namespace {
WcStateConfig small_config() {
  WcStateConfig c;
  c.physical_registers = 64;
  c.banks = 4;
  c.lane_slices = 8;
  c.entries_per_bank = 16;
  c.gating = true;
  c.wakeup_latency = 10;
  return c;
}
}  // namespace

TEST_CASE("wc state: banks gate when no entry is valid and wake on a write", "[bdi][gating]") {
  WcRegisterState s(small_config());
  // Nothing valid yet: every 16-byte bank (bank x slice column) is gated.
  for (uint32_t c = 0; c < s.columns(); ++c) CHECK(s.gated(c));
  // A <4,0> register in bank 1 occupies slice 0: that column wakes, ready 10 cycles later.
  CHECK(s.set_valid(5, 1, 0b1, 100) == 110);
  CHECK_FALSE(s.gated(1 * 8 + 0));
  CHECK(s.gated(1 * 8 + 1));
  CHECK(s.wakeups() == 1);
  // Another register in the same column finds it awake (no extra wake-up).
  CHECK(s.set_valid(9, 1, 0b1, 120) == 120);
  CHECK(s.wakeups() == 1);
  // An uncompressed write of register 9 wakes the 7 other columns of bank 1.
  CHECK(s.set_valid(9, 1, 0xff, 130) == 140);
  CHECK(s.wakeups() == 8);
  CHECK(s.valid_slices(9) == 0xff);
  // Register 9 recompressed to <4,1> (3 slices): columns 3..7 of bank 1 lose their only
  // valid entry and gate at cycle 200.
  CHECK(s.set_valid(9, 1, 0b111, 200) == 200);
  CHECK(s.gate_events() == 5);
  for (uint32_t slice = 0; slice < 8; ++slice) CHECK(s.gated(8 + slice) == (slice >= 3));
  const std::vector<uint64_t> gated = s.gated_cycles(300);
  CHECK(gated[8 + 0] == 100);        // gated 0..100
  CHECK(gated[8 + 1] == 130);        // gated 0..130, awake since
  CHECK(gated[8 + 4] == 130 + 100);  // gated 0..130 and 200..300
  CHECK(gated[0] == 300);            // bank 0 never used
  // The warp retires: all entries invalid, every column of bank 1 gated again.
  s.release(0, 16, 400);
  for (uint32_t slice = 0; slice < 8; ++slice) CHECK(s.gated(8 + slice));
  CHECK(s.gated_cycles(500)[8] == 100 + 100);
}

TEST_CASE("wc state: without gating nothing is gated and writes never wait", "[bdi][gating]") {
  WcStateConfig c = small_config();
  c.gating = false;
  WcRegisterState s(c);
  CHECK_FALSE(s.gated(0));
  CHECK(s.set_valid(3, 0, 0xff, 50) == 50);
  CHECK(s.set_valid(3, 0, 0x1, 60) == 60);
  CHECK(s.gate_events() == 0);
  CHECK(s.gated_cycles(100)[0] == 0);
}

TEST_CASE("wc state: range indicators and the compressed-register share", "[bdi][indicator]") {
  WcRegisterState s(small_config());
  s.allocate(4, 0);
  CHECK(s.indicator(2) == 0);
  s.set_indicator(2, 3, 10);
  CHECK(s.compressed_registers() == 1);
  s.set_indicator(2, 1, 20);  // still compressed, another encoding
  CHECK(s.compressed_registers() == 1);
  s.set_indicator(2, 0, 30);
  CHECK(s.compressed_registers() == 0);
  CHECK(s.compressed_register_cycles(100) == 20);
  CHECK(s.allocated_register_cycles(100) == 400);
  s.set_indicator(1, 2, 40);
  s.release(0, 4, 50);
  CHECK(s.indicator(1) == 0);
  CHECK(s.compressed_register_cycles(100) == 30);
  CHECK(s.allocated_register_cycles(100) == 200);
  CHECK(s.slices_of(0x0000000f) == 0x1);
  CHECK(s.slices_of(0x00000fff) == 0x7);
  CHECK(s.lanes_of(0x7) == 0x00000fffu);
}

TEST_CASE("wc state: pipelined units accept one operation per cycle each", "[bdi][units]") {
  UnitPool pool(2);
  CHECK(pool.acquire(5) == 5);
  CHECK(pool.acquire(5) == 5);
  CHECK(pool.acquire(5) == 6);  // both busy in cycle 5
  CHECK(pool.acquire(5) == 6);
  CHECK(pool.acquire(5) == 7);
  CHECK(pool.acquire(20) == 20);
  CHECK(pool.activations() == 6);
  CHECK(pool.contended() == 3);
  CHECK(pool.wait_cycles() == 1 + 1 + 2);
}

TEST_CASE("wc state: an operation takes the unit free earliest, wherever it is in the pool",
          "[bdi][units]") {
  UnitPool pool(3);
  CHECK(pool.acquire(6) == 6);  // unit 0 free from 7
  CHECK(pool.acquire(4) == 4);  // unit 1 free from 5
  CHECK(pool.acquire(8) == 8);  // unit 2 free from 9
  CHECK(pool.acquire(0) == 5);  // the middle unit
  CHECK(pool.acquire(0) == 6);  // again: free from 6, before unit 0's 7
  CHECK(pool.acquire(0) == 7);  // units 0 and 1 free from 7
  CHECK(pool.acquire(0) == 7);
  CHECK(pool.acquire(0) == 8);
  CHECK(pool.acquire(0) == 8);
  CHECK(pool.acquire(0) == 9);
  CHECK(pool.wait_cycles() == 5 + 6 + 7 + 7 + 8 + 8 + 9);
}

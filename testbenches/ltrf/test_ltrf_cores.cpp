// LTRF cores without SystemC: the address allocation unit's queues, the warp control
// block's address table and storage, PREFETCH of interval working sets, LTRF+'s
// live-only fetch and write-back, and the RFC's FIFO over warps.
#include <catch2/catch.hpp>

#include "modules/ltrf/address_allocation.h"
#include "modules/ltrf/ltrf_core.h"
#include "modules/ltrf/main_rf_config.h"

using namespace warpreg;

namespace {

RegisterSet regs(std::initializer_list<size_t> list) {
  RegisterSet s;
  for (size_t r : list) s.set(r);
  return s;
}

WarpRegister value_of(uint32_t seed) {
  WarpRegister v;
  for (unsigned i = 0; i < kWarpSize; ++i) v.lane[i] = seed * 1000 + i;
  return v;
}

LtrfCoreConfig small_config(LtrfMode mode) {
  LtrfCoreConfig c;
  c.mode = mode;
  c.regs_per_interval = 4;
  c.active_warps = 2;
  c.max_warps = 4;
  c.resident_warps = 4;
  c.regs_per_warp = 8;
  c.main.banks = 4;
  c.main.entries_per_bank = 8;
  c.main.read_latency = 6;
  c.main.write_latency = 6;
  return c;
}

WarpInst inst_of(InstClass cls) {
  WarpInst i;
  i.cls = cls;
  return i;
}

}  // namespace

TEST_CASE("address allocation unit: allocate from the unused head and return to its tail",
          "[ltrf][core]") {
  AddressAllocationUnit aau(4);
  CHECK(aau.allocate() == 0);
  CHECK(aau.allocate() == 1);
  CHECK(aau.allocate() == 2);
  aau.deallocate(1);
  CHECK(aau.unused_queue() == std::vector<uint32_t>{3, 1});
  CHECK(aau.occupied_queue() == std::vector<uint32_t>{0, 2});
  CHECK(aau.oldest_occupied() == 0);
  CHECK(aau.allocate() == 3);
  CHECK(aau.allocate() == 1);
  CHECK(aau.allocate() == AddressAllocationUnit::kNone);
  CHECK_THROWS_AS(AddressAllocationUnit(2).deallocate(1), std::logic_error);
  aau.deallocate_all();
  CHECK(aau.free_slots() == 4);
  CHECK(aau.storage_bits() == 2 * 4 * 2);
}

TEST_CASE("warp control block storage matches the seed's 114880 bits", "[ltrf][core]") {
  LtrfCoreConfig c = small_config(LtrfMode::Ltrf);
  c.max_warps = 64;
  c.resident_warps = 1;
  c.max_regs_per_thread = 256;
  c.regs_per_interval = 32;
  c.active_warps = 8;
  c.main.banks = 16;
  c.main.entries_per_bank = 64;
  const LtrfCore core(c, {});
  CHECK(core.wcb_storage_bits() == 114880);
  c.regs_per_interval = 16;
  CHECK(LtrfCore(c, {}).cache_storage_bits() == 16 * 1024 * 8);
}

TEST_CASE("table 2 rows carry the seed's multipliers", "[ltrf][core]") {
  CHECK(main_rf_technology(1).latency == 1.0);
  CHECK(main_rf_technology(6).latency == 5.3);
  CHECK(main_rf_technology(7).power == 0.65);
  CHECK(main_rf_technology(7).capacity == 8.0);
  CHECK(main_rf_technology(5).banks == 8);
  CHECK_THROWS_AS(main_rf_technology(8), std::out_of_range);
}

TEST_CASE("ltrf core: activation fills the address table and prefetches the working set",
          "[ltrf][core]") {
  LtrfCore core(small_config(LtrfMode::Ltrf), {regs({1, 2, 3}), regs({3, 4})});
  // Values written while the warp is inactive go to the main register file.
  for (uint16_t r = 1; r <= 4; ++r) core.write(0, r, kFullMask, value_of(r), 0);
  CHECK(core.counters().direct_writes == 4);
  CHECK(core.before_issue(0, 0, 10) == LtrfCore::Ask::Wait);  // activated, fetching
  CHECK(core.status(0) == LtrfCore::Status::Active);
  const WarpControlBlock& wcb = core.wcb(0);
  CHECK(wcb.cached == regs({1, 2, 3}));
  CHECK(wcb.offset == 0);
  // Banks from the head of the warp's unused queue, one register per bank.
  CHECK(wcb.bank[1] == 0);
  CHECK(wcb.bank[2] == 1);
  CHECK(wcb.bank[3] == 2);
  CHECK(core.bank_unit(0).unused_queue() == std::vector<uint32_t>{3});
  // Lookup 1 + main latency 6 + 4-cycle crossbar transfer.
  CHECK(core.resident_at(0) == 10 + 1 + 6 + 4);
  CHECK(core.before_issue(0, 0, 20) == LtrfCore::Ask::Wait);
  CHECK(core.before_issue(0, 0, 21) == LtrfCore::Ask::Issue);
  WarpRegister out;
  const uint64_t ready = core.read(0, 2, 0, kFullMask, 21, out);
  CHECK(out == value_of(2));
  CHECK(ready == 21 + 1 + 1);  // WCB lookup + cache bank
  CHECK(core.counters().read_hits == 1);
  // The third operand waits for a WCB read port.
  core.read(0, 3, 2, kFullMask, 30, out);
  CHECK(core.counters().wcb_port_stalls == 1);

  SECTION("the next interval evicts the registers it does not use and fetches the new ones") {
    core.write(0, 1, kFullMask, value_of(11), 22);  // dirty: written back on eviction
    CHECK(core.before_issue(0, 1, 40) == LtrfCore::Ask::Prefetch);
    CHECK(core.counters().prefetches == 1);
    CHECK(core.wcb(0).cached == regs({3, 4}));
    CHECK(core.wcb(0).bank[3] == 2);  // stays where it was
    CHECK(core.counters().written_back == 1);
    CHECK(core.counters().fetched == 4);
    CHECK(core.main().peek(0 * 8 + 1) == value_of(11));
    CHECK(core.before_issue(0, 1, 41) == LtrfCore::Ask::Wait);
  }
  SECTION("a barrier deactivates the warp and writes its whole working set back") {
    core.write(0, 2, 0x0000ffffu, value_of(22), 22);
    core.issued(0, inst_of(InstClass::Barrier), {}, 30);
    CHECK(core.status(0) == LtrfCore::Status::Inactive);
    CHECK(core.counters().written_back == 3);
    WarpRegister expect = value_of(2);
    expect.merge(value_of(22), 0x0000ffffu);
    CHECK(core.main().peek(2) == expect);
    CHECK(core.offset_unit().free_slots() == 2);
  }
}

TEST_CASE("ltrf core: the third warp waits for a slot and takes one from a missed load",
          "[ltrf][core]") {
  LtrfCoreConfig c = small_config(LtrfMode::Ltrf);
  c.miss_cycles = 50;
  LtrfCore core(c, {regs({1})});
  core.before_issue(0, 0, 0);
  core.before_issue(1, 0, 0);
  CHECK(core.before_issue(2, 0, 0) == LtrfCore::Ask::Wait);
  CHECK(core.status(2) == LtrfCore::Status::Queued);
  WarpInst load = inst_of(InstClass::Load);
  load.num_dst = 1;
  load.dst[0] = 5;
  core.issued(1, load, {}, 20);
  CHECK(core.next_change(21) == 70);
  CHECK(core.before_issue(2, 0, 69) == LtrfCore::Ask::Wait);
  CHECK(core.status(1) == LtrfCore::Status::Active);
  core.before_issue(2, 0, 70);
  CHECK(core.status(1) == LtrfCore::Status::Inactive);
  CHECK(core.status(2) == LtrfCore::Status::Active);
  CHECK(core.counters().miss_deactivations == 1);
}

TEST_CASE("ltrf+ core: dead registers get a slot without a fetch and are not written back",
          "[ltrf][core]") {
  LtrfCore core(small_config(LtrfMode::LtrfPlus), {regs({1, 2, 3})});
  core.write(0, 1, kFullMask, value_of(1), 0);  // R1 live; R2, R3 never written: dead
  core.before_issue(0, 0, 10);
  CHECK(core.counters().fetched == 1);
  CHECK(core.counters().allocated_dead == 2);
  CHECK(core.wcb(0).cached == regs({1, 2, 3}));
  CHECK(core.resident_at(0) == 10 + 1 + 6 + 4);
  core.write(0, 2, kFullMask, value_of(2), 30);  // R2 becomes live
  // An instruction whose last read of R1 kills it.
  core.issued(0, inst_of(InstClass::Alu), regs({1}), 31);
  CHECK(core.wcb(0).live == regs({2}));
  core.issued(0, inst_of(InstClass::Barrier), {}, 40);
  CHECK(core.counters().written_back == 1);
  CHECK(core.main().peek(2) == value_of(2));
  // On reactivation only the live R2 is fetched.
  core.before_issue(0, 0, 50);
  CHECK(core.counters().fetched == 2);
  WarpRegister out;
  core.read(0, 2, 0, kFullMask, 70, out);
  CHECK(out == value_of(2));
}

TEST_CASE("ltrf+ core: a read of a register called dead is fetched and counted", "[ltrf][core]") {
  LtrfCore core(small_config(LtrfMode::LtrfPlus), {regs({1})});
  core.write(0, 1, kFullMask, value_of(1), 0);
  core.issued(0, inst_of(InstClass::Alu), regs({1}), 1);  // a wrong dead bit
  core.before_issue(0, 0, 10);
  CHECK(core.counters().allocated_dead == 1);
  WarpRegister out;
  const uint64_t ready = core.read(0, 1, 0, kFullMask, 20, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().unfetched_reads == 1);
  CHECK(ready > 20 + 6 + 4);
}

TEST_CASE("rfc core: a shared cache evicts FIFO across warps and writes dirty victims back",
          "[ltrf][core]") {
  LtrfCoreConfig c = small_config(LtrfMode::Rfc);
  c.regs_per_interval = 2;
  c.active_warps = 1;  // two entries in all
  LtrfCore core(c, {});
  CHECK(core.before_issue(3, kNoInterval, 0) == LtrfCore::Ask::Issue);
  core.write(0, 1, kFullMask, value_of(1), 0);
  core.write(1, 1, kFullMask, value_of(2), 1);
  WarpRegister out;
  core.read(0, 1, 0, kFullMask, 2, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().read_hits == 1);
  core.write(2, 1, kFullMask, value_of(3), 3);  // evicts warp 0's R1
  CHECK(core.counters().written_back == 1);
  CHECK(core.main().peek(0 * 8 + 1) == value_of(1));
  core.read(0, 1, 0, kFullMask, 4, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().read_misses == 1);
  // A divergent result covers some lanes only: the other lanes come from the main RF.
  core.write(2, 1, 0x1u, value_of(9), 5);
  core.read(2, 1, 0, kFullMask, 6, out);
  WarpRegister expect = value_of(3);
  expect.merge(value_of(9), 0x1u);
  CHECK(out == expect);
}

TEST_CASE("ltrf core: a strand header prefetches again on every arrival, an interval once",
          "[ltrf][core]") {
  LtrfCore core(small_config(LtrfMode::Ltrf), {regs({1, 2})});
  core.before_issue(0, 0, 0, true, 5);  // activation at dynamic instruction 5
  CHECK(core.before_issue(0, 0, 20, true, 5) == LtrfCore::Ask::Issue);
  // The loop comes back to the strand's first instruction (dynamic instruction 9).
  CHECK(core.before_issue(0, 0, 30, true, 9) == LtrfCore::Ask::Prefetch);
  CHECK(core.before_issue(0, 0, 31, true, 9) == LtrfCore::Ask::Issue);  // set still resident
  CHECK(core.counters().prefetches == 1);
  CHECK(core.counters().fetched == 2);
  // Register-intervals: the same arrival prefetches nothing.
  CHECK(core.before_issue(0, 0, 40, false, 13) == LtrfCore::Ask::Issue);
}

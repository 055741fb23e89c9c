// LTRF cores without SystemC: the address allocation unit's queues and address tables,
// the warp control block's storage, the register-file cache's ports and links, PREFETCH
// of interval working sets, LTRF+'s live-only fetch and write-back, and the RFC's FIFO
// over warps. The main register file behind the cache is a RegFileCore here.
#include <catch2/catch.hpp>
#include <map>
#include <memory>

#include "modules/ltrf/address_allocation.h"
#include "modules/ltrf/address_allocation_core.h"
#include "modules/ltrf/ltrf_core.h"
#include "modules/ltrf/main_rf_config.h"
#include "modules/ltrf/register_file_cache_core.h"
#include "modules/regfile/regfile_core.h"

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

// The main register file: banks with their ports and latency, accesses counted by kind.
struct BankedMain : MainRegisterFile {
  RegFileCore rf;
  uint32_t regs_per_warp;
  uint64_t by_kind[4] = {};
  BankedMain(const RegFileConfig& config, uint32_t regs) : rf(config), regs_per_warp(regs) {}
  uint32_t phys(uint32_t slot, uint16_t reg) const { return slot * regs_per_warp + reg; }
  Read read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out,
            MainAccess access) override {
    ++by_kind[static_cast<unsigned>(access)];
    const uint32_t p = phys(slot, reg);
    return {rf.read(p, rf.bank_of(p, uint16_t(slot), reg), cycle, out).ready_cycle, kFullMask};
  }
  uint64_t write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                 LaneMask mask, MainAccess access) override {
    ++by_kind[static_cast<unsigned>(access)];
    const uint32_t p = phys(slot, reg);
    return rf.write(p, rf.bank_of(p, uint16_t(slot), reg), cycle, value, mask).ready_cycle;
  }
  uint64_t count(MainAccess access) const { return by_kind[static_cast<unsigned>(access)]; }
  const WarpRegister& peek(uint32_t slot, uint16_t reg) const { return rf.peek(phys(slot, reg)); }
};

// A controller with its allocation unit, cache and main register file: 4 registers per
// interval, 2 active warps, 4 warp slots of 8 registers, a main RF of 4 banks at 6 cycles.
struct Ltrf {
  AddressAllocationCore allocation;
  RegisterFileCacheCore cache;
  BankedMain main;
  LtrfCore core;
  static AddressAllocationConfig allocation_config(uint32_t banks, uint32_t offsets) {
    AddressAllocationConfig a;
    a.max_warps = 4;
    a.banks = banks;
    a.offsets = offsets;
    return a;
  }
  static RegisterFileCacheConfig cache_config(uint32_t banks, uint32_t entries) {
    RegisterFileCacheConfig c;
    c.banks = banks;
    c.entries_per_bank = entries;
    return c;
  }
  static RegFileConfig main_config() {
    RegFileConfig m;
    m.banks = 4;
    m.entries_per_bank = 8;
    m.read_latency = 6;
    m.write_latency = 6;
    return m;
  }
  static LtrfCoreConfig core_config(LtrfMode mode, uint32_t miss_cycles) {
    LtrfCoreConfig c;
    c.mode = mode;
    c.max_warps = 4;
    c.regs_per_warp = 8;
    c.miss_cycles = miss_cycles;
    return c;
  }
  Ltrf(LtrfMode mode, std::vector<RegisterSet> sets, uint32_t banks = 4, uint32_t offsets = 2,
       uint32_t miss_cycles = 56)
      : allocation(allocation_config(banks, offsets)),
        cache(cache_config(banks, offsets)),
        main(main_config(), 8),
        core(core_config(mode, miss_cycles), std::move(sets), allocation, cache, main) {}
};

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
  CHECK(aau.occupied_queue() == std::vector<uint32_t>{0, 2, 3, 1});
  aau.deallocate(0);  // the oldest
  aau.deallocate(1);  // the newest
  CHECK(aau.occupied_queue() == std::vector<uint32_t>{2, 3});
  CHECK(aau.unused_queue() == std::vector<uint32_t>{0, 1});
  CHECK(aau.oldest_occupied() == 2);
  CHECK_THROWS_AS(aau.deallocate(1), std::logic_error);  // not occupied any more
  aau.deallocate_all();
  CHECK(aau.free_slots() == 4);
  CHECK(aau.unused_queue() == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(aau.oldest_occupied() == AddressAllocationUnit::kNone);
  aau.allocate();
  aau.reset();
  CHECK(aau.unused_queue() == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(aau.occupied_slots() == 0);
  CHECK(aau.storage_bits() == 2 * 4 * 2);
}

TEST_CASE("address allocation core: banks per warp, offsets shared, the address table",
          "[ltrf][core]") {
  AddressAllocationCore a(Ltrf::allocation_config(4, 2));
  CHECK(a.allocate_offset(3) == 0);
  CHECK(a.allocate_offset(1) == 1);
  CHECK(a.allocate_offset(2) == AddressAllocationCore::kNone);
  CHECK(a.offset(1) == 1);
  CHECK(a.allocate_bank(1, 7) == 0);
  CHECK(a.allocate_bank(1, 5) == 1);
  CHECK(a.allocate_bank(3, 5) == 0);  // another warp's unit
  CHECK(a.bank(1, 5) == 1);
  CHECK(a.oldest_bank(1) == 0);
  a.release_bank(1, 7);
  CHECK(a.bank_unit(1).unused_queue() == std::vector<uint32_t>{2, 3, 0});
  a.release_offset(3);
  CHECK(a.free_offsets() == 1);
  CHECK_THROWS_AS(a.release_offset(3), std::logic_error);
  a.reset(1);
  CHECK(a.bank_unit(1).free_slots() == 4);
  // Operands 0 and 1 share the two read ports, operand 2 waits one cycle.
  CHECK(a.lookup(0) == 1);
  CHECK(a.lookup(2) == 2);
  CHECK(a.counters().lookups == 2);
  CHECK(a.counters().port_stalls == 1);
  CHECK(a.counters().bank_allocations == 3);
  CHECK(a.counters().offset_releases == 1);
}

TEST_CASE("warp control block storage matches the seed's 114880 bits", "[ltrf][core]") {
  AddressAllocationConfig c;
  c.max_warps = 64;
  c.table_entries = 256;
  c.banks = 32;
  c.offsets = 8;
  const AddressAllocationCore a(c);
  // 64 x (256 x 5 + 3 + 256 + 256): address tables, offsets and the two bit-vectors.
  CHECK(a.address_table_bits() + a.offset_field_bits() + 64 * 2 * 256 == 114880);
  RegisterFileCacheConfig k;
  CHECK(RegisterFileCacheCore(k).storage_bits() == 16 * 1024 * 8);
}

TEST_CASE("register-file cache core: one read and one write port and one link per bank",
          "[ltrf][core]") {
  RegisterFileCacheCore cache(Ltrf::cache_config(4, 2));
  CHECK(cache.index(1, 3) == 7);
  CHECK(cache.bank_of(7) == 3);
  CHECK(cache.read(3, 10) == 11);
  CHECK(cache.read(3, 10) == 12);   // the bank's read port is taken in cycle 10
  CHECK(cache.write(3, 10) == 11);  // writes have their own port
  CHECK(cache.read(2, 10) == 11);
  CHECK(cache.transfer(0, 5) == 9);
  CHECK(cache.transfer(0, 5) == 13);  // the link carries one register per 4 cycles
  CHECK(cache.counters().reads == 3);
  CHECK(cache.counters().transfers == 2);
  CHECK_THROWS_AS(RegisterFileCacheCore(Ltrf::cache_config(0, 2)), std::invalid_argument);
}

TEST_CASE("register-file cache entry: reset leaves it as a new entry for its register",
          "[ltrf][core]") {
  CacheEntry e;
  for (unsigned i = 0; i < kWarpSize; ++i) e.value.lane[i] = i + 1;
  e.valid_lanes = 0xf0f0f0f0u;
  e.dirty = true;
  e.reg = 7;
  e.warp = 3;
  e.reset(12, 5);
  for (unsigned i = 0; i < kWarpSize; ++i) REQUIRE(e.value.lane[i] == 0);
  CHECK(e.valid_lanes == 0);
  CHECK_FALSE(e.dirty);
  CHECK(e.reg == 12);
  CHECK(e.warp == 5);
  e.reset();
  CHECK(e.reg == 0);
  CHECK(e.warp == 0);
}

TEST_CASE("table 2 rows carry the seed's multipliers", "[ltrf][core]") {
  CHECK(main_rf_technology(1).latency == 1.0);
  CHECK(main_rf_technology(6).latency == 5.3);
  CHECK(main_rf_technology(7).power == 0.65);
  CHECK(main_rf_technology(7).capacity == 8.0);
  CHECK(main_rf_technology(5).banks == 8);
  CHECK_THROWS_AS(main_rf_technology(8), std::out_of_range);
}

TEST_CASE("main register file of a Table 2 row: banks, latency and energy multipliers",
          "[ltrf][core]") {
  const Params p = Params::load("ltrf", {"ltrf.main_rf_config=6"});
  const RegFileTechnology t = main_rf_regfile_technology(MainRfParams(&p));
  CHECK(t.stated());
  CHECK(t.bank_multiplier == 8);
  CHECK(t.latency_multiplier == 5.3);
  CHECK(t.access_energy_multiplier == 1.05);
  CHECK(t.leakage_multiplier == Approx(1.05 / 8));
  const Params scaled = Params::load("ltrf", {"ltrf.main_rf_latency_scale=12"});
  CHECK(main_rf_regfile_technology(MainRfParams(&scaled)).latency_multiplier == 12.0);
}

TEST_CASE("ltrf core: activation fills the address table and prefetches the working set",
          "[ltrf][core]") {
  Ltrf l(LtrfMode::Ltrf, {regs({1, 2, 3}), regs({3, 4})});
  LtrfCore& core = l.core;
  // Values written while the warp is inactive go to the main register file.
  for (uint16_t r = 1; r <= 4; ++r) core.write(0, r, kFullMask, value_of(r), 0);
  CHECK(core.counters().direct_writes == 4);
  CHECK(l.main.count(MainAccess::Result) == 4);
  CHECK_FALSE(core.takes_result(0, 1));
  CHECK(core.before_issue(0, 0, 10) == LtrfCore::Ask::Wait);  // activated, fetching
  CHECK(core.status(0) == LtrfCore::Status::Active);
  CHECK(core.wcb(0).cached == regs({1, 2, 3}));
  CHECK(l.allocation.offset(0) == 0);
  // Banks from the head of the warp's unused queue, one register per bank.
  CHECK(l.allocation.bank(0, 1) == 0);
  CHECK(l.allocation.bank(0, 2) == 1);
  CHECK(l.allocation.bank(0, 3) == 2);
  CHECK(l.allocation.bank_unit(0).unused_queue() == std::vector<uint32_t>{3});
  CHECK(l.main.count(MainAccess::Fill) == 3);
  CHECK(core.takes_result(0, 1));
  // Lookup 1 + main latency 6 + 4-cycle crossbar transfer.
  CHECK(core.resident_at(0) == 10 + 1 + 6 + 4);
  CHECK(core.before_issue(0, 0, 20) == LtrfCore::Ask::Wait);
  CHECK(core.before_issue(0, 0, 21) == LtrfCore::Ask::Issue);
  WarpRegister out;
  const uint64_t ready = core.read(0, 2, 0, kFullMask, 21, out);
  CHECK(out == value_of(2));
  CHECK(ready == 21 + 1 + 1);  // WCB lookup + cache bank
  CHECK(core.counters().read_hits == 1);
  CHECK(l.cache.counters().reads == 1);
  // The third operand waits for a WCB read port.
  core.read(0, 3, 2, kFullMask, 30, out);
  CHECK(l.allocation.counters().port_stalls == 1);

  SECTION("the next interval evicts the registers it does not use and fetches the new ones") {
    core.write(0, 1, kFullMask, value_of(11), 22);  // dirty: written back on eviction
    CHECK(core.before_issue(0, 1, 40) == LtrfCore::Ask::Prefetch);
    CHECK(core.counters().prefetches == 1);
    CHECK(core.wcb(0).cached == regs({3, 4}));
    CHECK(l.allocation.bank(0, 3) == 2);  // stays where it was
    CHECK(core.counters().written_back == 1);
    CHECK(l.main.count(MainAccess::WriteBack) == 1);
    CHECK(core.counters().fetched == 4);
    CHECK(l.main.peek(0, 1) == value_of(11));
    CHECK(core.before_issue(0, 1, 41) == LtrfCore::Ask::Wait);
  }
  SECTION("a barrier deactivates the warp and writes its whole working set back") {
    core.write(0, 2, 0x0000ffffu, value_of(22), 22);
    core.issued(0, inst_of(InstClass::Barrier), {}, 30);
    CHECK(core.status(0) == LtrfCore::Status::Inactive);
    CHECK(core.counters().written_back == 3);
    WarpRegister expect = value_of(2);
    expect.merge(value_of(22), 0x0000ffffu);
    CHECK(l.main.peek(0, 2) == expect);
    CHECK(l.allocation.free_offsets() == 2);
  }
}

TEST_CASE("ltrf core: the third warp waits for a slot and takes one from a missed load",
          "[ltrf][core]") {
  Ltrf l(LtrfMode::Ltrf, {regs({1})}, 4, 2, 50);
  LtrfCore& core = l.core;
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
  Ltrf l(LtrfMode::LtrfPlus, {regs({1, 2, 3})});
  LtrfCore& core = l.core;
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
  CHECK(l.main.peek(0, 2) == value_of(2));
  // On reactivation only the live R2 is fetched.
  core.before_issue(0, 0, 50);
  CHECK(core.counters().fetched == 2);
  WarpRegister out;
  core.read(0, 2, 0, kFullMask, 70, out);
  CHECK(out == value_of(2));
}

TEST_CASE("ltrf+ core: a read of a register called dead is fetched and counted", "[ltrf][core]") {
  Ltrf l(LtrfMode::LtrfPlus, {regs({1})});
  LtrfCore& core = l.core;
  core.write(0, 1, kFullMask, value_of(1), 0);
  core.issued(0, inst_of(InstClass::Alu), regs({1}), 1);  // a wrong dead bit
  core.before_issue(0, 0, 10);
  CHECK(core.counters().allocated_dead == 1);
  WarpRegister out;
  const uint64_t ready = core.read(0, 1, 0, kFullMask, 20, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().unfetched_reads == 1);
  CHECK(l.main.count(MainAccess::Fill) == 1);  // the missing lanes come into the cache
  CHECK(ready > 20 + 6 + 4);
}

TEST_CASE("rfc core: a shared cache evicts FIFO across warps and writes dirty victims back",
          "[ltrf][core]") {
  Ltrf l(LtrfMode::Rfc, {}, 2, 1);  // two entries in all
  LtrfCore& core = l.core;
  CHECK(core.before_issue(3, kNoInterval, 0) == LtrfCore::Ask::Issue);
  CHECK(core.takes_result(3, 1));
  core.write(0, 1, kFullMask, value_of(1), 0);
  core.write(1, 1, kFullMask, value_of(2), 1);
  WarpRegister out;
  core.read(0, 1, 0, kFullMask, 2, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().read_hits == 1);
  core.write(2, 1, kFullMask, value_of(3), 3);  // evicts warp 0's R1
  CHECK(core.counters().written_back == 1);
  CHECK(l.main.peek(0, 1) == value_of(1));
  core.read(0, 1, 0, kFullMask, 4, out);
  CHECK(out == value_of(1));
  CHECK(core.counters().read_misses == 1);
  CHECK(l.main.count(MainAccess::Operand) == 1);  // the collector's own read goes on
  // A divergent result covers some lanes only: the other lanes come from the main RF.
  core.write(2, 1, 0x1u, value_of(9), 5);
  core.read(2, 1, 0, kFullMask, 6, out);
  WarpRegister expect = value_of(3);
  expect.merge(value_of(9), 0x1u);
  CHECK(out == expect);
}

TEST_CASE("ltrf core: a strand header prefetches again on every arrival, an interval once",
          "[ltrf][core]") {
  Ltrf l(LtrfMode::Ltrf, {regs({1, 2})});
  LtrfCore& core = l.core;
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

TEST_CASE("ltrf core: a working set larger than the banks is refused", "[ltrf][core]") {
  CHECK_THROWS_AS(Ltrf(LtrfMode::Ltrf, {regs({1, 2, 3, 4, 5})}), std::invalid_argument);
  // Mode direct is the active pool without a cache (BL and Ideal on the paper's
  // two-level scheduler): a controller of its own.
  CHECK_NOTHROW(Ltrf(LtrfMode::Direct, {}));
}

namespace {
/// Records what the core parks and releases.
struct RecordingParking : WarpParking {
  std::map<uint32_t, uint64_t> parked;  ///< slot -> until
  void park(uint32_t slot, uint64_t until) override { parked[slot] = until; }
  void release(uint32_t slot) override { parked.erase(slot); }
};
}  // namespace

TEST_CASE("ltrf core: parks a queued warp until it gets a slot, a fetching one until resident",
          "[ltrf][core]") {
  Ltrf l(LtrfMode::Ltrf, {regs({1})}, 4, 2, 50);
  LtrfCore& core = l.core;
  RecordingParking parking;
  core.attach_parking(&parking);
  CHECK(core.before_issue(0, 0, 0) == LtrfCore::Ask::Wait);  // fetching its working set
  REQUIRE(parking.parked.count(0) == 1);
  CHECK(parking.parked[0] == core.resident_at(0));
  CHECK(core.before_issue(0, 0, core.resident_at(0)) == LtrfCore::Ask::Issue);
  core.before_issue(1, 0, 0);
  CHECK(core.before_issue(2, 0, 0) == LtrfCore::Ask::Wait);
  REQUIRE(core.status(2) == LtrfCore::Status::Queued);
  CHECK(parking.parked[2] == WarpParking::kUntilReleased);
  WarpInst load = inst_of(InstClass::Load);
  load.num_dst = 1;
  load.dst[0] = 5;
  core.issued(1, load, {}, 20);
  // Before the miss the probe looks (replace_missed) and finds nothing: no other probe
  // can change anything in cycle 69 either.
  CHECK(core.parked_probe(2, 69));
  CHECK(parking.parked.count(2) == 1);
  // At the miss the probe replaces warp 1 by warp 2: both leave the parking lot.
  parking.parked[1] = 100;
  CHECK(core.parked_probe(2, 70));
  CHECK(core.status(1) == LtrfCore::Status::Inactive);
  CHECK(core.status(2) == LtrfCore::Status::Active);
  CHECK(parking.parked.count(1) == 0);
  CHECK(parking.parked.count(2) == 0);
}

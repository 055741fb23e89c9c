// The LTRF stage and its blocks bound to a stub initiator (the collectors) and a stub
// main register file: a PREFETCH's fills and its latency in sc_time_stamp(), data served
// from the cache, misses, results, fills and write-backs that go on to the main register
// file named by phys_reg, Wakes of cached destinations, bad payloads, and the blocks'
// hierarchical names and declared statistics.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <functional>
#include <systemc>
#include <vector>

#include "designs/ltrf/ltrf_stage.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_core.h"
#include "testbenches/support/thread_driver.h"

using namespace warpreg;
using sc_core::sc_time;
using warpreg::testing::ThreadDriver;

namespace {

constexpr uint32_t kRegsPerWarp = 8;
constexpr uint32_t kMainLatency = 6;  // configuration #7: 6.3 x 1 cycle

// The main register file: 16 banks of warp registers at kMainLatency, every access logged.
struct StubMain : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubMain> socket{"socket"};
  CycleClock clock;
  RegFileCore rf;
  std::vector<RfAccess> log;
  StubMain(sc_core::sc_module_name name, const CycleClock& c)
      : sc_module(name), clock(c), rf(config()) {
    socket.register_b_transport(this, &StubMain::transport);
  }
  static RegFileConfig config() {
    RegFileConfig k;
    k.banks = 16;
    k.entries_per_bank = 4;
    k.read_latency = kMainLatency;
    k.write_latency = kMainLatency;
    return k;
  }
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    RfAccess& a = rf_access_of(p);
    log.push_back(a);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) return;
    const uint64_t cycle = clock.cycle_at(delay);
    const uint32_t bank = rf.bank_of(a.phys_reg, a.warp_slot, a.arch_reg);
    const BankGrant g = a.kind == RfAccessKind::Read
                            ? rf.read(a.phys_reg, bank, cycle, register_of(p), a.read_lanes)
                            : rf.write(a.phys_reg, bank, cycle, register_of(p), a.active_mask);
    clock.complete_at(delay, g.ready_cycle);
  }
  size_t count(RfAccessKind kind) const {
    size_t n = 0;
    for (const RfAccess& a : log) n += a.kind == kind;
    return n;
  }
};

struct StubCollectors : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubCollectors> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;
  StubCollectors(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}
  /// An access of warp 1 (physical registers 8..15), ready to send.
  tlm::tlm_generic_payload& prepare(RfAccessKind kind, uint16_t reg) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = 1;
    a.cta_slot = 3;
    a.arch_reg = reg;
    a.collector = 5;
    a.phys_reg = kind == RfAccessKind::Launch ? kRegsPerWarp : kRegsPerWarp + reg;
    a.regs_per_warp = kind == RfAccessKind::Launch ? kRegsPerWarp : 0;
    return p;
  }
  /// The same at `cycle` without the socket, as the crossbar does (DirectTransport::serve):
  /// whether the stage served it (`ready` then set).
  bool serve(const DirectTransport& stage, RfAccessKind kind, uint16_t reg, uint64_t cycle,
             uint64_t& ready) {
    tlm::tlm_generic_payload& p = prepare(kind, reg);
    return stage.serve(stage.object, p, txn.access(), cycle, ready);
  }
  /// An access of warp 1 sent now; returns the cycles it took.
  uint64_t access(RfAccessKind kind, uint16_t reg) {
    tlm::tlm_generic_payload& p = prepare(kind, reg);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    REQUIRE(p.get_response_status() == tlm::TLM_OK_RESPONSE);
    return clock.cycle_of(delay);
  }
  void wait_until(uint64_t cycle) {
    const sc_time t = clock.cycles(cycle);
    if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
  }
};

LtrfConfig bench_config(LtrfMode mode, bool active_pool = true) {
  LtrfConfig c;
  c.active_pool = active_pool;
  c.main_rf_config = 7;
  c.core.mode = mode;
  c.core.max_warps = 2;
  c.core.regs_per_warp = kRegsPerWarp;
  c.allocation.max_warps = 2;
  return c;
}

struct Bench {
  power::TechTable tech = power::TechTable::load("wc45");
  CycleClock clock{1000.0};
  LtrfStage stage;
  StubCollectors collectors{"collectors", clock};
  StubMain main{"main", clock};
  Bench(LtrfMode mode, LtrfProgram program, bool active_pool = true)
      : stage("ltrf", bench_config(mode, active_pool), clock, tech, std::move(program)) {
    collectors.socket.bind(stage.target);
    stage.initiator.bind(main.socket);
  }
};

LtrfProgram one_interval(std::initializer_list<size_t> registers) {
  RegisterSet set;
  for (size_t r : registers) set.set(r);
  return LtrfProgram({set}, {{0x10, 0}});
}

}  // namespace

TEST_CASE("ltrf stage: a warp waits for its PREFETCH and then reads from the cache",
          "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1, 2}));
  uint64_t resident_cycle = 0, read_cycles = 0, write_cycles = 0;
  WarpRegister read_back;
  WarpInst inst;
  inst.pc = 0x10;
  ThreadDriver driver("driver", [&] {
    b.collectors.access(RfAccessKind::Launch, 0);
    b.collectors.buffer.lane.fill(7);
    write_cycles = b.collectors.access(RfAccessKind::Write, 2);  // inactive: to the main RF
    b.collectors.wait_until(10);
    CHECK(b.stage.before_issue(1, 3, 0, inst, 10) == IssueVerdict::Wait);
    const uint64_t next = b.stage.next_change(10);
    b.collectors.wait_until(next);
    CHECK(b.stage.before_issue(1, 3, 0, inst, next) == IssueVerdict::Issue);
    resident_cycle = b.clock.cycle_of(sc_core::sc_time_stamp());
    b.collectors.buffer.lane.fill(0);
    read_cycles = b.collectors.access(RfAccessKind::Read, 2);
    read_back = b.collectors.buffer;
  });
  sc_core::sc_start();
  CHECK(write_cycles == kMainLatency);
  // WCB lookup (1) + main RF #7 (6) + one 4-cycle transfer on the narrow crossbar.
  CHECK(resident_cycle == 10 + 1 + kMainLatency + 4);
  CHECK(read_cycles == 2);  // WCB lookup + cache bank
  CHECK(read_back.lane[31] == 7);
  // The main RF saw the Launch, the result and the two fills (LTRF fetches R1 too); the
  // cached read ended in the stage.
  REQUIRE(b.main.log.size() == 4);
  CHECK(b.main.log[0].kind == RfAccessKind::Launch);
  CHECK(b.main.log[1].kind == RfAccessKind::Write);
  CHECK(b.main.log[1].collector == 5);  // the collector's own transaction went on
  for (size_t k : {2, 3}) {
    const RfAccess& fill = b.main.log[k];
    CHECK(fill.kind == RfAccessKind::Read);
    CHECK(fill.collector == kNoCollector);
    CHECK(fill.warp_slot == 1);
    CHECK(fill.cta_slot == 3);
    CHECK(fill.phys_reg == kRegsPerWarp + fill.arch_reg);  // named by the warp's range
    CHECK(fill.read_lanes == kFullMask);
  }
  const nlohmann::json s = b.stage.stats(30);
  CHECK(s["fetched"] == 2);
  CHECK(s["activations"] == 1);
  CHECK(s["main_reads"] == 2);
  CHECK(s["main_writes"] == 1);
  CHECK(s["hit_rate"] == 1.0);
}

// The crossbar hands reads and writes to the stage at a cycle (DirectTransport::serve):
// the same cache, main-RF accesses and cycles as through the socket.
TEST_CASE("ltrf stage: served at a cycle as through its socket", "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1, 2}));
  const DirectTransport direct = b.stage.direct();
  REQUIRE(direct.serve != nullptr);
  uint64_t write_ready = 0, read_ready = 0, next = 0, refused_ready = 0;
  WarpRegister read_back;
  WarpInst inst;
  inst.pc = 0x10;
  ThreadDriver driver("driver", [&] {
    b.collectors.access(RfAccessKind::Launch, 0);
    CHECK_FALSE(b.collectors.serve(direct, RfAccessKind::Wake, 1, 0, write_ready));
    b.collectors.buffer.lane.fill(7);
    REQUIRE(b.collectors.serve(direct, RfAccessKind::Write, 2, 0, write_ready));
    b.collectors.wait_until(10);
    CHECK(b.stage.before_issue(1, 3, 0, inst, 10) == IssueVerdict::Wait);
    next = b.stage.next_change(10);
    b.collectors.wait_until(next);
    CHECK(b.stage.before_issue(1, 3, 0, inst, next) == IssueVerdict::Issue);
    b.collectors.buffer.lane.fill(0);
    REQUIRE(b.collectors.serve(direct, RfAccessKind::Read, 2, next, read_ready));
    CHECK(b.collectors.txn.payload().is_response_ok());
    read_back = b.collectors.buffer;
    REQUIRE(b.collectors.serve(direct, RfAccessKind::Read, kRegsPerWarp, next, refused_ready));
    CHECK(b.collectors.txn.payload().get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  CHECK(write_ready == kMainLatency);  // inactive: to the main RF
  CHECK(next == 10 + 1 + kMainLatency + 4);
  CHECK(read_ready == next + 2);  // WCB lookup + cache bank
  CHECK(read_back.lane[31] == 7);
  CHECK(refused_ready == next);
  REQUIRE(b.main.log.size() == 4);  // the Launch, the result and the two fills
  CHECK(b.main.log[1].kind == RfAccessKind::Write);
  CHECK(b.main.log[1].collector == 5);
  const nlohmann::json s = b.stage.stats(40);
  CHECK(s["fetched"] == 2);
  CHECK(s["main_writes"] == 1);
  CHECK(s["hit_rate"] == 1.0);
}

TEST_CASE("ltrf stage: a miss goes on as the collector's read, a write-back as the stage's",
          "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1}));
  WarpInst inst;
  inst.pc = 0x10;
  WarpInst barrier;
  barrier.pc = 0x10;
  barrier.cls = InstClass::Barrier;
  uint64_t miss_cycles = 0;
  WarpRegister missed;
  ThreadDriver driver("driver", [&] {
    b.collectors.access(RfAccessKind::Launch, 0);
    b.collectors.buffer.lane.fill(4);
    b.collectors.access(RfAccessKind::Write, 4);  // R4 is outside the interval
    b.collectors.wait_until(10);
    b.stage.before_issue(1, 3, 0, inst, 10);
    b.collectors.wait_until(b.stage.next_change(10));
    b.collectors.buffer.lane.fill(0);
    miss_cycles = b.collectors.access(RfAccessKind::Read, 4);  // not cached: main RF
    missed = b.collectors.buffer;
    b.collectors.buffer.lane.fill(9);
    b.collectors.access(RfAccessKind::Write, 1);  // into the cache, dirty
    b.stage.issued(1, 3, barrier, 40);            // leaves the pool: R1 written back
  });
  sc_core::sc_start();
  CHECK(miss_cycles == 1 + kMainLatency);  // WCB lookup, then the main RF
  CHECK(missed.lane[0] == 4);
  const RfAccess& miss = b.main.log[3];
  CHECK(miss.kind == RfAccessKind::Read);
  CHECK(miss.collector == 5);
  const RfAccess& write_back = b.main.log.back();
  CHECK(write_back.kind == RfAccessKind::Write);
  CHECK(write_back.collector == kNoCollector);
  CHECK(write_back.phys_reg == kRegsPerWarp + 1);
  CHECK(b.main.rf.peek(kRegsPerWarp + 1).lane[17] == 9);
  CHECK(b.main.count(RfAccessKind::Write) == 2);  // R4's result and R1's write-back
  CHECK(b.stage.stats(60)["written_back"] == 1);
}

TEST_CASE("ltrf stage: a Wake of a destination the cache takes goes on without a register",
          "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1}));
  WarpInst inst;
  inst.pc = 0x10;
  ThreadDriver driver("driver", [&] {
    b.collectors.access(RfAccessKind::Launch, 0);
    b.collectors.access(RfAccessKind::Wake, 1);  // inactive warp: R1 goes to the main RF
    b.stage.before_issue(1, 3, 0, inst, 0);
    b.collectors.wait_until(b.stage.next_change(0));
    b.collectors.access(RfAccessKind::Wake, 1);  // cached now
    b.collectors.access(RfAccessKind::Wake, 2);  // outside the working set
  });
  sc_core::sc_start();
  std::vector<RfAccess> wakes;
  for (const RfAccess& a : b.main.log)
    if (a.kind == RfAccessKind::Wake) wakes.push_back(a);
  REQUIRE(wakes.size() == 3);
  CHECK(wakes[0].phys_reg == kRegsPerWarp + 1);
  CHECK(wakes[1].phys_reg == kNoPhysical);
  CHECK(wakes[1].collector == 5);  // COMA still learns the collector's mask
  CHECK(wakes[2].phys_reg == kRegsPerWarp + 2);
}

TEST_CASE("ltrf stage: bad payloads get TLM error responses", "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1}));
  ThreadDriver driver("driver", [&] {
    tlm::tlm_generic_payload bare;  // no RfAccess extension
    sc_time delay = sc_core::SC_ZERO_TIME;
    b.collectors.socket->b_transport(bare, delay);
    CHECK(bare.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);

    tlm::tlm_generic_payload& shortp =
        b.collectors.txn.prepare(RfAccessKind::Read, &b.collectors.buffer);
    shortp.set_data_length(4);
    b.collectors.socket->b_transport(shortp, delay);
    CHECK(shortp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);

    tlm::tlm_generic_payload& far =
        b.collectors.txn.prepare(RfAccessKind::Read, &b.collectors.buffer);
    b.collectors.txn.access().arch_reg = kRegsPerWarp;
    b.collectors.socket->b_transport(far, delay);
    CHECK(far.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);

    tlm::tlm_generic_payload& slot = b.collectors.txn.prepare(RfAccessKind::Launch, nullptr);
    b.collectors.txn.access().warp_slot = 2;
    b.collectors.socket->b_transport(slot, delay);
    CHECK(slot.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  CHECK(b.main.log.empty());
}

TEST_CASE("ltrf stage: mode direct passes every access on to the main register file",
          "[ltrf][stage]") {
  Bench b(LtrfMode::Direct, {});
  CHECK(b.stage.direct().serve == nullptr);  // every access through transport()
  uint64_t read_cycles = 0;
  ThreadDriver driver("driver", [&] {
    b.collectors.buffer.lane.fill(3);
    b.collectors.access(RfAccessKind::Write, 2);
    b.collectors.buffer.lane.fill(0);
    read_cycles = b.collectors.access(RfAccessKind::Read, 2);
  });
  sc_core::sc_start();
  CHECK(read_cycles == kMainLatency);
  CHECK(b.collectors.buffer.lane[9] == 3);
  // ltrf.active_pool = on: the two-level active pool runs, with no cache behind it.
  CHECK(b.stage.core() != nullptr);
  for (sc_core::sc_object* child : b.stage.get_child_objects())
    CHECK(dynamic_cast<ReportingBlock*>(child) == nullptr);  // no cache, no allocation unit
  const nlohmann::json s = b.stage.stats(20);
  CHECK(s["main_reads"] == 1);
  CHECK(s["main_writes"] == 1);
  CHECK(s["read_misses"] == 1);
}

TEST_CASE("ltrf stage: mode direct without the active pool has no controller", "[ltrf][stage]") {
  Bench b(LtrfMode::Direct, {}, false);
  uint64_t read_cycles = 0;
  ThreadDriver driver("driver", [&] { read_cycles = b.collectors.access(RfAccessKind::Read, 2); });
  sc_core::sc_start();
  CHECK(read_cycles == kMainLatency);
  CHECK(b.stage.core() == nullptr);
  CHECK(b.stage.stats(20)["main_reads"] == 1);
}

TEST_CASE("ltrf stage: its blocks are child modules that report declared statistics",
          "[ltrf][stage]") {
  Bench b(LtrfMode::Ltrf, one_interval({1, 2}));
  std::vector<std::string> names;
  std::vector<ReportingBlock*> blocks = {&b.stage};
  for (sc_core::sc_object* child : b.stage.get_child_objects())
    if (auto* block = dynamic_cast<ReportingBlock*>(child)) blocks.push_back(block);
  for (ReportingBlock* block : blocks) names.push_back(block->block_name());
  CHECK(names == std::vector<std::string>{"ltrf", "ltrf.address_allocation_unit",
                                          "ltrf.register_file_cache"});
  sc_core::sc_start();
  for (ReportingBlock* block : blocks) {
    INFO(block->block_name());
    REQUIRE(block->statistics() != nullptr);
    CHECK(block->statistics()->block() == block->block_name());
    const nlohmann::json stats = block->stats(10);
    for (const auto& [key, value] : stats.items()) {
      INFO(key);
      const bool energy =
          key == "events" || key == "dynamic_pj" || key == "leakage_pj" || key == "residency";
      CHECK((energy || block->statistics()->declares(key)));
    }
    const nlohmann::json d = block->describe();
    CHECK(d.contains("storage_bits"));
    CHECK(d.contains("ports"));
    CHECK(d.contains("energy"));
  }
  // 16 banks x 8 entries of 128 B at wc45's per-byte bank leakage; reads and writes priced.
  const nlohmann::json cache = blocks[2]->describe();
  CHECK(cache["storage_bits"]["total"] == 16 * 8 * 128 * 8);
  CHECK(cache["energy"]["events"].size() == 2);
}

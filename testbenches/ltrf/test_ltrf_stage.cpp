// The LTRF stage bound to a stub initiator and a stub target: a PREFETCH's latency in
// sc_time_stamp(), data served from the cache, reads and writes that end in the stage.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <systemc>

#include "common/params.h"
#include "designs/ltrf/ltrf_stage.h"
#include "modules/interfaces/rf_access.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

struct StubTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubTarget> socket{"socket"};
  uint64_t reads_and_writes = 0, others = 0;
  explicit StubTarget(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &StubTarget::transport);
  }
  void transport(tlm::tlm_generic_payload& p, sc_time&) {
    const RfAccessKind k = rf_access_of(p).kind;
    (k == RfAccessKind::Read || k == RfAccessKind::Write ? reads_and_writes : others)++;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;
  StubInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}
  uint64_t access(RfAccessKind kind, uint16_t reg) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = 0;
    a.arch_reg = reg;
    a.phys_reg = reg;
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

LtrfConfig bench_config() {
  LtrfConfig c;
  c.main_rf_config = 7;
  LtrfCoreConfig& k = c.core;
  k.mode = LtrfMode::Ltrf;
  k.max_warps = 2;
  k.resident_warps = 2;
  k.regs_per_warp = 8;
  k.main.banks = 16;
  k.main.entries_per_bank = 1;
  k.main.read_latency = 6;  // #7: 6.3 x 1 cycle
  k.main.write_latency = 6;
  return c;
}

}  // namespace

TEST_CASE("ltrf stage: a warp waits for its PREFETCH and then reads from the cache",
          "[ltrf][stage]") {
  const power::TechTable tech = power::TechTable::load("wc45");
  const CycleClock clock{1000.0};
  RegisterSet set;
  set.set(1);
  set.set(2);
  LtrfStage stage("ltrf", bench_config(), clock, tech, LtrfProgram({set}, {{0x10, 0}}));
  StubInitiator init("init", clock);
  StubTarget target("target");
  init.socket.bind(stage.target);
  stage.initiator.bind(target.socket);

  uint64_t resident_cycle = 0, read_cycles = 0, write_cycles = 0;
  WarpRegister read_back;
  struct Driver : sc_core::sc_module {
    std::function<void()> body;
    SC_HAS_PROCESS(Driver);
    Driver(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
      SC_THREAD(run);
    }
    void run() { body(); }
  };
  WarpInst inst;
  inst.pc = 0x10;
  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 0);
    init.buffer.lane.fill(7);
    write_cycles = init.access(RfAccessKind::Write, 2);  // inactive: to the main RF
    init.wait_until(10);
    CHECK(stage.before_issue(0, 0, 0, inst, 10) == IssueVerdict::Wait);
    const uint64_t next = stage.next_change(10);
    init.wait_until(next);
    CHECK(stage.before_issue(0, 0, 0, inst, next) == IssueVerdict::Issue);
    resident_cycle = clock.cycle_of(sc_core::sc_time_stamp());
    init.buffer.lane.fill(0);
    read_cycles = init.access(RfAccessKind::Read, 2);
    read_back = init.buffer;
  });
  sc_core::sc_start();
  CHECK(write_cycles == 6);
  // WCB lookup (1) + main RF #7 (6) + one 4-cycle transfer on the narrow crossbar.
  CHECK(resident_cycle == 10 + 1 + 6 + 4);
  CHECK(read_cycles == 2);  // WCB lookup + cache bank
  CHECK(read_back.lane[31] == 7);
  // Reads and writes end in the stage; Launch goes on.
  CHECK(target.reads_and_writes == 0);
  CHECK(target.others == 1);
  const nlohmann::json s = stage.stats(30);
  CHECK(s["fetched"] == 2);  // LTRF fetches the whole working set, R1 too
  CHECK(s["activations"] == 1);
  CHECK(s["events"]["main_reads"] == 2);
  CHECK(s["events"]["cache_reads"] == 1);
}

// SmModule and Crossbar bound to stub targets: data, responses and SystemC time.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <map>
#include <systemc>
#include <vector>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "modules/memory/mem_request.h"
#include "modules/operand_path/crossbar.h"
#include "platforms/sm/sm_module.h"

using namespace warpreg;

namespace {

/// Stores registers by physical index; reads and writes take `latency` cycles.
struct StubRegisterFile : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubRegisterFile> socket{"socket"};
  CycleClock clock;
  uint64_t latency = 2;
  uint64_t reads = 0, writes = 0, others = 0;
  uint64_t last_access_cycle = 0;
  std::map<uint32_t, WarpRegister> store;
  std::map<uint16_t, uint64_t> write_cycle;  ///< by architected register

  StubRegisterFile(sc_core::sc_module_name n, const CycleClock& c) : sc_module(n), clock(c) {
    socket.register_b_transport(this, &StubRegisterFile::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const RfAccess& a = rf_access_of(p);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    if (a.kind == RfAccessKind::Read) {
      ++reads;
      register_of(p) = store[a.phys_reg];
    } else if (a.kind == RfAccessKind::Write) {
      ++writes;
      store[a.phys_reg].merge(register_of(p), a.active_mask);
      write_cycle[a.arch_reg] = clock.cycle_at(delay);
    } else {
      ++others;
      return;
    }
    last_access_cycle = clock.cycle_at(delay);
    delay += clock.cycles(latency);
  }
};

WarpTrace two_dependent_adds() {
  WarpTrace s;
  WarpInst a;
  a.pc = 0;
  a.num_dst = 1;
  a.dst[0] = 1;
  WarpInst b = a;
  b.pc = 8;
  b.dst[0] = 2;
  b.num_src = 1;
  b.src[0] = 1;
  b.value_index = 1;
  WarpInst exit;
  exit.pc = 16;
  exit.cls = InstClass::Exit;
  s.insts = {a, b, exit};
  s.values.resize(2);
  s.values[0].lane.fill(7);
  s.values[1].lane.fill(9);
  return s;
}

struct OneWarp : Workload {
  KernelShape k;
  WarpTrace s = two_dependent_adds();
  StoredStreamSlots slots;
  OneWarp() {
    k.name = "one";
    k.threads_per_cta = 32;
    k.regs_per_thread = 4;
  }
  const KernelShape& shape() const override { return k; }
  WarpStream& load_warp(uint32_t slot, uint32_t, uint32_t) override { return slots.play(slot, s); }
  std::string describe() const override { return "one warp"; }
};

}  // namespace

TEST_CASE("SM module: transactions carry the access cycle and time ends at the last cycle",
          "[sm][module]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock(params.real("sim.clock_mhz"));
  OneWarp workload;
  ShadowRegisterFile shadow(48, 256);
  SmModule sm("sm", SmConfig::from(params), workload, shadow, tech, clock, 1024, 0);
  StubRegisterFile rf("rf", clock);
  sm.rf_socket.bind(rf.socket);
  sc_core::sc_start();

  REQUIRE(sm.core().done());
  CHECK(rf.reads == 1);
  CHECK(rf.writes == 2);
  CHECK(rf.others == 2);  // launch and retire of the warp
  // i0: issue 0, dispatch 1, write at 5, readable at 7 (stub latency 2); i1 reads R1 at 7,
  // operand at 9, dispatch 9, write at 13, done at 15.
  CHECK(rf.last_access_cycle == 13);
  CHECK(sm.end_cycle() == 15);
  CHECK(sc_core::sc_time_stamp() == clock.cycles(15));
  CHECK(rf.store[2].lane[0] == 9);
  CHECK(shadow.checked_reads() == 1);
  CHECK(shadow.mismatches() == 0);
  const nlohmann::json stats = sm.stats(sm.end_cycle());
  CHECK(stats["events"]["operand_writes"] == 1);
}

TEST_CASE("crossbar: passes data, response and delay through and counts flits",
          "[crossbar][module]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock(params.real("sim.clock_mhz"));
  Crossbar xbar("xbar", params, tech, clock.ns_per_cycle());
  StubRegisterFile rf("rf", clock);
  struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
    explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
  } init("init");
  init.socket.bind(xbar.target);
  xbar.initiator.bind(rf.socket);
  rf.store[5].lane.fill(0xab);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  RfTransaction txn;
  WarpRegister buffer;
  tlm::tlm_generic_payload& p = txn.prepare(RfAccessKind::Read, &buffer);
  txn.access().phys_reg = 5;
  sc_core::sc_time delay = clock.cycles(3);
  init.socket->b_transport(p, delay);
  CHECK(p.is_response_ok());
  CHECK(buffer.lane[31] == 0xab);
  CHECK(delay == clock.cycles(5));
  txn.prepare(RfAccessKind::Release, nullptr);
  init.socket->b_transport(txn.payload(), delay);
  const nlohmann::json stats = xbar.stats(10);
  CHECK(stats["events"]["flits"] == 8);  // one 128-byte register, no flits for a release
  CHECK(stats["dynamic_pj"].get<double>() == Approx(8 * tech.value("crossbar_transfer")));
}

namespace {

/// A memory target at its own clock: answers every request `latency_ns` after it arrives
/// and accepts it at once.
struct StubMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubMemory> socket{"socket"};
  double latency_ns = 100;
  std::vector<sc_core::sc_time> arrivals;
  std::vector<uint64_t> addresses;
  std::vector<memory::MemKind> kinds;

  explicit StubMemory(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &StubMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    auto* r = p.get_extension<memory::MemRequest>();
    REQUIRE(r != nullptr);
    arrivals.push_back(sc_core::sc_time_stamp() + delay);
    addresses.push_back(p.get_address());
    kinds.push_back(r->kind);
    r->accepted = sc_core::sc_time_stamp() + delay;
    r->served_by = memory::MemLevel::Dram;
    delay += sc_core::sc_time(latency_ns, sc_core::SC_NS);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace

TEST_CASE("SM module: a load waits for the memory socket's answer, in SM cycles",
          "[sm][module][memory_system]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock(params.real("sim.clock_mhz"));  // 1400 MHz
  OneWarp workload;
  workload.s.insts[0].cls = InstClass::Load;  // R1 = load; R2 = R1 + ...; exit
  ShadowRegisterFile shadow(48, 256);
  SmConfig config = SmConfig::from(params);
  config.memory_system = true;
  const LoadStoreConfig lsu;
  SmModule sm("sm", config, workload, shadow, tech, clock, 1024, 0, &lsu);
  StubRegisterFile rf("rf", clock);
  StubMemory memory("memory"), constants("constants");
  sm.rf_socket.bind(rf.socket);
  REQUIRE(sm.memory_socket() != nullptr);
  sm.memory_socket()->bind(memory.socket);
  sm.constant_socket()->bind(constants.socket);
  sc_core::sc_start();

  REQUIRE(sm.core().done());
  CHECK(shadow.mismatches() == 0);
  REQUIRE(memory.arrivals.size() == 1);
  CHECK(memory.kinds[0] == memory::MemKind::Load);
  CHECK(memory.addresses[0] == LoadStoreUnit::default_base(0));
  CHECK(constants.arrivals.empty());
  // Dispatched at cycle 1; the answer 100 ns later falls between two SM edges (a cycle
  // is 714 ps, so 100 ns is 140.06 cycles): R1 is written at the next edge, cycle 142,
  // and the add reads it only after that.
  CHECK(memory.arrivals[0] == clock.cycles(1));
  CHECK(clock.ticks_per_cycle() == 714);
  CHECK(rf.write_cycle[1] == 142);
  CHECK(rf.write_cycle[2] > 142 + 4);
  CHECK(sm.end_cycle() > rf.write_cycle[2]);
  CHECK(sm.load_store_unit()->counters().requests == 1);
  CHECK(sm.core().counters().loads == 1);
  CHECK(sm.core().counters().load_hits == 0);
}

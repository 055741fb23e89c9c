// RegisterFileModule bound to a stub initiator: data, response and timing.
#include <tlm_utils/simple_initiator_socket.h>

#include <catch2/catch.hpp>
#include <systemc>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_module.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;

  StubInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}

  /// One access at `at_cycle` cycles after now; returns the annotated delay in cycles.
  uint64_t access(RfAccessKind kind, uint16_t warp, uint16_t reg, uint64_t at_cycle,
                  LaneMask mask = kFullMask) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = warp;
    a.arch_reg = reg;
    a.phys_reg = warp * 16u + reg;
    a.active_mask = mask;
    sc_time delay = clock.cycles(at_cycle);
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
    return clock.cycle_of(delay);
  }
  tlm::tlm_response_status last_response = tlm::TLM_INCOMPLETE_RESPONSE;
};

/// The register file at the default parameters, driven by a stub initiator.
struct RegisterFileBench {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{params.real("sim.clock_mhz")};
  RegisterFileModule rf{"rf", params, tech, clock};
  StubInitiator init{"init", clock};
  RegisterFileBench() { init.socket.bind(rf.socket); }
};

}  // namespace

TEST_CASE("register file module: write then read returns the data with bank timing",
          "[regfile][module]") {
  RegisterFileBench bench;
  RegisterFileModule& rf = bench.rf;
  StubInitiator& init = bench.init;
  const CycleClock& clock = bench.clock;

  struct Driver : sc_core::sc_module {
    SC_HAS_PROCESS(Driver);
    Driver(sc_core::sc_module_name n, StubInitiator& i, const CycleClock& c)
        : sc_module(n), init(i), clock(c) {
      SC_THREAD(run);
    }
    void run() {
      for (unsigned l = 0; l < kWarpSize; ++l) init.buffer.lane[l] = 0x1000 + l;
      // Write R2 of warp 1 at cycle 0: readable after the 1-cycle write latency.
      CHECK(init.access(RfAccessKind::Write, 1, 2, 0) == 1);
      CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
      sc_core::wait(clock.cycles(3));
      CHECK(sc_core::sc_time_stamp() == clock.cycles(3));
      init.buffer = WarpRegister{};
      // Read it back at cycle 3 (delay 0): data, and done after the read latency.
      CHECK(init.access(RfAccessKind::Read, 1, 2, 0) == 1);
      CHECK(init.buffer.lane[7] == 0x1007);
      // R2 of warp 17 is in the same GPGPU-Sim bank, (2 + 17) mod 16 = (2 + 1) mod 16 = 3,
      // so a second read in the same cycle waits one cycle for the port.
      CHECK(init.access(RfAccessKind::Read, 17, 2, 0) == 2);
      // A different bank in the same cycle is served at once.
      CHECK(init.access(RfAccessKind::Read, 2, 2, 0) == 1);
      // Transaction kinds the baseline does not act on are accepted without delay.
      CHECK(init.access(RfAccessKind::Release, 1, 2, 0) == 0);
      CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
      done = true;
    }
    StubInitiator& init;
    CycleClock clock;
    bool done = false;
  } driver("driver", init, clock);

  sc_core::sc_start();
  CHECK(driver.done);
  CHECK(rf.core().counters().reads == 3);
  CHECK(rf.core().counters().conflicted_reads == 1);
  const nlohmann::json stats = rf.stats(10);
  CHECK(stats["events"]["slice_reads"] == 3);
  CHECK(stats["events"]["bank_conflicts"] == 1);
  CHECK(stats["storage_bits"] == 32768ull * 32);
  CHECK(stats["dynamic_pj"].get<double>() > 0);
  CHECK(stats["leakage_pj"].get<double>() > 0);
}

TEST_CASE("register file module: an access beyond the register file is an address error",
          "[regfile][module][bad-input]") {
  RegisterFileBench bench;
  StubInitiator& init = bench.init;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  init.access(RfAccessKind::Read, 2000, 0, 0);
  CHECK(init.last_response == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

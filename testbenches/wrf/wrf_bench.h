#pragma once
// A stub initiator and a stub target around one WRF stage (TRIC or COMA): the
// target serves every read and write in the cycle it arrives, with a one-cycle
// latency, and records what reached it.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/cycle_clock.h"
#include "common/params.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

namespace warpreg::test {

/// Every key of a block's stats that is not an energy field is one it declares.
inline void check_declared(const ReportingBlock& block, const nlohmann::json& stats) {
  REQUIRE(block.statistics() != nullptr);
  for (const auto& item : stats.items()) {
    INFO(block.block_name() << "." << item.key());
    const std::string& key = item.key();
    const bool energy =
        key == "events" || key == "dynamic_pj" || key == "leakage_pj" || key == "residency";
    CHECK((energy || block.statistics()->declares(key)));
  }
}

/// Runs `body` in an SC_THREAD, then the simulation to its end.
template <typename Body>
void run_thread(Body body) {
  struct Driver : sc_core::sc_module {
    Body body;
    SC_HAS_PROCESS(Driver);
    Driver(sc_core::sc_module_name n, Body b) : sc_module(n), body(std::move(b)) { SC_THREAD(run); }
    void run() { body(); }
  } driver("driver", std::move(body));
  sc_core::sc_start();
}

/// What a WRF block sees when it is elaborated (DesignContext), without the platform.
struct WrfContext {
  Params params;
  std::unique_ptr<Workload> workload;
  DesignBench bench;
  WrfContext(const std::string& preset, const std::vector<std::string>& sets)
      : params(Params::load(preset, sets)),
        workload(open_workload("synthetic", params)),
        bench(params, *workload) {}
  const DesignContext& context() const { return bench.context(); }
  const CycleClock& clock() const { return context().clock; }
};

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;
  tlm::tlm_response_status last_response = tlm::TLM_INCOMPLETE_RESPONSE;

  StubInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}

  /// A payload without the RfAccess extension: every stage answers it with an error.
  tlm::tlm_response_status send_without_extension() {
    tlm::tlm_generic_payload bare;
    bare.set_command(tlm::TLM_READ_COMMAND);
    bare.set_data_ptr(buffer.bytes());
    bare.set_data_length(kWarpRegisterBytes);
    bare.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(bare, delay);
    return bare.get_response_status();
  }
  /// A read whose data is not one 128-byte warp register.
  tlm::tlm_response_status send_short_read(uint32_t phys_reg) {
    tlm::tlm_generic_payload& p = txn.prepare(RfAccessKind::Read, &buffer);
    txn.access().phys_reg = phys_reg;
    p.set_data_length(64);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    return p.get_response_status();
  }

  /// One transaction, ready to send.
  tlm::tlm_generic_payload& prepare(RfAccessKind kind, uint32_t phys_reg, uint16_t collector,
                                    LaneMask mask, uint32_t regs_per_warp, uint8_t operand_slot) {
    const bool data = kind == RfAccessKind::Read || kind == RfAccessKind::Write;
    tlm::tlm_generic_payload& p = txn.prepare(kind, data ? &buffer : nullptr);
    RfAccess& a = txn.access();
    a.phys_reg = phys_reg;
    a.collector = collector;
    a.active_mask = mask;
    a.regs_per_warp = regs_per_warp;
    a.operand_slot = operand_slot;
    return p;
  }

  /// Sends one transaction now; returns its annotated delay (when it completes).
  sc_core::sc_time send(RfAccessKind kind, uint32_t phys_reg, uint16_t collector = 0,
                        LaneMask mask = kFullMask, uint32_t regs_per_warp = 0,
                        uint8_t operand_slot = 0) {
    tlm::tlm_generic_payload& p =
        prepare(kind, phys_reg, collector, mask, regs_per_warp, operand_slot);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
    return delay;
  }

  /// Hands one transaction to `stage` at `cycle` as a stage before it does, without the
  /// socket (DirectTransport::serve); returns whether it served it (`ready` then set).
  bool serve(const DirectTransport& stage, RfAccessKind kind, uint32_t phys_reg, uint64_t cycle,
             uint64_t& ready, uint16_t collector = 0, LaneMask mask = kFullMask) {
    tlm::tlm_generic_payload& p = prepare(kind, phys_reg, collector, mask, 0, 0);
    const bool served = stage.serve(stage.object, p, txn.access(), cycle, ready);
    last_response = p.get_response_status();
    return served;
  }
};

struct StubTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubTarget> socket{"socket"};
  CycleClock clock;
  struct Seen {
    RfAccessKind kind;
    uint32_t phys_reg;
    uint64_t cycle;
    LaneMask read_lanes;
  };
  std::vector<Seen> seen;

  StubTarget(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {
    socket.register_b_transport(this, &StubTarget::b_transport);
  }

  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    const RfAccess& a = rf_access_of(payload);
    const uint64_t cycle = clock.cycle_at(delay);
    seen.push_back({a.kind, a.phys_reg, cycle, a.read_lanes});
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
    if (a.kind == RfAccessKind::Read) {
      // Only the lanes the read touches are driven: lane l of entry r reads r * 100 + l.
      WarpRegister& out = register_of(payload);
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (a.read_lanes >> l & 1u) out.lane[l] = a.phys_reg * 100 + l;
    }
    if (a.kind == RfAccessKind::Read || a.kind == RfAccessKind::Write)
      clock.complete_at(delay, cycle + 1);
  }
};

}  // namespace warpreg::test

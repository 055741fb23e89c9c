#pragma once
// What the Warped-Compression module test benches share: a DesignContext without the
// platform, an SC_THREAD driver, a stub operand-path initiator and a stub bank target.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

namespace warpreg::testing {

/// A design's view of preset `preset` plus `sets` on the synthetic workload, with the
/// storage power of `storage` (a register file module's, or the bench's own map).
struct WcContext {
  const Params params;
  std::unique_ptr<Workload> workload;
  DesignBench bench;
  explicit WcContext(const std::vector<std::string>& sets, const std::string& preset = "wc")
      : params(Params::load(preset, sets)),
        workload(open_workload("synthetic", params)),
        bench(params, *workload) {}
  const DesignContext& context() const { return bench.context(); }
  /// The same context with the cells' power states kept by `storage`.
  DesignContext with_storage(StoragePower& storage) const {
    const DesignContext& c = bench.context();
    return {c.params,  c.tech,      c.clock,   c.kernel,   c.workload,
            c.machine, c.occupancy, c.regfile, c.metadata, storage};
  }
};

/// Runs `body` in an SC_THREAD.
struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() { body(); }
};

/// Sends register-file accesses as the SM's collectors would.
struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;
  tlm::tlm_response_status last_response = tlm::TLM_INCOMPLETE_RESPONSE;
  unsigned last_length = 0;

  StubInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}

  /// One access of warp `warp`'s register `reg` (physical `phys`, by default the direct
  /// name warp x 64 + reg) now; returns the cycles until it completes.
  uint64_t access(RfAccessKind kind, uint16_t reg, LaneMask mask = kFullMask, uint16_t warp = 0,
                  uint32_t phys = kNoPhysical) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = warp;
    a.arch_reg = reg;
    a.phys_reg = phys == kNoPhysical ? warp * 64u + reg : phys;
    a.active_mask = mask;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
    last_length = p.get_data_length();
    return clock.cycle_of(delay);
  }
  /// The same access at absolute cycle `cycle` without the socket, as the crossbar does
  /// (DirectTransport::serve): whether the stage served it (`ready` then the cycle it
  /// completes).
  bool serve(const DirectTransport& stage, RfAccessKind kind, uint16_t reg, uint64_t cycle,
             uint64_t& ready, LaneMask mask = kFullMask) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = 0;
    a.arch_reg = reg;
    a.phys_reg = reg;
    a.active_mask = mask;
    const bool served = stage.serve(stage.object, p, a, cycle, ready);
    last_response = p.get_response_status();
    last_length = p.get_data_length();
    return served;
  }
  /// A Launch or Retire of physical registers [first, first + count).
  void range(RfAccessKind kind, uint32_t first, uint32_t count) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, nullptr);
    txn.access().phys_reg = first;
    txn.access().regs_per_warp = count;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
  }
  /// Waits until absolute cycle `cycle`.
  void wait_until(uint64_t cycle) {
    const sc_core::sc_time t = clock.cycles(cycle);
    if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
  }
};

/// Records what reaches the banks and answers after a fixed latency, or with an error.
struct StubTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubTarget> socket{"socket"};
  CycleClock clock;
  uint64_t latency = 3;
  tlm::tlm_response_status answer = tlm::TLM_OK_RESPONSE;
  struct Seen {
    RfAccessKind kind;
    uint64_t cycle;
    uint32_t phys_reg;
    uint32_t regs_per_warp;
    LaneMask active_mask, read_lanes;
    WarpRegister data;
  };
  std::vector<Seen> seen;
  WarpRegister stored;  ///< what a read returns

  StubTarget(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {
    socket.register_b_transport(this, &StubTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const RfAccess& a = rf_access_of(p);
    const uint64_t cycle = clock.cycle_at(delay);
    const bool data = a.kind == RfAccessKind::Read || a.kind == RfAccessKind::Write;
    if (a.kind == RfAccessKind::Read) register_of(p) = stored;
    seen.push_back({a.kind, cycle, a.phys_reg, a.regs_per_warp, a.active_mask, a.read_lanes,
                    data ? register_of(p) : WarpRegister{}});
    if (a.kind == RfAccessKind::Write) stored = register_of(p);
    p.set_response_status(answer);
    if (data) clock.complete_at(delay, cycle + latency);
  }
};

inline WarpRegister ramp(uint32_t base, uint32_t step) {
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = base + step * i;
  return r;
}

/// Every key of a block's stats() that is not an energy field is one its StatSet declares.
inline std::vector<std::string> undeclared_keys(const nlohmann::json& stats, const StatSet& set) {
  std::vector<std::string> out;
  for (const auto& [key, value] : stats.items()) {
    (void)value;
    if (key == "events" || key == "dynamic_pj" || key == "leakage_pj" || key == "residency")
      continue;
    if (!set.declares(key)) out.push_back(key);
  }
  return out;
}

}  // namespace warpreg::testing

#pragma once
// The TRIC stage on the operand path (seed 002 §4.1): keeps every register
// entry's power state, holds an access back until its entry is ON, counts
// residency per state for leakage and checks that no OFF entry is ever accessed
// and no DROWSY one before it is ON.
//
// Transactions: Launch / Retire (a warp's register range, OFF <-> DROWSY), Wake
// (a destination register of a warp assigned a collector unit), Read (a source:
// woken at its collector assignment, DROWSY again once read) and Write (the
// writeback: DROWSY again once written). Everything is forwarded unchanged except
// the annotated delay of an access that must wait for its entry to wake.
#include "common/cycle_clock.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/wrf/tric_core.h"
#include "power/energy.h"

namespace warpreg {

class ComaModule;
class Params;

class TricModule : public OperandStage, public ReportingBlock, private TransitionSink {
 public:
  /// Throws ConfigError when the parameters describe no valid TRIC.
  TricModule(sc_core::sc_module_name name, const Params& params, const power::TechTable& tech,
             const CycleClock& clock);

  static TricConfig config_from(const Params& params);

  const TricCore& core() const { return core_; }
  const power::EnergyAccount& energy() const { return energy_; }
  /// With COMA on the same path (preset `wrf`), stats() weights TRIC's leakage saving
  /// and COMA's dynamic saving into the paper's total (seed 002 §6.4).
  void attach_coma(const ComaModule* coma) { coma_ = coma; }

  std::string block_name() const override { return "tric"; }
  bool wants_collector_wakes() const override { return true; }
  bool owns_register_leakage() const override { return true; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  void transition(RegPower from, RegPower to, uint64_t cycle) override;

  CycleClock clock_;
  uint32_t read_latency_;
  uint32_t write_latency_;
  double drowsy_fraction_;
  double entry_on_mw_ = 0;  ///< leakage of one ON register entry
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId wakeups_, sleeps_, launches_;
  power::EnergyAccount::GroupId entries_;
  TricCore core_;
  const ComaModule* coma_ = nullptr;
};

}  // namespace warpreg

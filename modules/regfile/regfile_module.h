#pragma once
// The register file as a TLM target: banks, lane slices and the bank arbiter
// (RegFileCore) with their timing and energy. Reads and writes carry one warp
// register; other transaction kinds are accepted and ignored by the baseline.
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <optional>
#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/regfile/regfile_core.h"
#include "modules/regfile/storage_power_map.h"
#include "power/energy.h"

namespace warpreg {

class Params;

class RegisterFileModule : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::simple_target_socket<RegisterFileModule> socket;

  /// Throws ConfigError when the parameters describe no valid register file.
  RegisterFileModule(sc_core::sc_module_name name, const Params& params,
                     const power::TechTable& tech, const CycleClock& clock);

  static RegFileConfig config_from(const Params& params);

  RegFileCore& core() { return core_; }
  const RegFileCore& core() const { return core_; }

  std::string block_name() const override { return "regfile"; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  /// The cells' power states as the designs' power controllers set them; the module
  /// accounts their leakage (per cell) as soon as one controller is registered.
  StoragePower& storage_power() { return power_map_; }
  /// A stage that models the register file's storage itself (LTRF's main register
  /// file) accounts the banks' leakage: this module's becomes 0 and stats name the stage.
  /// Call before the run.
  void hand_over_leakage(const std::string& stage);
  const StoragePowerMap& power_map() const { return power_map_; }

  /// Waveform: per bank, accesses granted in the traced cycle, and the bank power state.
  void enable_trace(sc_core::sc_trace_file* file);
  /// Publishes the trace signals for `cycle` (called once per cycle while tracing).
  void trace_cycle(uint64_t cycle);

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  void note_activity(uint32_t bank, uint64_t cycle);

  CycleClock clock_;
  RegFileCore core_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId slice_reads_, slice_writes_, arbiter_requests_, conflicts_;
  power::EnergyAccount::GroupId banks_;
  StoragePowerMap power_map_;
  std::optional<power::EnergyAccount::GroupId> cells_;  ///< once a controller is registered
  std::string leakage_owner_;  ///< the stage that models the storage itself, if any
  double cell_on_mw_ = 0;  ///< leakage of one ON cell (one lane slice of one entry)

  static constexpr uint32_t kTraceWindow = 64;  ///< cycles ahead a grant may be traced
  std::vector<uint8_t> activity_;               ///< per (cycle mod window, bank): grants
  std::vector<std::unique_ptr<sc_core::sc_signal<uint32_t>>> activity_signals_;
  std::vector<std::unique_ptr<sc_core::sc_signal<uint32_t>>> power_signals_;
};

}  // namespace warpreg

#pragma once
// LTRF (seed 004) on the operand path: one stage that holds the register-file cache and
// the main register file (LtrfCore) and answers the issue stage (PREFETCH, the active
// pool of the two-level scheduler). Reads and writes end here: the SM's register-file
// module behind it stands idle, this block accounts the main RF's energy and leakage
// with the Table 2 multipliers of ltrf.main_rf_config. docs/blocks/ltrf.md.
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/cycle_clock.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/ltrf/ltrf_core.h"
#include "modules/ltrf/main_rf_config.h"
#include "power/energy.h"

namespace warpreg {

class Params;
struct DesignContext;
struct Kernel;

struct LtrfConfig {
  LtrfCoreConfig core;
  uint32_t main_rf_config = 1;
  double latency_scale = 1.0;  ///< main-RF latency multiplier in use (Table 2 or the override)
  uint32_t base_latency = 1;   ///< main-RF latency of configuration #1, cycles
  bool strands = false;        ///< prefetch units are strands (§6.6), not register-intervals
  /// Reads ltrf.* and the SM's sizes; mode Off when ltrf.mode = off. Throws ConfigError
  /// naming the option.
  static LtrfConfig from(const Params& params, const DesignContext& context);
};

/// Per static instruction (by PC): its register-interval and the sources whose value
/// dies with it (the dead operand bits of §3.2, from static liveness).
/// Metadata kind of LtrfProgram.
inline const char* const kLtrfProgram = "ltrf.program";

class LtrfProgram {
 public:
  LtrfProgram() = default;
  /// Throws std::invalid_argument when an instruction alone needs more than N registers.
  /// `strands`: prefetch units are strands (§6.6) instead of register-intervals:
  /// pieces of basic blocks that also end after every load, each re-prefetched
  /// whenever a warp reaches its first instruction.
  LtrfProgram(const Kernel& kernel, uint32_t regs_per_interval, bool strands = false);
  /// Built by the compiler pass (designs/ltrf/compiler/ltrf_pass.cpp).
  /// Explicit intervals (test benches): instruction PCs with their interval ids.
  LtrfProgram(std::vector<RegisterSet> interval_sets,
              const std::vector<std::pair<uint64_t, uint32_t>>& pc_intervals);
  uint32_t interval_of(uint64_t pc) const;
  const RegisterSet& dead_after(uint64_t pc) const;
  /// True when the instruction starts a strand (strand mode only).
  bool starts_unit(uint64_t pc) const;
  bool strands() const { return strands_; }
  const std::vector<RegisterSet>& interval_sets() const { return sets_; }
  uint32_t intervals() const { return static_cast<uint32_t>(sets_.size()); }
  double mean_static_length() const { return mean_length_; }

 private:
  std::unordered_map<uint64_t, uint32_t> index_of_pc_;
  std::vector<uint32_t> interval_;
  std::vector<RegisterSet> dead_;
  std::vector<bool> header_;
  std::vector<RegisterSet> sets_;
  bool strands_ = false;
  double mean_length_ = 0.0;
};

class LtrfStage : public OperandStage, public IssueHook, public ReportingBlock {
 public:
  /// Throws ConfigError when LTRF needs static code the workload lacks, or the
  /// kernel does not fit.
  LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config, const DesignContext& context);
  /// For test benches: a core over explicit interval sets and program.
  LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config, const CycleClock& clock,
            const power::TechTable& tech, LtrfProgram program);

  bool owns_register_leakage() const override { return true; }

  // IssueHook
  IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index, const WarpInst& inst,
                            uint64_t now) override;
  void issued(uint32_t slot, uint32_t cta_slot, const WarpInst& inst, uint64_t now) override;
  uint64_t next_change(uint64_t now) const override { return core_.next_change(now); }
  std::string wait_report() const override { return core_.wait_report(); }

  // ReportingBlock
  std::string block_name() const override { return "ltrf"; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  const LtrfCore& core() const { return core_; }
  LtrfCore& core() { return core_; }

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  void declare_energy(const power::TechTable& tech);

  LtrfConfig config_;
  CycleClock clock_;
  LtrfProgram program_;
  LtrfCore core_;
  /// Per warp: the PC last asked about and its interval (a warp asks every cycle).
  struct AskedPc {
    uint64_t pc = ~uint64_t(0);
    uint32_t interval = kNoInterval;
    bool header = false;
  };
  std::vector<AskedPc> asked_;
  uint64_t issued_instructions_ = 0;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId cache_reads_ = 0, cache_writes_ = 0, main_reads_ = 0,
                                main_writes_ = 0, wcb_lookups_ = 0, transfers_ = 0;
  bool energy_counted_ = false;
};

}  // namespace warpreg

#pragma once
// RegMutex (seed 003) in the SM: one operand-path stage that is also an issue hook.
// At issue, a warp entering an acquire region issues an acquire (a metadata
// instruction) or waits for a free SRP section; leaving it, it issues a release. On
// the operand path the mapping unit turns every architected register into its
// physical register (base set or SRP section). docs/blocks/regmutex.md.
#include <string>
#include <vector>

#include "designs/regmutex/regmutex_plan.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/regmutex/regmutex_core.h"
#include "power/energy.h"

namespace warpreg {

class Params;
struct DesignContext;

struct RegMutexConfig {
  RegMutexMode mode = RegMutexMode::Off;
  uint32_t forced_es = 0;  ///< regmutex.extended_regs; 0: the sizing pass decides
  /// Reads regmutex.*. Throws ParamError naming the option.
  static RegMutexConfig from(const Params& params);
};

class RegMutexStage : public OperandStage, public IssueHook, public ReportingBlock {
 public:
  /// Throws ConfigError when the workload has no static code, or a deadlock rule fails.
  RegMutexStage(sc_core::sc_module_name name, const RegMutexConfig& config,
                const DesignContext& context);

  bool translates_names() const override { return true; }

  // IssueHook
  IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index, const WarpInst& inst,
                            uint64_t now) override;
  void issued(uint32_t slot, uint32_t cta_slot, const WarpInst& inst, uint64_t now) override;
  void cta_finished(uint32_t cta_slot, uint64_t now) override;
  std::string wait_report() const override;
  const Occupancy* resident_occupancy() const override {
    return plan_.applied ? &plan_.occupancy : nullptr;
  }

  // ReportingBlock
  std::string block_name() const override { return "regmutex"; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  const RegMutexPlan& plan() const { return plan_; }
  const RegMutexAllocator& allocator() const { return allocator_; }

  struct Counters {
    uint64_t acquires = 0;            ///< acquire instructions that took a section
    uint64_t first_try_acquires = 0;  ///< ... without waiting first
    uint64_t failed_attempts = 0;     ///< cycles a warp found no section (one per warp-cycle)
    uint64_t releases = 0;            ///< release instructions
    uint64_t release_waits = 0;       ///< cycles a release waited for its extended writes
    uint64_t released_at_exit = 0;
    uint64_t acquire_wait_cycles = 0;  ///< sum over acquires of cycles from first try to success
    uint64_t base_accesses = 0, extended_accesses = 0;
    uint64_t issued = 0;                ///< warp instructions issued
    uint64_t acquire_state_issued = 0;  ///< ... in the acquire state (ours)
    uint64_t over_base_issued = 0;      ///< ... with more than |B_s| live (the paper's)
  };
  const Counters& counters() const { return counters_; }

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  struct WarpState {
    uint32_t pending_extended_writes = 0;  ///< issued, not yet written back
    uint64_t first_try = ~uint64_t(0);     ///< cycle of the current acquire's first try
    uint64_t last_failed = ~uint64_t(0);
  };
  void failed_try(WarpState& w, uint64_t now);
  void took_section(WarpState& w, uint64_t now);

  RegMutexConfig config_;
  RegMutexPlan plan_;
  RegMutexAllocator allocator_;
  std::vector<WarpState> warps_;
  Counters counters_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId acquire_event_, release_event_, mapping_event_;
};

}  // namespace warpreg

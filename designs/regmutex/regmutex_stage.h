#pragma once
// RegMutex (seed 003) in the SM: the assembly of the design. One operand-path stage
// that is also an issue hook, with the SRP allocator (modules/regmutex/srp_allocator.h)
// as its child block "regmutex.srp_allocator". At issue, a warp entering an acquire
// region issues an acquire (a metadata instruction) or waits for a free SRP section;
// leaving it, it issues a release. On the operand path the mapping unit turns every
// architected register into its physical register (base set or SRP section), and the
// stage tells the stages after it which physical ranges hold values: Launch of the
// base set at warp launch and of a section at acquire, Retire of a section at release
// and of the base set at the warp's exit. docs/blocks/regmutex.md.
#include <string>
#include <vector>

#include "designs/regmutex/regmutex_plan.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regmutex/srp_allocator.h"
#include "power/energy.h"

namespace warpreg {

struct DesignContext;

/// What the RegMutex stage reports (blocks.regmutex in stats.json).
struct RegMutexStats : StatSet {
  RegMutexStats() : StatSet("regmutex") {}
  Statistic<std::string> mode{this, "mode", "", "regmutex.mode."};
  Statistic<bool> applied{this, "applied", "",
                          "False when the kernel runs as on the baseline (|E_s| = 0)."};
  Statistic<std::string> decision{this, "decision", "", "What the plan chose and why."};
  Statistic<uint64_t> base_regs{this, "base_regs", "registers", "|B_s| per thread.",
                                StatSet::Combine::Mean};
  Statistic<uint64_t> extended_regs{this, "extended_regs", "registers", "|E_s| per thread.",
                                    StatSet::Combine::Mean};
  Statistic<uint64_t> sections{this, "sections", "sections", "SRP sections (shared mode).",
                               StatSet::Combine::Mean};
  Statistic<uint64_t> baseline_warps{this, "baseline_warps", "warps",
                                     "Resident warps without RegMutex.", StatSet::Combine::Mean};
  Statistic<uint64_t> resident_warps{this, "resident_warps", "warps",
                                     "Resident warps with RegMutex.", StatSet::Combine::Mean};
  Counter acquires{this, "acquires", "instructions", "Acquire instructions that took a section."};
  Counter first_try_acquires{this, "first_try_acquires", "instructions",
                             "Acquires that found a section at their first try."};
  Statistic<double> acquire_success_rate{
      this, "acquire_success_rate", "fraction",
      "first_try_acquires / acquires (seed 003 Figures 11b and 13)."};
  Counter failed_acquire_attempts{this, "failed_acquire_attempts", "warp-cycles",
                                  "Cycles a warp found no section (once per warp and cycle)."};
  Counter acquire_wait_cycles{this, "acquire_wait_cycles", "cycles",
                              "Sum over acquires of cycles from first try to success."};
  Counter releases{this, "releases", "instructions", "Release instructions."};
  Counter release_waits{this, "release_waits", "warp-cycles",
                        "Cycles a release waited for its region's extended writes."};
  Counter released_at_exit{this, "released_at_exit", "warps",
                           "Warps that still held a section when they exited."};
  Counter base_accesses{this, "base_accesses", "accesses", "Reads and writes of base registers."};
  Counter extended_accesses{this, "extended_accesses", "accesses",
                            "Reads and writes of extended registers."};
  Counter unmapped_accesses{this, "unmapped_accesses", "accesses",
                            "Accesses answered with an address error: an extended register of a "
                            "warp holding no section, or a register beyond the kernel's (0 on "
                            "every shipped preset)."};
  Statistic<double> acquire_state_fraction{
      this, "acquire_state_fraction", "fraction",
      "Issued instructions in the acquire state as implemented / all issued."};
  Statistic<double> over_base_fraction{
      this, "over_base_fraction", "fraction",
      "Issued instructions with more than |B_s| registers live (the paper's acquire state)."};
  Statistic<nlohmann::json> static_regions{
      this, "static", "instructions",
      "Static counts: instructions, acquire_state_instructions, over_base_instructions, "
      "acquire_points, release_points, barrier_live_registers.",
      StatSet::Combine::Mean};
};

class RegMutexStage : public OperandStage, public IssueHook, public ReportingBlock {
 public:
  /// Throws ConfigError when the workload has no static code, or a deadlock rule fails.
  RegMutexStage(sc_core::sc_module_name name, const DesignContext& context);

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
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  const RegMutexPlan& plan() const { return plan_; }
  const SrpAllocator& allocator() const { return allocator_; }
  const RegMutexStats& counters() const { return stats_; }

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  struct WarpState {
    uint16_t cta_slot = 0;
    uint32_t pending_extended_writes = 0;  ///< issued, not yet written back
    uint64_t first_try = ~uint64_t(0);     ///< cycle of the current acquire's first try
    uint64_t last_failed = ~uint64_t(0);
  };
  void failed_try(WarpState& w, uint64_t now);
  /// A section was taken at `now`: counts it and tells the stages after this one.
  void took_section(uint32_t slot, WarpState& w, uint64_t now);
  /// Sends Launch or Retire of physical registers [first, first + count) downstream,
  /// dated `delay` from now.
  void send_range(RfAccessKind kind, uint32_t slot, uint32_t first, uint32_t count,
                  sc_core::sc_time delay);
  /// A Read, Write or Wake: the mapping unit. False (after an address error) when the
  /// register has no physical location.
  bool map(tlm::tlm_generic_payload& payload, RfAccess& a);

  RegMutexParams params_;
  CycleClock clock_;
  RegMutexPlan plan_;
  SrpAllocator allocator_;
  std::vector<WarpState> warps_;
  RfTransaction range_txn_;  ///< the stage's own Launch / Retire
  /// Issued warp instructions, those in the acquire state (ours) and those with more
  /// than |B_s| registers live (the paper's).
  uint64_t issued_ = 0, acquire_state_issued_ = 0, over_base_issued_ = 0;
  RegMutexStats stats_;
  power::EnergyAccount energy_;  ///< none of its own: the allocator's is its child's
};

}  // namespace warpreg

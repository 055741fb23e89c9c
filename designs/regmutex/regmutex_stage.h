#pragma once
// RegMutex (seed 003) in the SM: the assembly of the design. One operand-path stage
// that is also an issue hook, with the SRP allocator (modules/regmutex/srp_allocator.h)
// as its child block "regmutex.srp_allocator". At issue, a warp entering an acquire
// region issues an acquire (a metadata instruction) or waits for a free SRP section;
// leaving it, it issues the compiler's MOVs of live values into base registers
// (per-release compaction) and a release. On the operand path the mapping unit turns every
// architected register into its physical register (base set or SRP section), and the
// stage tells the stages after it which physical ranges hold values: Launch of the
// base set at warp launch and of a section at acquire, Retire of a section at release
// and of the base set at the warp's exit. docs/blocks/regmutex.md.
#include <array>
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
  Counter compaction_moves{this, "compaction_moves", "instructions",
                           "MOVs of live values from extended to free base registers before a "
                           "release (per-release compaction; an issue slot, a read and a write "
                           "each)."};
  Counter base_renames{this, "base_renames", "instructions",
                       "Instructions in the release state that wrote a register whose index was "
                       "extended and got a free base index for it instead (per-release "
                       "compaction; no instruction of its own)."};
  Counter compaction_waits{this, "compaction_waits", "warp-cycles",
                           "Cycles a MOV, a rename or the instruction after a MOV waited: for the "
                           "write of a value to be moved, of a base register's dead value, or "
                           "for the MOV itself (per-release compaction)."};
  Statistic<std::string> compaction{this, "compaction", "",
                                    "regmutex.compaction as applied (owf: always static)."};
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
  uint64_t next_change(uint64_t now) const override;
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
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  struct WarpState {
    uint16_t cta_slot = 0;
    uint32_t pending_extended_writes = 0;  ///< issued, not yet written back (static)
    uint64_t first_try = ~uint64_t(0);     ///< cycle of the current acquire's first try
    uint64_t last_failed = ~uint64_t(0);
    // Per-release compaction: the register index (0 .. |B_s|-1 base, then extended) of
    // each architected register, the reverse, the registers with a write in flight, and
    // the cycle the last MOV's write is done.
    std::array<uint8_t, 256> index_of{};
    std::array<uint8_t, 256> register_at{};
    RegisterSet pending_writes;
    uint64_t moves_done = 0;
  };
  /// Counts a wait of `counter` once per cycle; returns IssueVerdict::Wait.
  IssueVerdict wait(WarpState& w, Counter& counter, uint64_t now);
  /// Asks the allocator for a section at `now`. Taken: counts it, tells the stages after
  /// this one and returns true; none free: counts the failed try and returns false.
  bool try_acquire(uint32_t slot, uint32_t cta_slot, WarpState& w, uint64_t now);
  /// Sends Launch or Retire of physical registers [first, first + count) downstream,
  /// dated `delay` from now.
  void send_range(RfAccessKind kind, uint32_t slot, uint32_t first, uint32_t count,
                  sc_core::sc_time delay);
  /// A Read, Write or Wake: the mapping unit. False (after an address error) when the
  /// register has no physical location.
  bool map(tlm::tlm_generic_payload& payload, RfAccess& a);

  /// Releases the warp's section (a Retire of its range downstream).
  void release(uint32_t slot, uint64_t now);

  // Per-release compaction (plan_.regions.per_release).
  IssueVerdict before_issue_per_release(uint32_t slot, uint32_t cta_slot, const WarpInst& inst,
                                        uint64_t now);
  /// A base index whose register is not in `keep` and has no write in flight, skipping
  /// the first `skip` such indices; kNoIndex when there is none.
  uint32_t free_base_index(const WarpState& w, const RegisterSet& keep, uint32_t skip) const;
  /// The instruction's destinations with an extended index, given free base indices
  /// (commit: swapped in; otherwise only checked). False when one has none.
  bool rename_destinations(WarpState& w, const WarpInst& inst, bool commit);
  /// One compaction MOV: register `reg` from extended index `from` to base index `to`.
  void move(uint32_t slot, WarpState& w, uint16_t reg, uint32_t from, uint32_t to, uint64_t now);
  void swap_indices(WarpState& w, uint32_t x, uint32_t y);
  /// The registers live before `inst` (throws std::logic_error for a PC without liveness).
  const RegisterSet& live_before(const WarpInst& inst) const;
  static constexpr uint32_t kNoIndex = ~0u;

  RegMutexParams params_;
  CycleClock clock_;
  uint32_t alu_latency_;  ///< cycles from a compaction MOV's read to its write
  RegMutexPlan plan_;
  SrpAllocator allocator_;
  std::vector<WarpState> warps_;
  RfTransaction range_txn_;  ///< the stage's own Launch / Retire
  RfTransaction move_txn_;   ///< compaction MOVs' reads and writes
  WarpRegister move_value_;
  uint64_t last_move_done_ = 0;  ///< the latest WarpState::moves_done
  /// Issued warp instructions, those in the acquire state (ours) and those with more
  /// than |B_s| registers live (the paper's).
  uint64_t issued_ = 0, acquire_state_issued_ = 0, over_base_issued_ = 0;
  RegMutexStats stats_;
  power::EnergyAccount energy_;  ///< none of its own: the allocator's is its child's
};

}  // namespace warpreg

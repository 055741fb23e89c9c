#pragma once
// What RegMutex decides before a kernel runs (plain C++): |B_s| and |E_s| (the sizing
// pass, or a forced |E_s|), the deadlock rules, the acquire regions and index
// compaction, the hardware geometry and the occupancy the SM gets from the base set.
#include <cstdint>
#include <string>
#include <vector>

#include "common/param_set.h"
#include "common/pc_index.h"
#include "common/register_set.h"
#include "modules/interfaces/occupancy.h"
#include "modules/regmutex/regmutex_core.h"

namespace warpreg {

/// How the compiler keeps a warp's live values within its base set while the extended
/// set is released (seed 003 §III-A4).
enum class RegMutexCompaction : uint8_t {
  PerRelease,  ///< the paper's: live values move into free base registers before each release
  Static       ///< one renumbering per kernel (Jatala et al.'s register declaration reordering)
};

/// RegMutex's parameters (regmutex.*): the mode picks the allocator hardware, |E_s|
/// the compiler's sizing.
struct RegMutexParams : ParamSet {
  explicit RegMutexParams(const Params* values = nullptr) : ParamSet("regmutex", values) {}
  Choice<RegMutexMode> mode{
      this,
      "mode",
      RegMutexMode::Shared,
      {{"shared", RegMutexMode::Shared},
       {"paired", RegMutexMode::Paired},
       {"owf", RegMutexMode::Owf}},
      "Register time-sharing (design regmutex): shared = RegMutex, extended sets from a shared "
      "register pool any warp may take (SRP bitmask + LUT); paired = the paired-warps "
      "specialisation (2|B_s| + |E_s| per pair of warps); owf = Jatala et al.'s resource sharing "
      "with owner-warp-first, one acquire per lifetime, the Figure 9 comparison.",
      "seed 003 §III-B (SRP allocator), §III-C (paired warps), §IV-C (OWF [7])"};
  Param<uint32_t> extended_regs{
      this,
      "extended_regs",
      0,
      {0, 254},
      "registers",
      "|E_s| per thread; 0: the compiler's sizing pass chooses it (§III-A2). A forced value that "
      "breaks a deadlock rule is a configuration error.",
      "seed 003 §IV-D: |E_s| set by hand to 2..12 for Figures 10-11"};
  Choice<bool> pairing{
      this,
      "pairing",
      false,
      {{"warps", false}, {"ctas", true}},
      "Which warps share an extended set in mode paired: warps = adjacent warps 2p and 2p+1 of "
      "one CTA; ctas = warp k of CTA slot 2c with warp k of CTA slot 2c+1 (a CTA's warps tend "
      "to reach their acquire regions together, two CTAs' less so; an unpaired last CTA keeps "
      "its own extended sets). Other modes refuse ctas.",
      "seed 003 §III-C names 'specific pairs of warps' without saying which; issue 17 "
      "(pairing across CTAs)"};
  Choice<RegMutexCompaction> compaction{
      this,
      "compaction",
      RegMutexCompaction::PerRelease,
      {{"per_release", RegMutexCompaction::PerRelease}, {"static", RegMutexCompaction::Static}},
      "Architected register index compaction in modes shared and paired (owf is always "
      "static). per_release = the paper's: a warp is in the acquire state where more than "
      "|B_s| registers are live; before each release every value still live in an extended "
      "register moves (a MOV: one issue slot, a read and a write) to a free base register, "
      "and keeps that register to the end of its live range; the deadlock rule needs |B_s| "
      ">= the most registers live at any one CTA barrier. static = one renumbering per "
      "kernel: a fixed set of architected registers forms E_s, none of them live at any "
      "barrier (|B_s| >= the union of the registers live at barriers), and every "
      "instruction touching one is in the acquire state (docs/blocks/regmutex.md).",
      "seed 003 §III-A2 (deadlock rule: 'the number of live registers at any point in the "
      "program that CTA-wide synchronization primitives ... exist'), §III-A4 ('index "
      "compaction may happen multiple times right before each release'); issue 17"};
};

/// The |E_s| fractions of the paper, in percent of the registers per thread.
constexpr uint32_t kRegMutexFractionsPercent[] = {10, 15, 20, 25, 30, 35};

struct RegMutexRegions {
  uint32_t bs = 0, es = 0;
  uint32_t regs_used = 0;  ///< Kernel::regs_used()
  /// Architected register -> register index after compaction (256 entries).
  std::vector<uint16_t> index_of;
  /// Per-release compaction: no fixed extended set; a warp's registers take base or
  /// extended indices as it runs (RegMutexStage), guided by live_before().
  bool per_release = false;
  RegisterSet extended;       ///< static: architected registers placed in the extended set
  RegisterSet barrier_live;   ///< static: registers live at any CTA barrier (kept in B_s)
  uint32_t instructions = 0;  ///< static instructions
  uint32_t acquire_state_instructions = 0;  ///< in the acquire state (rule 2)
  /// Instructions with more than |B_s| registers live (live before ∪ written): the
  /// acquire state the paper's per-release moves would reach.
  uint32_t over_base_instructions = 0;
  uint32_t acquire_points = 0;  ///< static region entries (acquire injections)
  uint32_t release_points = 0;  ///< static region exits (release injections)

  /// True when the instruction at `pc` runs in the acquire state; false for unknown PCs.
  bool in_acquire_state(uint64_t pc) const { return flags(pc) & kAcquireState; }
  /// True when more than |B_s| registers are live at `pc` (the paper's acquire state).
  bool over_base(uint64_t pc) const { return flags(pc) & kOverBase; }

  static constexpr uint8_t kAcquireState = 1, kOverBase = 2;
  uint8_t flags(uint64_t pc) const {
    const uint32_t f = flags_.find(pc);
    return f == PcIndex::kNone ? 0 : static_cast<uint8_t>(f);
  }
  PcIndex flags_;  ///< per PC: kAcquireState | kOverBase

  /// Per-release compaction: the registers live just before the instruction at `pc`, or
  /// nullptr for an unknown PC.
  const RegisterSet* live_before(uint64_t pc) const {
    const uint32_t i = point_.find(pc);
    return i == PcIndex::kNone ? nullptr : &live_before_[i];
  }
  PcIndex point_;                         ///< per PC: its index in live_before_
  std::vector<RegisterSet> live_before_;  ///< per-release only
};

struct RegMutexCandidate {
  uint32_t percent = 0;  ///< the fraction that produced it
  uint32_t es = 0, bs = 0;
  uint32_t warps = 0, ctas = 0;  ///< occupancy with the base set only; 0 if not evaluated
  uint32_t sections = 0;         ///< SRP sections; 0 if not evaluated
  bool chosen = false;
  std::string verdict;  ///< "chosen" or why it was rejected
};

struct RegMutexSizing {
  uint32_t allocated_regs = 0;  ///< R: regs_per_thread rounded to the granularity
  uint32_t bs = 0, es = 0;      ///< es = 0: RegMutex not applied, bs = R
  uint32_t sections = 0;        ///< SRP sections (concurrent E_s holders)
  uint32_t srp_offset = 0;      ///< warp registers taken by the base sets (W × |B_s|)
  uint32_t srp_registers = 0;   ///< warp registers in the SRP (sections × |E_s|)
  Occupancy baseline;           ///< with R registers per thread
  Occupancy occupancy;          ///< with |B_s| (the baseline if RegMutex is not applied)
  std::vector<RegMutexCandidate> candidates;  ///< one per fraction, in fraction order
  std::string decision;                       ///< one line: what was chosen and why
  static const char* rule();                  ///< the rule text above, for reports
};

struct RegMutexPlan {
  bool applied = false;  ///< false: |E_s| = 0, the kernel runs as on the baseline
  RegMutexGeometry geometry;
  RegMutexSizing sizing;  ///< the pass's answer (its candidates, even when |E_s| is forced)
  Occupancy baseline;     ///< without RegMutex
  Occupancy occupancy;    ///< with it (regs_per_thread stays the architected allocation)
  RegMutexRegions regions;
  /// The deadlock rule's bound on |B_s|: registers live at any CTA barrier (the union,
  /// static compaction) or at the barrier with the most (per-release compaction).
  uint32_t barrier_live = 0;
  uint32_t register_file = 0;  ///< warp registers of the register file
  std::string decision;        ///< one line for reports
};

struct Kernel;

/// The compiler's plan, metadata kind kRegMutexPlan (designs/regmutex/compiler/regmutex_pass.cpp).
inline const char* const kRegMutexPlan = "regmutex.plan";

/// Plans RegMutex in `mode` for `kernel` launched as `shape`. forced_es = 0 takes the
/// sizing pass's |E_s|; otherwise |E_s| = forced_es. Throws ConfigError when a forced
/// |E_s| breaks a deadlock rule (the pool must hold one E_s; every register live at a
/// CTA barrier must fit in B_s) or no CTA fits; pair_ctas (regmutex.pairing = ctas) is
/// for mode Paired only. Mode Owf always compacts statically.
RegMutexPlan plan_regmutex(const Kernel& kernel, const KernelShape& shape, const SmLimits& sm,
                           RegMutexMode mode, uint32_t forced_es, uint32_t register_file,
                           bool pair_ctas = false,
                           RegMutexCompaction compaction = RegMutexCompaction::PerRelease);

}  // namespace warpreg

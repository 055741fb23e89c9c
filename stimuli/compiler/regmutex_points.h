#pragma once
// RegMutex acquire/release placement (seed 003 §III-A3/A4): which static instructions
// run with the extended register set acquired, after a static index compaction that
// moves the registers with the fewest live points into the extended set. Plain C++;
// docs/blocks/regmutex.md has the rule and where it differs from the paper.
//
// The rule:
//  1. Compaction ("register declaration reordering", done once per kernel): the
//     k = regs_used − |B_s| registers of the extended set are chosen greedily, each time
//     the register that adds the fewest instructions to the union of the chosen ones'
//     live points (an instruction where the register is live before or after, read or
//     written). Registers live at a CTA barrier are never chosen (deadlock rule 2).
//     The base registers keep their order at indices 0..|B_s|−1, the chosen ones get
//     |B_s|..|B_s|+k−1.
//  2. An instruction is in the acquire state when an extended-set register is live
//     before or after it, or it reads or writes one. A warp acquires before the first
//     such instruction of a region and releases before the first instruction outside it
//     (equivalent to the compiler's injection at region entries and exits; the stage
//     decides at issue from these per-PC flags, as the injected instruction would).
//  3. So no extended register holds a live value while the set is released: the
//     integrity check depends on it.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

struct RegMutexRegions {
  uint32_t bs = 0, es = 0;
  uint32_t regs_used = 0;  ///< Kernel::regs_used()
  /// Architected register -> register index after compaction (256 entries).
  std::vector<uint16_t> index_of;
  RegisterSet extended;                     ///< architected registers placed in the extended set
  RegisterSet barrier_live;                 ///< registers live at any CTA barrier (kept in B_s)
  uint32_t instructions = 0;                ///< static instructions
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
    const auto it = flags_.find(pc);
    return it == flags_.end() ? 0 : it->second;
  }
  std::unordered_map<uint64_t, uint8_t> flags_;  ///< per PC: kAcquireState | kOverBase
};

/// Places the regions for |B_s| = bs, |E_s| = es. Throws std::invalid_argument when the
/// registers live at barriers cannot all stay in the base set (more than bs of them)
/// or the kernel names more registers than bs + es.
RegMutexRegions place_regmutex_regions(const Kernel& kernel, const Liveness& liveness, uint32_t bs,
                                       uint32_t es);

/// Every register live just before any CTA barrier (the union over barriers).
RegisterSet registers_live_at_barriers(const Kernel& kernel, const Liveness& liveness);

}  // namespace warpreg

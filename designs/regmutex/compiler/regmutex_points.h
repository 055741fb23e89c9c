#pragma once
// RegMutex acquire/release placement (seed 003 §III-A3/A4): which static instructions
// run with the extended register set acquired. Plain C++; docs/blocks/regmutex.md has
// the rules and where they differ from the paper.
//
// Per-release compaction (the paper's, place_per_release_regions): an instruction is in
// the acquire state when more than |B_s| registers are live before it or written by it;
// the stage moves live values out of extended registers before each release.
//
// Static compaction (place_regmutex_regions, OWF and regmutex.compaction = static):
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

#include "designs/regmutex/regmutex_plan.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// Places the regions for |B_s| = bs, |E_s| = es. Throws std::invalid_argument when the
/// registers live at barriers cannot all stay in the base set (more than bs of them)
/// or the kernel names more registers than bs + es.
RegMutexRegions place_regmutex_regions(const Kernel& kernel, const Liveness& liveness, uint32_t bs,
                                       uint32_t es);

/// The paper's regions with per-release index compaction (§III-A4): an instruction is in
/// the acquire state where more than |B_s| registers are live before it or written by it;
/// the registers live before each instruction go with the plan, for the stage's moves
/// before a release. Throws std::invalid_argument when the kernel names more than
/// bs + es registers or more than bs registers are live at one CTA barrier.
RegMutexRegions place_per_release_regions(const Kernel& kernel, const Liveness& liveness,
                                          uint32_t bs, uint32_t es);

/// Every register live just before any CTA barrier (the union over barriers).
RegisterSet registers_live_at_barriers(const Kernel& kernel, const Liveness& liveness);

}  // namespace warpreg

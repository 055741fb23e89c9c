#pragma once
// RFV renaming-candidate selection (seed 000 §7.1, "Reducing renaming table size"):
// under a renaming-table budget, only the registers with the shortest estimated value
// lifetime are renamed; the others are exempt (mapped directly, never released).
// Plain C++; docs/pass-release-flags.md describes the rule.
//
// The rule as implemented:
//  - Lifetime of register r: the instructions at which r is live (live_before of the
//    conservative liveness), summed over the kernel. It grows with both the length of
//    each value's life and the number of values (definitions), the paper's two
//    observations, so a register with more value instances sorts later.
//  - Renamed registers per warp K = floor(budget_bits / (entry_bits x resident warps)),
//    the paper's "top 1024 B / (10 bits x warps per CTA x concurrent CTAs)" registers.
//    budget_bits = 0 means the full table: every register is renamed.
//  - The K registers with the smallest lifetime are renamed (ties: lower id first);
//    the rest are exempt.
#include <cstdint>
#include <vector>

#include "designs/rfv/rfv_program.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// `regs_per_thread` is the kernel's register count (registers above the ones the
/// kernel names are exempt). Throws std::invalid_argument for entry_bits or
/// resident_warps of 0.
RenamingPlan select_renaming_candidates(const Kernel& kernel, const Liveness& liveness,
                                        uint32_t regs_per_thread, uint64_t budget_bits,
                                        uint32_t entry_bits, uint32_t resident_warps);

}  // namespace warpreg

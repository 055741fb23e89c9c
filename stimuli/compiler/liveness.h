#pragma once
// Register liveness of a static kernel, the first compiler pass of the register-file
// designs (release flags, RegMutex base/extended split, TRIC's OFF set). Plain C++.
//
// The rule (docs/compiler-passes.md has a worked example):
//  1. Backward dataflow to a fixed point over the CFG: live_before(i) = uses(i) ∪
//     (live_after(i) − kills(i)); live_out(b) = ∪ live_in(successors). Loop-carried
//     registers come out live around the whole loop from the fixed point.
//  2. A guarded (@P) write may not happen, so it does not kill the old value, except
//     for reads under the very same guard (same predicate, same sense, predicate not
//     rewritten in between, within the block): those lanes are exactly the ones it
//     writes. nvcc's if-converted "@!P0 MOV R15; @!P0 ST [R2], R15" would otherwise keep
//     R15 live from the kernel entry.
//  3. SIMT divergence: a warp runs one side of a divergent branch, then the other, and
//     writes only its active lanes. For every block B with two or more successors and
//     a post-dominator R (its reconvergence point), the region is every block reachable
//     from B's successors without passing through R (B itself only if a loop leads back
//     to it). Every register in live_out(B) ∪ live_in(R) is live at every instruction
//     and on entry and exit of every block of the region:
//       - live_out(B): a value the second path reads survives the first path;
//       - live_in(R): a value one path writes for its lanes and R reads survives the
//         other path (RegMutex §III-A1, register R2 of its Figure 3).
//     With R = kVirtualExit the region runs to the exits and only live_out(B) counts.
//     Blocks whose branch has no post-dominator (kNoPostDominator, nvdisasm's trailing
//     "BRA self" padding) keep plain dataflow. The extra registers are not propagated
//     backwards out of the region (they need not be live before B), so live_out(B) may
//     lack a register live_in of a successor; the region sets are iterated until
//     stable, which covers nested and overlapping regions.
#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "common/register_set.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// General registers R0..R254 (bit n = Rn); RZ (255) is never set.

struct Liveness {
  std::vector<RegisterSet> live_in_block, live_out_block;  ///< per block
  /// Per block, per instruction: live just before / just after the instruction.
  std::vector<std::vector<RegisterSet>> live_before, live_after;
  /// Max over instructions of |live_before ∪ defs|: the registers that must exist at once.
  uint32_t max_live = 0;
};

/// The liveness of every block and instruction, by the rule above.
Liveness compute_liveness(const Kernel& kernel);

/// Every general register the kernel reads or writes.
RegisterSet allocated_registers(const Kernel& kernel);

/// "R0-R3,R7": runs of two or more consecutive registers as a range; "" when empty.
std::string format_register_set(const RegisterSet& set);

}  // namespace warpreg

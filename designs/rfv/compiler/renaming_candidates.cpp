#include "designs/rfv/compiler/renaming_candidates.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace warpreg {

RenamingPlan select_renaming_candidates(const Kernel& kernel, const Liveness& liveness,
                                        uint32_t regs_per_thread, uint64_t budget_bits,
                                        uint32_t entry_bits, uint32_t resident_warps) {
  if (entry_bits == 0 || resident_warps == 0)
    throw std::invalid_argument(
        "renaming candidates: entry_bits and resident_warps must be positive");
  RenamingPlan plan;
  plan.regs_per_thread = regs_per_thread;
  plan.lifetime.assign(regs_per_thread, 0);
  plan.definitions.assign(regs_per_thread, 0);
  for (size_t b = 0; b < kernel.blocks.size(); ++b) {
    const BasicBlock& block = kernel.blocks[b];
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const RegisterSet& live = liveness.live_before[b][i];
      for (uint32_t r = 0; r < regs_per_thread; ++r)
        if (live.test(r)) ++plan.lifetime[r];
      for (uint16_t d : block.insts[i].dst)
        if (d < regs_per_thread) ++plan.definitions[d];
    }
  }
  const uint64_t per_warp_bits = uint64_t{entry_bits} * resident_warps;
  const uint64_t k = budget_bits == 0 ? regs_per_thread : budget_bits / per_warp_bits;
  plan.renamed_per_warp = static_cast<uint32_t>(std::min<uint64_t>(k, regs_per_thread));
  plan.table_bits = uint64_t{plan.renamed_per_warp} * per_warp_bits;

  std::vector<uint32_t> order(regs_per_thread);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return plan.lifetime[a] < plan.lifetime[b]; });
  plan.exempt.assign(regs_per_thread, true);
  for (uint32_t i = 0; i < plan.renamed_per_warp; ++i) plan.exempt[order[i]] = false;
  return plan;
}

}  // namespace warpreg

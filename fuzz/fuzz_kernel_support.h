#pragma once
// Executes the first warp of a static kernel a reader produced, with a small cap, so that
// the kernel driver meets the shapes of CFG the readers let through.
#include <algorithm>

#include "fuzz/fuzz_support.h"
#include "stimuli/driver/kernel_workload.h"

namespace warpreg::fuzz {

inline void execute_first_warp(const Kernel& kernel) {
  KernelRunConfig config;
  config.shape.ctas = 1;
  config.shape.threads_per_cta = 32;
  config.shape.regs_per_thread = std::max<uint32_t>(1, kernel.regs_used());
  config.max_insts_per_warp = 2000;
  config.allow_capped = true;
  KernelWorkload workload(kernel, config, "fuzz kernel");
  play_first_warp(workload);
}

}  // namespace warpreg::fuzz

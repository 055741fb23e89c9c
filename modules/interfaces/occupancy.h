#pragma once
// How many CTAs of a kernel fit on one SM at once, and which resource limits it.
#include <cstdint>
#include <string>

#include "modules/interfaces/workload.h"

namespace warpreg {

struct SmLimits {
  uint32_t max_warps = 48;
  uint32_t max_threads = 1536;
  uint32_t max_ctas = 8;
  uint32_t shared_mem_bytes = 49152;
  uint32_t registers = 32768;  ///< 32-bit registers
  uint32_t reg_alloc_granularity = 4;
};

struct Occupancy {
  uint32_t ctas = 0;  ///< resident CTAs
  uint32_t warps_per_cta = 0;
  uint32_t regs_per_thread = 0;  ///< after rounding to the allocation granularity
  std::string limiter;           ///< "warps", "threads", "ctas", "shared memory", "registers"
  uint32_t warps() const { return ctas * warps_per_cta; }
  /// Warp registers one warp is allocated (each holds 32 lanes).
  uint32_t regs_per_warp() const { return regs_per_thread; }
};

/// Throws ConfigError (platforms/sm/platform.h) when not even one CTA fits,
/// naming the resource, the need and the option that sets the capacity.
Occupancy compute_occupancy(const SmLimits& sm, const KernelShape& kernel);

}  // namespace warpreg

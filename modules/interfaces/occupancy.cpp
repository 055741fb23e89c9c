#include "modules/interfaces/occupancy.h"

#include <algorithm>
#include <limits>

#include "common/errors.h"

namespace warpreg {

Occupancy compute_occupancy(const SmLimits& sm, const KernelShape& kernel) {
  Occupancy occ;
  occ.warps_per_cta = kernel.warps_per_cta();
  const uint32_t g = std::max<uint32_t>(1, sm.reg_alloc_granularity);
  occ.regs_per_thread = (kernel.regs_per_thread + g - 1) / g * g;
  const uint32_t threads = occ.warps_per_cta * 32;  // a partial warp still takes a whole slot
  const uint32_t unlimited = std::numeric_limits<uint32_t>::max();

  struct Limit {
    const char* resource;
    uint32_t ctas;
    std::string need;
  };
  const uint32_t regs_per_cta = occ.regs_per_thread * threads;
  const Limit limits[] = {
      {"ctas", sm.max_ctas, "1 CTA slot (sm.max_ctas)"},
      {"warps", sm.max_warps / occ.warps_per_cta,
       std::to_string(occ.warps_per_cta) +
           " warps per CTA, sm.max_warps = " + std::to_string(sm.max_warps)},
      {"threads", sm.max_threads / threads,
       std::to_string(threads) +
           " threads per CTA, sm.max_threads = " + std::to_string(sm.max_threads)},
      {"shared memory",
       kernel.shared_mem_per_cta ? sm.shared_mem_bytes / kernel.shared_mem_per_cta : unlimited,
       std::to_string(kernel.shared_mem_per_cta) +
           " bytes of shared memory per CTA, sm.shared_mem_bytes = " +
           std::to_string(sm.shared_mem_bytes)},
      {"registers", regs_per_cta ? sm.registers / regs_per_cta : unlimited,
       std::to_string(regs_per_cta) + " registers per CTA (" + std::to_string(occ.regs_per_thread) +
           " per thread after rounding to sm.reg_alloc_granularity = " + std::to_string(g) +
           ", x " + std::to_string(threads) +
           " threads), sm.registers = " + std::to_string(sm.registers)},
  };
  occ.ctas = unlimited;
  for (const Limit& l : limits) {
    if (l.ctas == 0)
      throw ConfigError("kernel '" + kernel.name + "' does not fit on one SM: " + l.resource +
                        " too small for one CTA: it needs " + l.need);
    if (l.ctas < occ.ctas) {
      occ.ctas = l.ctas;
      occ.limiter = l.resource;
    }
  }
  return occ;
}

}  // namespace warpreg

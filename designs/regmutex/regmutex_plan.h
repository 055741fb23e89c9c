#pragma once
// What RegMutex decides before a kernel runs (plain C++): |B_s| and |E_s| (the sizing
// pass, or a forced |E_s|), the deadlock rules, the acquire regions and index
// compaction, the hardware geometry and the occupancy the SM gets from the base set.
#include <cstdint>
#include <string>

#include "modules/interfaces/occupancy.h"
#include "modules/regmutex/regmutex_core.h"
#include "stimuli/compiler/regmutex_points.h"
#include "stimuli/compiler/regmutex_sizing.h"

namespace warpreg {

struct RegMutexPlan {
  bool applied = false;  ///< false: |E_s| = 0, the kernel runs as on the baseline
  RegMutexGeometry geometry;
  RegMutexSizing sizing;  ///< the pass's answer (its candidates, even when |E_s| is forced)
  Occupancy baseline;     ///< without RegMutex
  Occupancy occupancy;    ///< with it (regs_per_thread stays the architected allocation)
  RegMutexRegions regions;
  uint32_t barrier_live = 0;   ///< registers live at any CTA barrier (union)
  uint32_t register_file = 0;  ///< warp registers of the register file
  std::string decision;        ///< one line for reports
};

/// Plans RegMutex in `mode` for `kernel` launched as `shape`. forced_es = 0 takes the
/// sizing pass's |E_s|; otherwise |E_s| = forced_es. Throws ConfigError when a forced
/// |E_s| breaks a deadlock rule (the pool must hold one E_s; every register live at a
/// CTA barrier must fit in B_s) or no CTA fits.
RegMutexPlan plan_regmutex(const Kernel& kernel, const KernelShape& shape, const SmLimits& sm,
                           RegMutexMode mode, uint32_t forced_es, uint32_t register_file);

}  // namespace warpreg

#pragma once
// RegMutex extended-set size selection (seed 003 §III-A2): splits a kernel's registers
// into a base set B_s (allocated per warp) and an extended set E_s (acquired from the
// shared register pool, SRP). Plain C++; docs/pass-regmutex-sizing.md has the rule, the
// worked example and the figures of the real CFGs.
//
// The rule as implemented (the worked example wins where the prose differs):
//  1. R = registers per thread rounded up to sm.reg_alloc_granularity (the paper's
//     Table I "rounded to the upper multiple of 4"). Baseline occupancy: compute_occupancy
//     with R.
//  2. Candidates |E_s| = floor(R × {0.10, 0.15, 0.20, 0.25, 0.30, 0.35}), in integer
//     arithmetic; odd, zero and repeated values are dropped. |B_s| = R − |E_s|.
//  3. Per candidate, occupancy with the base set alone: compute_occupancy with |B_s| and
//     no allocation rounding (the example's |B_s| = 18 is not a multiple of 4, yet gives
//     26 sections). SRP sections = min(N_w, (registers/32 − W × |B_s|) / |E_s|) for W
//     resident warps: the warp registers left after the base sets, in |E_s|-sized slices.
//  4. Deadlock rules reject a candidate: sections = 0 (the pool must hold one E_s), or
//     |B_s| < the most registers live at a CTA barrier.
//  5. Keep the candidates with the highest base-set occupancy (warps). If it is not above
//     the baseline, RegMutex is not applied: |E_s| = 0, |B_s| = R.
//  6. Among them pick the SMALLEST |E_s| whose sections exceed half the resident warps
//     (2 × sections > W). The prose says "largest", but its example picks 6 (26 sections)
//     over 8 (32 sections), both above 24; the smallest such |E_s| is what selects 6.
//     If none exceeds half, pick the most sections (ties: the smaller |E_s|).
#include <cstdint>
#include <string>
#include <vector>

#include "designs/regmutex/regmutex_plan.h"
#include "modules/interfaces/occupancy.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

struct RegMutexSizingInput {
  std::string name = "kernel";   ///< for error messages
  uint32_t regs_per_thread = 0;  ///< as the kernel asks, before allocation rounding
  uint32_t threads_per_cta = 256;
  uint32_t shared_mem_per_cta = 0;  ///< bytes
  SmLimits sm;
  /// Most registers live at any CTA barrier (max_live_at_barriers); 0: no constraint.
  uint32_t live_at_barrier = 0;
};

/// Selects |B_s| and |E_s| by the rule above. Throws ConfigError (via compute_occupancy)
/// when not even one CTA fits at the baseline.
RegMutexSizing choose_regmutex_sizing(const RegMutexSizingInput& in);

struct BarrierLiveness {
  uint32_t barriers = 0;  ///< barrier instructions (InstClass::Barrier) in the kernel
  uint32_t max_live = 0;  ///< most registers live just before any of them
  uint64_t pc = 0;        ///< the first barrier reaching max_live
};

/// Registers live at the kernel's CTA barriers, from compute_liveness: the deadlock rule
/// needs |B_s| >= max_live so no warp waits at an acquire while others wait at the barrier.
BarrierLiveness max_live_at_barriers(const Kernel& kernel);
BarrierLiveness max_live_at_barriers(const Kernel& kernel, const Liveness& liveness);

/// choose_regmutex_sizing for a kernel: regs = kernel.regs_used(), the barrier rule from
/// max_live_at_barriers.
RegMutexSizing choose_regmutex_sizing(const Kernel& kernel, uint32_t threads_per_cta,
                                      const SmLimits& sm, uint32_t shared_mem_per_cta = 0);

}  // namespace warpreg

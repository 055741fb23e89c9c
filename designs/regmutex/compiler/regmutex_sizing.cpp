#include "designs/regmutex/compiler/regmutex_sizing.h"

#include <algorithm>

#include "stimuli/compiler/liveness.h"

namespace warpreg {

namespace {

Occupancy occupancy_with(const RegMutexSizingInput& in, uint32_t regs, uint32_t granularity) {
  SmLimits sm = in.sm;
  sm.reg_alloc_granularity = granularity;
  KernelShape shape;
  shape.name = in.name;
  shape.threads_per_cta = in.threads_per_cta;
  shape.regs_per_thread = regs;
  shape.shared_mem_per_cta = in.shared_mem_per_cta;
  return compute_occupancy(sm, shape);
}

std::string str(uint32_t v) { return std::to_string(v); }

}  // namespace

const char* RegMutexSizing::rule() {
  return "R = regs rounded up to the allocation granularity; candidates |E_s| = "
         "floor(R x {0.10,0.15,0.20,0.25,0.30,0.35}), even and non-zero; |B_s| = R - |E_s|; "
         "occupancy with |B_s| unrounded; sections = min(N_w, (registers/32 - W x |B_s|) / "
         "|E_s|); reject sections = 0 or |B_s| < live at a barrier; keep the highest "
         "occupancy (must beat the baseline, else |E_s| = 0); pick the smallest |E_s| with "
         "2 x sections > W, else the most sections (seed 003 SIII-A2 worked example)";
}

RegMutexSizing choose_regmutex_sizing(const RegMutexSizingInput& in) {
  RegMutexSizing out;
  const uint32_t g = std::max<uint32_t>(1, in.sm.reg_alloc_granularity);
  out.allocated_regs = (in.regs_per_thread + g - 1) / g * g;
  out.baseline = occupancy_with(in, out.allocated_regs, g);
  out.occupancy = out.baseline;
  out.bs = out.allocated_regs;
  const uint32_t warp_regs = in.sm.registers / 32;

  // Candidates and the deadlock rules.
  std::vector<size_t> valid;
  for (uint32_t percent : kRegMutexFractionsPercent) {
    RegMutexCandidate c;
    c.percent = percent;
    c.es = out.allocated_regs * percent / 100;
    c.bs = out.allocated_regs - c.es;
    const bool repeated = std::any_of(out.candidates.begin(), out.candidates.end(),
                                      [&](const RegMutexCandidate& o) { return o.es == c.es; });
    if (c.es == 0) {
      c.verdict = "zero";
    } else if (c.es % 2) {
      c.verdict = "odd";
    } else if (repeated) {
      c.verdict = "repeats an earlier fraction";
    } else {
      // B_s <= R, so the base set fits wherever the baseline does.
      const Occupancy occ = occupancy_with(in, c.bs, 1);
      c.warps = occ.warps();
      c.ctas = occ.ctas;
      const uint32_t base = c.warps * c.bs;
      c.sections = base < warp_regs ? std::min(in.sm.max_warps, (warp_regs - base) / c.es) : 0;
      if (c.sections == 0) {
        c.verdict = "deadlock: the SRP cannot hold one E_s";
      } else if (c.bs < in.live_at_barrier) {
        c.verdict = "deadlock: B_s " + str(c.bs) + " < " + str(in.live_at_barrier) +
                    " registers live at a barrier";
      } else {
        valid.push_back(out.candidates.size());
      }
    }
    out.candidates.push_back(c);
  }

  // Occupancy first.
  uint32_t best_warps = 0;
  for (size_t i : valid) best_warps = std::max(best_warps, out.candidates[i].warps);
  std::vector<size_t> best;
  for (size_t i : valid) {
    RegMutexCandidate& c = out.candidates[i];
    if (c.warps < best_warps)
      c.verdict = "occupancy " + str(c.warps) + " warps < best " + str(best_warps);
    else
      best.push_back(i);
  }
  if (best.empty() || best_warps <= out.baseline.warps()) {
    for (size_t i : best)
      out.candidates[i].verdict =
          "no occupancy gain over the baseline " + str(out.baseline.warps()) + " warps";
    out.decision = valid.empty() ? "RegMutex not applied: every candidate is rejected"
                                 : "RegMutex not applied: no candidate raises the occupancy "
                                   "above the baseline " +
                                       str(out.baseline.warps()) + " warps";
    return out;
  }

  // Then the SRP-section rule: candidates are in increasing |E_s| order.
  size_t pick = best.front();
  bool over_half = false;
  for (size_t i : best) {
    if (2 * out.candidates[i].sections > best_warps) {
      pick = i;
      over_half = true;
      break;
    }
  }
  if (!over_half) {
    for (size_t i : best)
      if (out.candidates[i].sections > out.candidates[pick].sections) pick = i;
  }
  for (size_t i : best) {
    RegMutexCandidate& c = out.candidates[i];
    if (i == pick) continue;
    if (over_half && c.es > out.candidates[pick].es)
      c.verdict = "a smaller E_s already exceeds half the warps";
    else if (over_half)
      c.verdict = str(c.sections) + " sections <= half of " + str(best_warps) + " warps";
    else
      c.verdict = "fewer sections than E_s " + str(out.candidates[pick].es);
  }

  RegMutexCandidate& c = out.candidates[pick];
  c.chosen = true;
  c.verdict = "chosen";
  out.es = c.es;
  out.bs = c.bs;
  out.sections = c.sections;
  out.occupancy = occupancy_with(in, c.bs, 1);
  out.srp_offset = out.occupancy.warps() * c.bs;
  out.srp_registers = c.sections * c.es;
  out.decision = "|E_s| = " + str(c.es) + ", |B_s| = " + str(c.bs) + ": " + str(c.warps) +
                 " warps (baseline " + str(out.baseline.warps()) + "), " + str(c.sections) +
                 " SRP sections" +
                 (over_half ? ", the smallest E_s with more than half the warps acquiring"
                            : ", the most sections (none exceeds half the warps)");
  return out;
}

BarrierLiveness max_live_at_barriers(const Kernel& kernel) {
  return max_live_at_barriers(kernel, compute_liveness(kernel));
}

BarrierLiveness max_live_at_barriers(const Kernel& kernel, const Liveness& lv) {
  BarrierLiveness out;
  for (const BasicBlock& b : kernel.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      if (b.insts[i].cls != InstClass::Barrier) continue;
      const auto live = static_cast<uint32_t>(lv.live_before[b.id][i].count());
      if (out.barriers == 0 || live > out.max_live) {
        out.max_live = live;
        out.pc = b.insts[i].pc;
      }
      ++out.barriers;
    }
  }
  return out;
}

RegMutexSizing choose_regmutex_sizing(const Kernel& kernel, uint32_t threads_per_cta,
                                      const SmLimits& sm, uint32_t shared_mem_per_cta) {
  RegMutexSizingInput in;
  in.name = kernel.name;
  in.regs_per_thread = kernel.regs_used();
  in.threads_per_cta = threads_per_cta;
  in.shared_mem_per_cta = shared_mem_per_cta;
  in.sm = sm;
  in.live_at_barrier = max_live_at_barriers(kernel).max_live;
  return choose_regmutex_sizing(in);
}

}  // namespace warpreg

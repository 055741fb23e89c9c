// The RegMutex compiler pass (seed 003 §III-A): |E_s| sizing, the deadlock rules and
// the acquire/release regions, as the plan the SRP allocator follows.
#include <algorithm>
#include <stdexcept>

#include "common/errors.h"
#include "designs/regmutex/compiler/regmutex_points.h"
#include "designs/regmutex/compiler/regmutex_sizing.h"
#include "designs/regmutex/regmutex_plan.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/compiler/pass_registry.h"

namespace warpreg {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

Occupancy base_set_occupancy(const SmLimits& sm, const KernelShape& shape, uint32_t regs) {
  SmLimits limits = sm;
  limits.reg_alloc_granularity = 1;
  KernelShape k = shape;
  k.regs_per_thread = regs;
  return compute_occupancy(limits, k);
}

/// The kernel as the warp streams execute it: the driver carries at most kMaxDst
/// destinations and kMaxSrc sources per instruction (an LDS.128 writes only its first
/// two registers), and the regions must follow what is executed, or a value the static
/// code would overwrite is read again after a release.
Kernel as_executed(const Kernel& kernel) {
  Kernel out = kernel;
  for (BasicBlock& b : out.blocks) {
    for (StaticInst& inst : b.insts) {
      if (inst.dst.size() > kMaxDst) inst.dst.resize(kMaxDst);
      if (inst.src.size() > kMaxSrc) inst.src.resize(kMaxSrc);
    }
  }
  return out;
}

/// The most CTAs whose base sets (Shared) or pair units (Paired, Owf) fit.
uint32_t fitting_ctas(const SmLimits& sm, const KernelShape& shape, const RegMutexGeometry& g,
                      uint32_t register_file) {
  const bool shared = g.mode == RegMutexMode::Shared;
  uint32_t ctas = base_set_occupancy(sm, shape, shared ? g.bs : g.bs + (g.es + 1) / 2).ctas;
  auto needed = [&](uint32_t c) {
    const uint32_t w = c * g.warps_per_cta;
    return shared ? w * g.bs + g.es : g.registers_needed(w);
  };
  while (ctas > 0 && needed(ctas) > register_file) --ctas;
  return ctas;
}

}  // namespace

RegMutexPlan plan_regmutex(const Kernel& static_kernel, const KernelShape& shape,
                           const SmLimits& sm, RegMutexMode mode, uint32_t forced_es,
                           uint32_t register_file, bool pair_ctas, RegMutexCompaction compaction) {
  if (pair_ctas && mode != RegMutexMode::Paired)
    throw ConfigError(std::string("regmutex.pairing = ctas pairs the extended sets of mode "
                                  "paired; regmutex.mode is ") +
                      to_string(mode));
  const Kernel kernel = as_executed(static_kernel);
  RegMutexPlan plan;
  plan.register_file = register_file;
  plan.baseline = compute_occupancy(sm, shape);
  plan.occupancy = plan.baseline;
  const uint32_t R = plan.baseline.regs_per_thread;
  RegMutexGeometry& g = plan.geometry;
  g.mode = mode;
  g.pair_ctas = pair_ctas;
  g.max_warps = sm.max_warps;
  g.warps_per_cta = plan.baseline.warps_per_cta;
  if (kernel.regs_used() > R)
    throw ConfigError("regmutex: kernel '" + kernel.name + "' names " + str(kernel.regs_used()) +
                      " registers but its launch allocates " + str(R) + " per thread");
  const Liveness liveness = compute_liveness(kernel);
  // Jatala et al. renumber once per kernel: OWF always compacts statically.
  const bool per_release =
      compaction == RegMutexCompaction::PerRelease && mode != RegMutexMode::Owf;
  // Deadlock rule 2: no warp may wait at an acquire while its CTA waits at a barrier, so
  // what is live at a barrier must fit in B_s. With per-release moves that is the most
  // registers live at any one barrier (the paper's rule); without them every register
  // live at some barrier stays in B_s, the union over barriers (docs/blocks/regmutex.md).
  plan.barrier_live =
      per_release ? max_live_at_barriers(kernel, liveness).max_live
                  : static_cast<uint32_t>(registers_live_at_barriers(kernel, liveness).count());
  RegMutexSizingInput in;
  in.name = shape.name;
  in.regs_per_thread = shape.regs_per_thread;
  in.threads_per_cta = shape.threads_per_cta;
  in.shared_mem_per_cta = shape.shared_mem_per_cta;
  in.sm = sm;
  in.live_at_barrier = plan.barrier_live;
  plan.sizing = choose_regmutex_sizing(in);

  uint32_t es = plan.sizing.es;
  if (forced_es != 0) {
    if (forced_es >= R)
      throw ConfigError("regmutex.extended_regs = " + str(forced_es) +
                        " leaves no base set: the kernel allocates " + str(R) +
                        " registers per thread");
    es = forced_es;
  }
  const bool owf_chooses = mode == RegMutexMode::Owf && forced_es == 0;
  if (es == 0 && !owf_chooses) {
    plan.decision = "not applied: " + plan.sizing.decision;
    return plan;
  }
  // OWF (Jatala et al.) picks its own split: the smallest even |E_s| from the sizing
  // pass's up that lets its CTA pairs raise occupancy (docs/blocks/regmutex.md).
  const uint32_t es_limit = R > plan.barrier_live ? R - plan.barrier_live : 0;
  if (owf_chooses) {
    for (uint32_t e = std::max<uint32_t>(es, 2); e <= es_limit; e += 2) {
      g.bs = R - e;
      g.es = e;
      if (fitting_ctas(sm, shape, g, register_file) > plan.baseline.ctas) {
        es = e;
        break;
      }
    }
  }
  if (es == 0) {
    plan.decision = "not applied: no |E_s| lets OWF raise occupancy";
    return plan;
  }
  const uint32_t bs = R - es;
  if (bs < plan.barrier_live)
    throw ConfigError("regmutex deadlock rule: |B_s| = " + str(bs) + " (|E_s| = " + str(es) +
                      ") is smaller than the " + str(plan.barrier_live) +
                      (per_release ? " registers live at one CTA barrier"
                                   : " registers live at CTA barriers (static compaction)") +
                      " of kernel '" + shape.name +
                      "'; a warp waiting at an acquire could block a barrier (seed 003 "
                      "§III-A2); choose regmutex.extended_regs <= " +
                      str(es_limit));
  g.bs = bs;
  g.es = es;
  const uint32_t ctas = fitting_ctas(sm, shape, g, register_file);
  auto warps = [&](uint32_t c) { return c * g.warps_per_cta; };
  if (mode == RegMutexMode::Shared) {
    const uint32_t left = ctas ? register_file - warps(ctas) * bs : 0;
    g.sections = std::min(sm.max_warps, left / es);
    if (g.sections == 0)
      throw ConfigError("regmutex deadlock rule: with |B_s| = " + str(bs) + " and " +
                        str(warps(ctas)) + " resident warps the shared register pool holds " +
                        str(left) + " warp registers, less than one |E_s| = " + str(es) +
                        " (seed 003 §III-A2); choose a smaller regmutex.extended_regs");
    g.srp_offset = warps(ctas) * bs;
  } else if (ctas == 0) {
    throw ConfigError("regmutex: not one CTA of kernel '" + shape.name + "' fits " +
                      str(register_file) + " warp registers in " + to_string(mode) +
                      " mode (2|B_s| + |E_s| = " + str(g.pair_registers()) + " per pair)");
  }
  g.resident_ctas = ctas;
  if (forced_es == 0 && ctas <= plan.baseline.ctas) {
    plan.decision = std::string("not applied: ") + to_string(mode) +
                    " mode with |E_s| = " + str(es) + " does not raise occupancy above " +
                    str(plan.baseline.warps()) + " warps";
    return plan;
  }
  const Occupancy limit =
      base_set_occupancy(sm, shape, mode == RegMutexMode::Shared ? bs : bs + (es + 1) / 2);
  try {
    plan.regions = per_release ? place_per_release_regions(kernel, liveness, bs, es)
                               : place_regmutex_regions(kernel, liveness, bs, es);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("regmutex deadlock rule: ") + e.what());
  }
  plan.applied = true;
  plan.occupancy.ctas = ctas;
  plan.occupancy.limiter = std::string("registers (RegMutex ") + to_string(mode) + " base set)";
  if (limit.ctas == ctas && limit.limiter != "registers") plan.occupancy.limiter = limit.limiter;
  plan.decision = std::string(to_string(mode)) + (pair_ctas ? " (pairs of CTAs)" : "") +
                  ": |B_s| = " + str(bs) + ", |E_s| = " + str(es) +
                  (forced_es     ? " (forced)"
                   : owf_chooses ? " (smallest raising OWF occupancy)"
                                 : " (sizing pass)") +
                  ", " + str(plan.occupancy.warps()) + " warps (baseline " +
                  str(plan.baseline.warps()) + ")" +
                  (mode == RegMutexMode::Shared ? ", " + str(g.sections) + " SRP sections" : "");
  return plan;
}

void warpreg_register_passes_regmutex(PassRegistry& registry) {
  registry.add<RegMutexPlan>(
      kRegMutexPlan, "RegMutex: |B_s| / |E_s| sizing, deadlock rules, acquire/release regions",
      [](const Kernel& kernel, const PassContext& context) {
        const RegMutexParams params(&context.params);
        return plan_regmutex(kernel, context.kernel, context.limits, params.mode,
                             params.extended_regs, context.regfile.physical_registers(),
                             params.pairing, params.compaction);
      });
}

}  // namespace warpreg

#include "designs/regmutex/compiler/regmutex_points.h"

#include <cstdio>
#include <stdexcept>

#include "designs/regmutex/compiler/regmutex_sizing.h"

namespace warpreg {

RegisterSet registers_live_at_barriers(const Kernel& kernel, const Liveness& liveness) {
  RegisterSet out;
  for (const BasicBlock& b : kernel.blocks)
    for (size_t i = 0; i < b.insts.size(); ++i)
      if (b.insts[i].cls == InstClass::Barrier) out |= liveness.live_before[b.id][i];
  return out;
}

namespace {

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

RegMutexRegions empty_regions(const Kernel& kernel, uint32_t bs, uint32_t es) {
  RegMutexRegions out;
  out.bs = bs;
  out.es = es;
  out.regs_used = kernel.regs_used();
  out.index_of.resize(256);
  for (uint32_t r = 0; r < 256; ++r) out.index_of[r] = static_cast<uint16_t>(r);
  if (out.regs_used > bs + es)
    throw std::invalid_argument("kernel '" + kernel.name + "' names " +
                                std::to_string(out.regs_used) + " registers, more than |B_s| + " +
                                "|E_s| = " + std::to_string(bs + es));
  return out;
}

/// Region entries (acquires) and exits (releases) along every CFG edge, from the
/// per-instruction kAcquireState flags.
void count_region_points(const Kernel& kernel, RegMutexRegions& out) {
  const auto acquired = [&](const StaticInst& inst) { return out.in_acquire_state(inst.pc); };
  for (const BasicBlock& b : kernel.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      bool from_released = false, from_acquired = false;
      if (i > 0) {
        (acquired(b.insts[i - 1]) ? from_acquired : from_released) = true;
      } else {
        if (b.id == kernel.entry) from_released = true;
        for (uint32_t p : b.pred) {
          const BasicBlock& pred = kernel.blocks[p];
          if (pred.insts.empty()) continue;
          (acquired(pred.insts.back()) ? from_acquired : from_released) = true;
        }
      }
      const bool here = acquired(b.insts[i]);
      if (here && from_released) ++out.acquire_points;
      if (!here && from_acquired) ++out.release_points;
    }
  }
}

}  // namespace

RegMutexRegions place_regmutex_regions(const Kernel& kernel, const Liveness& liveness, uint32_t bs,
                                       uint32_t es) {
  RegMutexRegions out = empty_regions(kernel, bs, es);
  out.barrier_live = registers_live_at_barriers(kernel, liveness);

  // The registers each instruction keeps or touches, in layout order.
  std::vector<RegisterSet> touched;
  for (const BasicBlock& b : kernel.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      RegisterSet s = liveness.live_before[b.id][i] | liveness.live_after[b.id][i];
      RegisterSet written;
      for (uint16_t r : b.insts[i].src) s.set(r);
      for (uint16_t r : b.insts[i].dst) written.set(r);
      touched.push_back(s | written);
      if ((liveness.live_before[b.id][i] | written).count() > bs) {
        ++out.over_base_instructions;
        out.flags_[b.insts[i].pc] = RegMutexRegions::kOverBase;
      }
    }
  }
  out.instructions = static_cast<uint32_t>(touched.size());

  const uint32_t extended_count = out.regs_used > bs ? out.regs_used - bs : 0;
  if (extended_count > 0) {
    const uint32_t eligible = out.regs_used - static_cast<uint32_t>(out.barrier_live.count());
    if (eligible < extended_count)
      throw std::invalid_argument(
          std::to_string(out.barrier_live.count()) + " registers are live at CTA barriers (" +
          format_register_set(out.barrier_live) + ") but |B_s| = " + std::to_string(bs) +
          " : each must stay in the base set (deadlock rule 2; index compaction is static)");
    // Greedy: the register adding the fewest instructions to the acquire state.
    std::vector<bool> in_union(touched.size(), false);
    for (uint32_t n = 0; n < extended_count; ++n) {
      uint32_t best = 256;
      size_t best_cost = ~size_t(0);
      for (uint32_t r = out.regs_used; r-- > 0;) {
        if (out.extended[r] || out.barrier_live[r]) continue;
        size_t cost = 0;
        for (size_t i = 0; i < touched.size(); ++i)
          if (!in_union[i] && touched[i][r]) ++cost;
        if (cost < best_cost) {
          best_cost = cost;
          best = r;
        }
      }
      out.extended.set(best);
      for (size_t i = 0; i < touched.size(); ++i)
        if (touched[i][best]) in_union[i] = true;
    }
    uint16_t base_index = 0, ext_index = static_cast<uint16_t>(bs);
    for (uint32_t r = 0; r < out.regs_used; ++r)
      out.index_of[r] = out.extended[r] ? ext_index++ : base_index++;
  }

  size_t k = 0;
  for (const BasicBlock& b : kernel.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i, ++k) {
      if ((touched[k] & out.extended).any()) {
        out.flags_[b.insts[i].pc] |= RegMutexRegions::kAcquireState;
        ++out.acquire_state_instructions;
      }
    }
  }
  count_region_points(kernel, out);
  out.flags_.seal();
  return out;
}

RegMutexRegions place_per_release_regions(const Kernel& kernel, const Liveness& liveness,
                                          uint32_t bs, uint32_t es) {
  RegMutexRegions out = empty_regions(kernel, bs, es);
  out.per_release = true;
  // A warp's first indices: what is live at the entry (read before written) in base
  // registers, then the rest in order; the stage moves them from there.
  if (!kernel.blocks.empty() && !kernel.blocks[kernel.entry].insts.empty()) {
    const RegisterSet& at_entry = liveness.live_before[kernel.entry][0];
    uint16_t next = 0;
    for (uint32_t r = 0; r < bs + es; ++r)
      if (at_entry.test(r)) out.index_of[r] = next++;
    for (uint32_t r = 0; r < bs + es; ++r)
      if (!at_entry.test(r)) out.index_of[r] = next++;
  }
  const BarrierLiveness barriers = max_live_at_barriers(kernel, liveness);
  if (barriers.max_live > bs)
    throw std::invalid_argument(std::to_string(barriers.max_live) +
                                " registers are live at the CTA barrier at PC " + hex(barriers.pc) +
                                " but |B_s| = " + std::to_string(bs) + " (deadlock rule 2)");
  for (const BasicBlock& b : kernel.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      const StaticInst& inst = b.insts[i];
      RegisterSet needed = liveness.live_before[b.id][i];
      for (uint16_t r : inst.dst) needed.set(r);
      out.point_.insert(inst.pc, static_cast<uint32_t>(out.live_before_.size()));
      out.live_before_.push_back(liveness.live_before[b.id][i]);
      ++out.instructions;
      if (needed.count() > bs) {
        out.flags_[inst.pc] = RegMutexRegions::kOverBase | RegMutexRegions::kAcquireState;
        ++out.over_base_instructions;
        ++out.acquire_state_instructions;
      }
    }
  }
  count_region_points(kernel, out);
  out.flags_.seal();
  out.point_.seal();
  return out;
}

}  // namespace warpreg

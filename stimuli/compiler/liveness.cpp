#include "stimuli/compiler/liveness.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

namespace warpreg {

namespace {

constexpr size_t kRegisterLimit = 255;    // R0..R254; RZ is not a storage register
constexpr int kPredicates = 7;            // P0..P6
constexpr int kGuards = 2 * kPredicates;  // @Pn and @!Pn

struct InstEffect {
  RegisterSet uses, defs;
  int guard = -1;  // 2 * P + negated, -1 when unguarded
  std::vector<uint8_t> pred_defs;
  bool clobbers_predicates = false;  // writes predicates it does not name
};

InstEffect effect_of(const StaticInst& inst) {
  InstEffect e;
  for (uint16_t r : inst.src)
    if (r < kRegisterLimit) e.uses.set(r);
  for (uint16_t r : inst.dst)
    if (r < kRegisterLimit) e.defs.set(r);
  if (inst.guard_pred >= 0) e.guard = 2 * inst.guard_pred + (inst.guard_negated ? 1 : 0);
  e.pred_defs = inst.pred_dst;
  // R2P writes predicates from a register; a call may change any of them.
  const std::string_view op(inst.opcode);
  e.clobbers_predicates = op.substr(0, 3) == "R2P" || op.substr(0, 3) == "CAL";
  return e;
}

/// Backward scan of one block from `out`: fills before/after (when given) and returns
/// the block's live-in. Registers are live unconditionally, or only for the lanes of
/// one guard (every read of them until the next kill is under that guard). A write
/// kills a register for the reads under its own guard only: an unguarded write kills
/// it outright, a guarded one kills what is live under the same guard, because those
/// are exactly the lanes it writes. A write of the predicate ends that tracking.
RegisterSet scan_block(const std::vector<InstEffect>& effects, const RegisterSet& out,
                       const RegisterSet& overlay, std::vector<RegisterSet>* before,
                       std::vector<RegisterSet>* after, uint32_t* max_live) {
  RegisterSet always = out;
  std::array<RegisterSet, kGuards> under{};
  auto all = [&] {
    RegisterSet s = always;
    for (const RegisterSet& g : under) s |= g;
    return s | overlay;
  };
  auto promote = [&](int guard) {
    always |= under[guard];
    under[guard].reset();
  };
  for (size_t i = effects.size(); i-- > 0;) {
    const InstEffect& e = effects[i];
    if (after) (*after)[i] = all();
    // The predicate is rewritten here: the guard after this point says nothing about
    // the lanes before it.
    if (e.clobbers_predicates) {
      for (int g = 0; g < kGuards; ++g) promote(g);
    } else {
      for (uint8_t p : e.pred_defs) {
        promote(2 * p);
        promote(2 * p + 1);
      }
    }
    if (e.guard < 0) {
      always &= ~e.defs;
      for (RegisterSet& g : under) g &= ~e.defs;
      always |= e.uses;
    } else {
      under[e.guard] &= ~e.defs;
      under[e.guard] |= e.uses & ~always;
    }
    const RegisterSet live = all();
    if (before) (*before)[i] = live;
    if (max_live) *max_live = std::max(*max_live, static_cast<uint32_t>((live | e.defs).count()));
  }
  return all();
}

/// Blocks reachable from `from`'s successors without entering `stop`.
std::vector<uint32_t> divergent_region(const Kernel& kernel, uint32_t from, uint32_t stop) {
  std::vector<bool> seen(kernel.blocks.size(), false);
  std::vector<uint32_t> stack, region;
  for (uint32_t s : kernel.blocks[from].succ) stack.push_back(s);
  while (!stack.empty()) {
    const uint32_t b = stack.back();
    stack.pop_back();
    if (b == stop || seen[b]) continue;
    seen[b] = true;
    region.push_back(b);
    for (uint32_t s : kernel.blocks[b].succ) stack.push_back(s);
  }
  return region;
}

struct DivergentBranch {
  uint32_t block;
  uint32_t reconvergence;  // a block id or kVirtualExit
  std::vector<uint32_t> region;
};

}  // namespace

Liveness compute_liveness(const Kernel& kernel) {
  const size_t n = kernel.blocks.size();
  std::vector<std::vector<InstEffect>> effects(n);
  for (size_t b = 0; b < n; ++b)
    for (const StaticInst& inst : kernel.blocks[b].insts) effects[b].push_back(effect_of(inst));

  // Plain dataflow; reverse layout order converges in few sweeps on forward code.
  const RegisterSet none;
  std::vector<RegisterSet> plain_in(n), plain_out(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      RegisterSet out;
      for (uint32_t s : kernel.blocks[i].succ) out |= plain_in[s];
      const RegisterSet in = scan_block(effects[i], out, none, nullptr, nullptr, nullptr);
      if (out != plain_out[i] || in != plain_in[i]) {
        plain_out[i] = out;
        plain_in[i] = in;
        changed = true;
      }
    }
  }

  std::vector<DivergentBranch> branches;
  for (uint32_t b = 0; b < n; ++b) {
    const uint32_t r = reconvergence_point(kernel, b);
    if (r == kNoPostDominator) continue;
    branches.push_back({b, r, divergent_region(kernel, b, r)});
  }

  // The SIMT overlay: registers held across a divergent region, iterated because one
  // region's overlay can enlarge the sets of a branch inside or next to it.
  std::vector<RegisterSet> overlay(n);
  Liveness lv;
  lv.live_in_block = plain_in;
  lv.live_out_block = plain_out;
  for (bool changed = true; changed;) {
    changed = false;
    for (const DivergentBranch& d : branches) {
      RegisterSet held = lv.live_out_block[d.block];
      if (d.reconvergence != kVirtualExit) held |= lv.live_in_block[d.reconvergence];
      for (uint32_t c : d.region) {
        if ((overlay[c] | held) == overlay[c]) continue;
        overlay[c] |= held;
        lv.live_in_block[c] = plain_in[c] | overlay[c];
        lv.live_out_block[c] = plain_out[c] | overlay[c];
        changed = true;
      }
    }
  }

  lv.live_before.resize(n);
  lv.live_after.resize(n);
  for (size_t b = 0; b < n; ++b) {
    lv.live_before[b].resize(effects[b].size());
    lv.live_after[b].resize(effects[b].size());
    scan_block(effects[b], lv.live_out_block[b], overlay[b], &lv.live_before[b], &lv.live_after[b],
               &lv.max_live);
  }
  return lv;
}

RegisterSet allocated_registers(const Kernel& kernel) {
  RegisterSet set;
  for (const BasicBlock& b : kernel.blocks)
    for (const StaticInst& inst : b.insts) {
      const InstEffect e = effect_of(inst);
      set |= e.uses | e.defs;
    }
  return set;
}

std::string format_register_set(const RegisterSet& set) {
  std::string out;
  for (size_t r = 0; r < kRegisterLimit; ++r) {
    if (!set.test(r)) continue;
    size_t last = r;
    while (last + 1 < kRegisterLimit && set.test(last + 1)) ++last;
    if (!out.empty()) out += ',';
    out += 'R' + std::to_string(r);
    if (last > r) out += "-R" + std::to_string(last);
    r = last;
  }
  return out;
}

}  // namespace warpreg

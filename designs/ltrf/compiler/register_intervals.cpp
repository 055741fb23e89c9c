#include "designs/ltrf/compiler/register_intervals.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

namespace warpreg {
namespace {

constexpr uint32_t kUnknown = std::numeric_limits<uint32_t>::max();

RegisterSet registers_of(const StaticInst& inst) {
  RegisterSet s;
  for (uint16_t r : inst.dst) s.set(r);
  for (uint16_t r : inst.src) s.set(r);
  return s;
}

void check_arguments(const Kernel& kernel, uint32_t n) {
  if (n == 0) throw std::invalid_argument("register intervals: N must be at least 1");
  for (const BasicBlock& b : kernel.blocks) {
    for (const StaticInst& inst : b.insts) {
      const size_t used = registers_of(inst).count();
      if (used > n) {
        char pc[32];
        std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(inst.pc));
        throw std::invalid_argument("register intervals: instruction at PC " + std::string(pc) +
                                    " (" + inst.text + ") uses " + std::to_string(used) +
                                    " registers, more than N = " + std::to_string(n));
      }
    }
  }
}

/// The kernel's blocks cut into pieces; a cut piece keeps the block's incoming edges and
/// its remainder (the next piece) inherits the outgoing ones.
class PieceGraph {
 public:
  explicit PieceGraph(const Kernel& kernel) : kernel_(kernel), of_block_(kernel.blocks.size()) {
    for (const BasicBlock& b : kernel.blocks) {
      of_block_[b.id].push_back(static_cast<uint32_t>(pieces_.size()));
      pieces_.push_back({b.id, 0, static_cast<uint32_t>(b.insts.size())});
    }
  }

  const IntervalPiece& operator[](uint32_t p) const { return pieces_[p]; }
  size_t size() const { return pieces_.size(); }
  uint32_t first_of(uint32_t block) const { return of_block_[block].front(); }
  bool is_first(uint32_t p) const { return first_of(pieces_[p].block) == p; }

  /// Cuts piece p before instruction `at`; returns the new remainder piece. Only the
  /// last piece of a block is ever cut (a piece is traversed, and cut, once).
  uint32_t split(uint32_t p, uint32_t at) {
    const uint32_t q = static_cast<uint32_t>(pieces_.size());
    pieces_.push_back({pieces_[p].block, at, pieces_[p].end});
    pieces_[p].end = at;
    of_block_[pieces_[p].block].push_back(q);
    return q;
  }

  std::vector<uint32_t> successors(uint32_t p) const {
    const std::vector<uint32_t>& chain = of_block_[pieces_[p].block];
    const auto it = std::find(chain.begin(), chain.end(), p);
    if (it + 1 != chain.end()) return {*(it + 1)};
    std::vector<uint32_t> out;
    for (uint32_t s : kernel_.blocks[pieces_[p].block].succ) out.push_back(of_block_[s].front());
    return out;
  }

  std::vector<uint32_t> predecessors(uint32_t p) const {
    const std::vector<uint32_t>& chain = of_block_[pieces_[p].block];
    const auto it = std::find(chain.begin(), chain.end(), p);
    if (it != chain.begin()) return {*(it - 1)};
    std::vector<uint32_t> out;
    for (uint32_t q : kernel_.blocks[pieces_[p].block].pred) out.push_back(of_block_[q].back());
    return out;
  }

 private:
  const Kernel& kernel_;
  std::vector<IntervalPiece> pieces_;
  std::vector<std::vector<uint32_t>> of_block_;  ///< per block, its pieces in order
};

/// An interval while forming: its pieces (header first) and working set.
struct Group {
  std::vector<uint32_t> pieces;
  RegisterSet ws;
};

/// Algorithm 1. Intervals grow from a header by absorbing blocks all of whose
/// predecessors are already inside; a block is cut where the interval's working set
/// would exceed N and its remainder heads a new interval.
std::vector<Group> first_pass(const Kernel& kernel, uint32_t n, PieceGraph& g) {
  std::vector<Group> groups;
  std::vector<uint32_t> group_of(g.size(), kUnknown);
  std::deque<uint32_t> work;

  auto open = [&](uint32_t piece) {
    if (group_of.size() <= piece) group_of.resize(piece + 1, kUnknown);
    group_of[piece] = static_cast<uint32_t>(groups.size());
    groups.push_back({});
    work.push_back(piece);
  };
  auto traverse = [&](uint32_t piece, uint32_t gi) {
    groups[gi].pieces.push_back(piece);
    const IntervalPiece pc = g[piece];
    const BasicBlock& b = kernel.blocks[pc.block];
    for (uint32_t k = pc.begin; k < pc.end; ++k) {
      const RegisterSet grown = groups[gi].ws | registers_of(b.insts[k]);
      if (grown.count() > n) {
        open(g.split(piece, k));
        return;
      }
      groups[gi].ws = grown;
    }
  };
  auto fits_first = [&](uint32_t piece, uint32_t gi) {
    const IntervalPiece pc = g[piece];
    if (pc.begin == pc.end) return true;
    const StaticInst& inst = kernel.blocks[pc.block].insts[pc.begin];
    return (groups[gi].ws | registers_of(inst)).count() <= n;
  };
  auto entry_like = [&](uint32_t block) {
    return block == kernel.entry || kernel.blocks[block].pred.empty();
  };

  auto drain = [&] {
    while (!work.empty()) {
      const uint32_t header = work.front();
      work.pop_front();
      const uint32_t gi = group_of[header];
      traverse(header, gi);
      // Unassigned pieces are always whole blocks: remainders are assigned when cut.
      for (bool grew = true; grew;) {
        grew = false;
        for (const BasicBlock& b : kernel.blocks) {
          const uint32_t p = g.first_of(b.id);
          if (group_of[p] != kUnknown || entry_like(b.id)) continue;
          const std::vector<uint32_t> preds = g.predecessors(p);
          const bool inside = std::all_of(preds.begin(), preds.end(),
                                          [&](uint32_t q) { return group_of[q] == gi; });
          if (!inside || !fits_first(p, gi)) continue;
          group_of[p] = gi;
          traverse(p, gi);
          grew = true;
        }
      }
      std::vector<uint32_t> exits;
      for (uint32_t p : groups[gi].pieces)
        for (uint32_t s : g.successors(p))
          if (group_of[s] == kUnknown) exits.push_back(s);
      std::sort(exits.begin(), exits.end(),
                [&](uint32_t a, uint32_t b) { return g[a].block < g[b].block; });
      exits.erase(std::unique(exits.begin(), exits.end()), exits.end());
      for (uint32_t s : exits) open(s);
    }
  };

  if (!kernel.blocks.empty()) open(g.first_of(kernel.entry));
  for (const BasicBlock& b : kernel.blocks)
    if (b.pred.empty() && group_of[g.first_of(b.id)] == kUnknown) open(g.first_of(b.id));
  drain();
  // Blocks reachable from no entry (cycles such as "BRA self" padding) still need one.
  for (const BasicBlock& b : kernel.blocks) {
    if (group_of[g.first_of(b.id)] == kUnknown) {
      open(g.first_of(b.id));
      drain();
    }
  }
  return groups;
}

/// One round of Algorithm 2 over the interval graph: an interval joins the growing
/// next-level interval when every edge into it from another interval comes from inside
/// (its own back edges excepted, so a loop can join the code before it) and the merged
/// working set fits N. Returns the next-level groups.
std::vector<Group> second_pass_round(const Kernel& kernel, uint32_t n, const PieceGraph& g,
                                     const std::vector<Group>& in) {
  std::vector<uint32_t> node_of(g.size(), kUnknown);
  for (uint32_t i = 0; i < in.size(); ++i)
    for (uint32_t p : in[i].pieces) node_of[p] = i;
  std::vector<std::vector<uint32_t>> preds(in.size()), succs(in.size());
  for (uint32_t i = 0; i < in.size(); ++i) {
    for (uint32_t p : in[i].pieces) {
      for (uint32_t q : g.predecessors(p))
        if (node_of[q] != i) preds[i].push_back(node_of[q]);
      for (uint32_t s : g.successors(p))
        if (node_of[s] != i) succs[i].push_back(node_of[s]);
    }
    std::sort(succs[i].begin(), succs[i].end());
    succs[i].erase(std::unique(succs[i].begin(), succs[i].end()), succs[i].end());
  }
  const uint32_t entry_node = node_of[g.first_of(kernel.entry)];

  std::vector<Group> out;
  std::vector<uint32_t> next(in.size(), kUnknown);
  std::vector<std::vector<uint32_t>> members;
  std::deque<uint32_t> work;
  auto open = [&](uint32_t node) {
    next[node] = static_cast<uint32_t>(out.size());
    out.push_back({{}, in[node].ws});
    members.push_back({node});
    work.push_back(node);
  };
  auto drain = [&] {
    while (!work.empty()) {
      const uint32_t gi = next[work.front()];
      work.pop_front();
      for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t h = 0; h < in.size(); ++h) {
          if (next[h] != kUnknown || h == entry_node || preds[h].empty()) continue;
          const bool inside = std::all_of(preds[h].begin(), preds[h].end(),
                                          [&](uint32_t q) { return next[q] == gi; });
          if (!inside || (out[gi].ws | in[h].ws).count() > n) continue;
          next[h] = gi;
          out[gi].ws |= in[h].ws;
          members[gi].push_back(h);
          grew = true;
        }
      }
      std::vector<uint32_t> exits;
      for (uint32_t m : members[gi])
        for (uint32_t s : succs[m])
          if (next[s] == kUnknown) exits.push_back(s);
      std::sort(exits.begin(), exits.end());
      exits.erase(std::unique(exits.begin(), exits.end()), exits.end());
      for (uint32_t s : exits) open(s);
    }
  };

  if (!in.empty()) open(entry_node);
  for (uint32_t i = 0; i < in.size(); ++i)
    if (preds[i].empty() && next[i] == kUnknown) open(i);
  drain();
  for (uint32_t i = 0; i < in.size(); ++i) {
    if (next[i] == kUnknown) {
      open(i);
      drain();
    }
  }
  for (uint32_t gi = 0; gi < out.size(); ++gi)
    for (uint32_t m : members[gi])
      out[gi].pieces.insert(out[gi].pieces.end(), in[m].pieces.begin(), in[m].pieces.end());
  return out;
}

IntervalPartition build_partition(const Kernel& kernel, uint32_t n, const PieceGraph& g,
                                  const std::vector<Group>& groups, uint32_t rounds) {
  const Liveness lv = compute_liveness(kernel);
  IntervalPartition part;
  part.regs_per_interval = n;
  part.second_pass_rounds = rounds;
  part.interval_of.resize(kernel.blocks.size());
  for (const BasicBlock& b : kernel.blocks) part.interval_of[b.id].assign(b.insts.size(), kUnknown);
  for (uint32_t i = 0; i < groups.size(); ++i) {
    RegisterInterval ri;
    ri.id = i;
    for (uint32_t p : groups[i].pieces) ri.pieces.push_back(g[p]);
    // Header stays first; the rest in layout order for readable output.
    std::sort(ri.pieces.begin() + 1, ri.pieces.end(), [](const auto& a, const auto& b) {
      return a.block != b.block ? a.block < b.block : a.begin < b.begin;
    });
    for (const IntervalPiece& pc : ri.pieces) {
      ri.instructions += pc.end - pc.begin;
      for (uint32_t k = pc.begin; k < pc.end; ++k) {
        part.interval_of[pc.block][k] = i;
        ri.working_set |= registers_of(kernel.blocks[pc.block].insts[k]);
      }
    }
    const IntervalPiece& h = ri.header();
    const RegisterSet& live = h.begin < kernel.blocks[h.block].insts.size()
                                  ? lv.live_before[h.block][h.begin]
                                  : lv.live_out_block[h.block];
    ri.prefetch = ri.working_set;
    ri.live_only_prefetch = ri.working_set & live;
    part.intervals.push_back(std::move(ri));
  }
  return part;
}

}  // namespace

IntervalPartition form_register_intervals_first_pass(const Kernel& kernel,
                                                     uint32_t regs_per_interval) {
  check_arguments(kernel, regs_per_interval);
  PieceGraph g(kernel);
  const std::vector<Group> groups = first_pass(kernel, regs_per_interval, g);
  return build_partition(kernel, regs_per_interval, g, groups, 0);
}

IntervalPartition form_register_intervals(const Kernel& kernel, uint32_t regs_per_interval) {
  check_arguments(kernel, regs_per_interval);
  PieceGraph g(kernel);
  std::vector<Group> groups = first_pass(kernel, regs_per_interval, g);
  uint32_t rounds = 0;
  // Each round lowers loop-nest depth by one where the registers allow (paper §3.3).
  for (;;) {
    std::vector<Group> merged = second_pass_round(kernel, regs_per_interval, g, groups);
    if (merged.size() >= groups.size()) break;
    groups = std::move(merged);
    ++rounds;
  }
  return build_partition(kernel, regs_per_interval, g, groups, rounds);
}

IntervalStats interval_statistics(const IntervalPartition& partition) {
  IntervalStats s;
  if (partition.intervals.empty()) return s;
  s.intervals = static_cast<uint32_t>(partition.intervals.size());
  s.min_instructions = std::numeric_limits<uint32_t>::max();
  double insts = 0.0, ws = 0.0;
  for (const RegisterInterval& ri : partition.intervals) {
    insts += ri.instructions;
    ws += static_cast<double>(ri.working_set.count());
    s.min_instructions = std::min(s.min_instructions, ri.instructions);
    s.max_instructions = std::max(s.max_instructions, ri.instructions);
  }
  s.mean_instructions = insts / s.intervals;
  s.mean_working_set = ws / s.intervals;
  return s;
}

}  // namespace warpreg

#include "stimuli/driver/kernel_workload.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/params.h"

namespace warpreg {

namespace {

std::string_view opcode_base(const std::string& opcode) {
  return std::string_view(opcode).substr(0, opcode.find('.'));
}

unsigned popcount(LaneMask mask) { return static_cast<unsigned>(std::bitset<32>(mask).count()); }

}  // namespace

KernelRunConfig static_kernel_run_config(const Params& params, KernelShape shape) {
  KernelRunConfig config;
  config.seed = static_cast<uint64_t>(params.integer("sim.seed"));
  config.shape = std::move(shape);
  config.default_trip_count = static_cast<uint32_t>(params.integer("dot.trip_count"));
  config.trip_spread = params.real("dot.trip_spread");
  config.divergence = params.real("dot.divergence");
  config.taken = params.real("dot.taken");
  config.early_exit = params.real("dot.early_exit");
  config.max_insts_per_warp = static_cast<uint64_t>(params.integer("kernel.max_insts_per_warp"));
  config.allow_capped = params.flag("kernel.allow_capped");
  return config;
}

KernelWorkload::KernelWorkload(Kernel kernel, KernelRunConfig config, std::string description)
    : kernel_(std::move(kernel)), config_(std::move(config)), description_(std::move(description)) {
  const std::string who = "kernel " + kernel_.name;
  if (kernel_.blocks.empty() || kernel_.instruction_count() == 0)
    throw WorkloadError(description_ + ": " + who + " has no instructions");
  KernelShape& shape = config_.shape;
  if (shape.name.empty()) shape.name = kernel_.name;
  if (shape.ctas == 0 || shape.threads_per_cta == 0)
    throw WorkloadError(description_ + ": a launch needs at least one CTA and one thread");
  if (kernel_.regs_used() > shape.regs_per_thread)
    throw WorkloadError(description_ + ": " + who + " names " +
                        std::to_string(kernel_.regs_used()) + " registers but the launch gives " +
                        std::to_string(shape.regs_per_thread) + " per thread");
  if (config_.max_insts_per_warp == 0)
    throw WorkloadError(description_ + ": the instruction cap must be at least 1 (the exit)");
  config_.values.validate(description_);
  analyse();
}

void KernelWorkload::analyse() {
  Rng rng(stream_seed(config_.seed, ~0u, ~0u));
  std::vector<LaneValueSpec> register_specs(kMaxArchRegisters);
  for (LaneValueSpec& spec : register_specs) spec = config_.values.draw(rng);
  bool found_exit = false;
  uint64_t last_pc = 0;
  blocks_.assign(kernel_.blocks.size(), BlockInfo{});
  for (const BasicBlock& block : kernel_.blocks) {
    BlockInfo& info = blocks_[block.id];
    info.first_op = static_cast<uint32_t>(ops_.size());
    for (const StaticInst& inst : block.insts) {
      Op op;
      op.proto.pc = inst.pc;
      op.proto.cls = inst.cls;
      op.proto.num_dst = static_cast<uint8_t>(std::min<size_t>(inst.dst.size(), kMaxDst));
      op.proto.num_src = static_cast<uint8_t>(std::min<size_t>(inst.src.size(), kMaxSrc));
      const size_t dropped =
          inst.dst.size() - op.proto.num_dst + inst.src.size() - op.proto.num_src;
      if (dropped != 0 && dropped_operands_ == 0) first_dropped_pc_ = inst.pc;
      dropped_operands_ += dropped;
      std::copy_n(inst.dst.begin(), op.proto.num_dst, op.proto.dst.begin());
      std::copy_n(inst.src.begin(), op.proto.num_src, op.proto.src.begin());
      op.guard = inst.guard_pred;
      op.guard_negated = inst.guard_negated;
      const std::string_view base = opcode_base(inst.opcode);
      op.exits = base == "EXIT" || base == "RET";
      for (uint8_t p : inst.pred_dst)
        if (p < 8) op.pred_writes |= static_cast<uint8_t>(1u << p);
      op.value_specs = static_cast<uint32_t>(value_specs_.size());
      for (unsigned k = 0; k < op.proto.num_dst; ++k) {
        const LaneValueSpec own = config_.values.draw(rng);
        value_specs_.push_back(rng.chance(config_.register_values) ? register_specs[op.proto.dst[k]]
                                                                   : own);
      }
      assign_memory(op, inst);
      if (base == "EXIT" && !found_exit) {
        exit_pc_ = inst.pc;
        found_exit = true;
      }
      last_pc = std::max(last_pc, inst.pc);
      ops_.push_back(op);
    }
    info.end_op = static_cast<uint32_t>(ops_.size());
  }
  if (!found_exit) exit_pc_ = last_pc + 8;
  address_model_of_pc_.seal();

  find_loops();
  const std::vector<uint32_t> ipdom = compute_immediate_post_dominators(kernel_);
  for (const BasicBlock& block : kernel_.blocks) {
    BlockInfo& info = blocks_[block.id];
    const StaticInst* last = block.insts.empty() ? nullptr : &block.insts.back();
    const bool falls_through = last == nullptr || may_fall_through(*last);
    size_t deciding_size = SIZE_MAX;
    for (uint32_t to : block.succ) {
      Edge edge;
      edge.to = to;
      for (uint32_t l = 0; l < loops_.size(); ++l) {
        const Loop& loop = loops_[l];
        if (!loop.body[block.id]) continue;
        const bool back = to == loop.header;
        if (back) edge.back_edge_of = static_cast<int32_t>(l);
        if (!loop.body[to]) edge.leaves.push_back(l);
        if (back || !loop.body[to]) {
          const size_t size =
              static_cast<size_t>(std::count(loop.body.begin(), loop.body.end(), true));
          if (size < deciding_size) {
            deciding_size = size;
            info.deciding_loop = static_cast<int32_t>(l);
          }
        }
      }
      const int32_t index = static_cast<int32_t>(info.edges.size());
      if (to == block.id + 1 && falls_through) info.fallthrough_edge = index;
      info.edges.push_back(std::move(edge));
    }
    for (int32_t e = 0; e < static_cast<int32_t>(info.edges.size()); ++e)
      if (e != info.fallthrough_edge) {
        info.taken_edge = e;
        break;
      }
    if (info.edges.size() < 2) info.deciding_loop = -1;
    const uint32_t r = ipdom[block.id];
    info.reconvergence = (r == kVirtualExit || r == kNoPostDominator) ? kNever : r;
  }
  for (Loop& loop : loops_) {
    auto it = config_.trip_counts.find(loop.header);
    loop.trip_count = it != config_.trip_counts.end() ? it->second : config_.default_trip_count;
  }
}

void KernelWorkload::find_loops() {
  // Retreating edges of a depth-first search from the entry are the back edges;
  // each header's natural loop is what reaches a latch without passing the header.
  const size_t n = kernel_.blocks.size();
  enum class Mark : uint8_t { New, OnStack, Done };
  std::vector<Mark> mark(n, Mark::New);
  std::map<uint32_t, std::vector<uint32_t>> latches;  // header -> latches
  std::vector<std::pair<uint32_t, size_t>> dfs;       // block, next successor
  dfs.emplace_back(kernel_.entry, 0);
  mark[kernel_.entry] = Mark::OnStack;
  while (!dfs.empty()) {
    auto& [block, next] = dfs.back();
    const std::vector<uint32_t>& succ = kernel_.blocks[block].succ;
    if (next == succ.size()) {
      mark[block] = Mark::Done;
      dfs.pop_back();
      continue;
    }
    const uint32_t to = succ[next++];
    if (mark[to] == Mark::OnStack) {
      latches[to].push_back(block);
    } else if (mark[to] == Mark::New) {
      mark[to] = Mark::OnStack;
      dfs.emplace_back(to, 0);
    }
  }
  for (const auto& [header, from] : latches) {
    Loop loop;
    loop.header = header;
    loop.body.assign(n, false);
    loop.body[header] = true;
    std::vector<uint32_t> work;
    for (uint32_t latch : from)
      if (!loop.body[latch]) {
        loop.body[latch] = true;
        work.push_back(latch);
      }
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : kernel_.blocks[b].pred)
        if (!loop.body[p] && mark[p] != Mark::New) {
          loop.body[p] = true;
          work.push_back(p);
        }
    }
    loops_.push_back(std::move(loop));
  }
}

std::vector<uint32_t> KernelWorkload::loop_headers() const {
  std::vector<uint32_t> headers;
  for (const Loop& loop : loops_) headers.push_back(loop.header);
  std::sort(headers.begin(), headers.end());
  return headers;
}

LaneMask KernelWorkload::Execution::split_or_uniform(LaneMask active) {
  if (popcount(active) >= 2 && rng_.chance(owner_.config_.divergence)) {
    for (int attempt = 0; attempt < 64; ++attempt) {
      // A prefix of lanes (a bound on the thread index) or a data-dependent subset.
      const LaneMask pick =
          rng_.chance(0.5) ? (LaneMask{1} << (1 + rng_.below(kWarpSize - 1))) - 1 : rng_.next32();
      const LaneMask part = pick & active;
      if (part != 0 && part != active) return part;
    }
    return active & (~active + 1);  // the lowest active lane alone
  }
  return rng_.chance(owner_.config_.taken) ? active : 0;
}

LaneMask KernelWorkload::Execution::guard_lanes(const Op& op, LaneMask active, bool exit_reader) {
  const uint8_t bit = static_cast<uint8_t>(1u << op.guard);
  if (!(predicate_known_ & bit)) {
    // Predicates are drawn when first read, by what reads them: a guarded EXIT is
    // a bounds check, anything else a data-dependent condition.
    LaneMask guard_true;
    if (exit_reader)
      guard_true = rng_.chance(owner_.config_.early_exit) ? kFullMask << rng_.below(kWarpSize) : 0;
    else
      guard_true = split_or_uniform(active);
    predicate_[op.guard] = op.guard_negated ? ~guard_true : guard_true;
    predicate_known_ |= bit;
  }
  return (op.guard_negated ? ~predicate_[op.guard] : predicate_[op.guard]) & active;
}

void KernelWorkload::Execution::choose_edges(uint32_t block, LaneMask active) {
  const BlockInfo& info = owner_.blocks_[block];
  const size_t n = info.edges.size();
  lanes_per_edge_.assign(n, 0);
  if (n == 1) {
    lanes_per_edge_[0] = active;
    return;
  }
  const Op* last = info.end_op > info.first_op ? &owner_.ops_[info.end_op - 1] : nullptr;
  const bool guarded_two_way = last != nullptr && last->guard >= 0 && n == 2 &&
                               info.taken_edge >= 0 && info.fallthrough_edge >= 0;

  // Sends `lanes` down the listed edges: by the guard when they are the branch's
  // two ways, otherwise all one way or (diverging) each lane its own way.
  auto distribute = [&](LaneMask lanes, const std::vector<int32_t>& edges) {
    if (lanes == 0 || edges.empty()) return;
    if (edges.size() == 1) {
      lanes_per_edge_[edges[0]] |= lanes;
      return;
    }
    if (guarded_two_way) {
      const LaneMask taken = guard_lanes(*last, lanes, false);
      lanes_per_edge_[info.taken_edge] |= taken;
      lanes_per_edge_[info.fallthrough_edge] |= lanes & ~taken;
      return;
    }
    const uint32_t count = static_cast<uint32_t>(edges.size());
    if (popcount(lanes) >= 2 && rng_.chance(owner_.config_.divergence)) {
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (lanes & (1u << lane)) lanes_per_edge_[edges[rng_.below(count)]] |= 1u << lane;
    } else {
      lanes_per_edge_[edges[rng_.below(count)]] |= lanes;
    }
  };

  std::vector<int32_t>& stay = stay_edges_;
  std::vector<int32_t>& leave = leave_edges_;
  stay.clear();
  leave.clear();
  if (info.deciding_loop < 0) {
    for (int32_t e = 0; e < static_cast<int32_t>(n); ++e) stay.push_back(e);
    distribute(active, stay);
    return;
  }
  // Lanes repeat the loop until they have taken its back edge trip-count times.
  const uint32_t l = static_cast<uint32_t>(info.deciding_loop);
  const Loop& loop = owner_.loops_[l];
  LaneMask staying = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if ((active & (1u << lane)) && back_edges_taken_[l][lane] < trip_limit_[l][lane])
      staying |= 1u << lane;
  for (int32_t e = 0; e < static_cast<int32_t>(n); ++e)
    (loop.body[info.edges[e].to] ? stay : leave).push_back(e);
  if (stay.empty()) stay = leave;
  if (leave.empty()) leave = stay;
  distribute(staying, stay);
  distribute(active & ~staying, leave);
  if (last != nullptr && last->guard >= 0 && info.taken_edge >= 0) {
    // Later readers of the guard see the outcome the trip count imposed.
    const LaneMask taken = lanes_per_edge_[info.taken_edge];
    const LaneMask value = last->guard_negated ? ~taken : taken;
    predicate_[last->guard] = (predicate_[last->guard] & ~active) | (value & active);
    predicate_known_ |= static_cast<uint8_t>(1u << last->guard);
  }
}

uint32_t KernelWorkload::Execution::draw_trip(uint32_t l) {
  const uint32_t trips = owner_.loops_[l].trip_count;
  if (owner_.config_.trip_spread <= 0)
    return trips;  // draws nothing: streams stay as without spread
  const auto spread = static_cast<uint32_t>(std::lround(trips * owner_.config_.trip_spread));
  return trips + rng_.below(spread + 1);
}

namespace {

/// The word of the thread's local frame a listing's local access names: the last hex
/// offset inside its brackets ("LDL R0, [R1+0x10]", "LLD R2, local [0x8]"), / 4.
uint32_t local_frame_word(const std::string& text) {
  const size_t open = text.find('['), close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return 0;
  const size_t hex = text.rfind("0x", close);
  if (hex == std::string::npos || hex < open) return 0;
  return static_cast<uint32_t>(std::strtoull(text.c_str() + hex + 2, nullptr, 16) / 4 % 4096);
}

}  // namespace

void KernelWorkload::assign_memory(Op& op, const StaticInst& inst) {
  if (inst.cls != InstClass::Load && inst.cls != InstClass::Store) return;
  const bool declared = inst.space != MemorySpace::None;
  if (inst.space == MemorySpace::Local) {
    op.proto.mem = MemOperand::make(MemorySpace::Local, inst.access_bytes);
    op.proto.mem_tag = local_frame_word(inst.text);
    return;
  }
  if (!config_.address_mix) {
    // The SM's default model of the space; generic LD/ST stay as they are (global).
    if (declared) op.proto.mem = MemOperand::make(inst.space, inst.access_bytes);
    op.counts_executions = declared;
    return;
  }
  memory::AddressModelConfig model = config_.address_mix->model_for(
      inst.pc, memory::mem_space_of(inst.space), declared, inst.cls == InstClass::Store);
  if (declared) model.access_bytes = inst.access_bytes;
  if (model.space == memory::MemSpace::Shared && model.footprint_bytes == 0)
    model.footprint_bytes =
        memory::shared_region_bytes(config_.shape.shared_mem_per_cta, model.access_bytes);
  const std::string name = description_ + ": address model of pc " + std::to_string(inst.pc);
  address_model_of_pc_.insert(inst.pc, static_cast<uint32_t>(address_models_.size()));
  address_models_.emplace_back(model, config_.address_mix->seed, inst.pc, memory::LocalLayout{},
                               name);
  op.proto.mem = MemOperand::make(memory::inst_space_of(model.space), model.access_bytes);
  op.counts_executions = true;
}

bool KernelWorkload::lane_addresses(const WarpInst& inst, const GridSite& site,
                                    std::array<uint64_t, kWarpSize>& out) const {
  const uint32_t index = address_model_of_pc_.find(inst.pc);
  if (index == PcIndex::kNone) return false;
  const memory::AddressModel& model = address_models_[index];
  const memory::AccessSite at{site.warp, site.grid_warps, site.instance, 0, 0};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if ((inst.active >> lane) & 1u) out[lane] = model.address(at, lane);
  return true;
}

void KernelWorkload::Execution::emit_op(const Op& op, LaneMask active, InstClass cls) {
  WarpInst inst = op.proto;
  if (op.counts_executions) inst.mem_tag = executions_[&op - owner_.ops_.data()]++;
  inst.active = active;
  inst.cls = cls;
  inst.value_index = next_value_index();
  for (unsigned k = 0; k < inst.num_dst; ++k)
    fill_lanes(rng_, owner_.value_specs_[op.value_specs + k], first_thread_, emit_value());
  emit(inst);
  ++emitted_;
  exited_ = cls == InstClass::Exit;
}

void KernelWorkload::Execution::finish(bool capped) {
  if (capped) {
    ++owner_.capped_warps_;
    if (alive_ != 0) last_mask_ = alive_;
  }
  if (exited_) return;
  WarpInst exit;
  exit.pc = owner_.exit_pc_;
  exit.cls = InstClass::Exit;
  exit.active = last_mask_;
  exit.value_index = next_value_index();
  emit(exit);
}

KernelWorkload::Execution::Execution(KernelWorkload& owner)
    : owner_(owner),
      back_edges_taken_(owner.loops_.size()),
      trip_limit_(owner.loops_.size()),
      executions_(owner.ops_.size()) {}

void KernelWorkload::Execution::start(uint32_t cta, uint32_t warp) {
  restart();
  const KernelShape& shape = owner_.config_.shape;
  rng_.reseed(stream_seed(owner_.config_.seed, cta, warp));
  const uint32_t threads = std::min(kWarpSize, shape.threads_per_cta - warp * kWarpSize);
  const LaneMask warp_mask = threads >= kWarpSize ? kFullMask : (LaneMask{1} << threads) - 1;
  for (auto& counts : back_edges_taken_) counts.fill(0);
  std::fill(executions_.begin(), executions_.end(), 0u);
  for (uint32_t l = 0; l < trip_limit_.size(); ++l)
    for (uint32_t& limit : trip_limit_[l]) limit = draw_trip(l);
  predicate_.fill(0);
  predicate_known_ = 0;
  stack_.clear();
  stack_.push_back({owner_.kernel_.entry, kNever, warp_mask});
  first_thread_ = cta * shape.threads_per_cta + warp * kWarpSize;
  alive_ = warp_mask;
  last_mask_ = warp_mask;
  block_visits_ = 0;
  emitted_ = 0;
  exited_ = false;
  in_block_ = false;
}

void KernelWorkload::Execution::generate() {
  // Whole blocks at a time, or 64 instructions of a long one; the batch ends at a
  // block's boundary or in its middle, where the next call resumes.
  constexpr unsigned kBatch = 64;
  const uint64_t cap = owner_.config_.max_insts_per_warp;
  unsigned batch = 0;
  while (batch < kBatch) {
    if (!in_block_) {
      if (stack_.empty()) return finish(false);
      StackEntry& top = stack_.back();
      top.mask &= alive_;
      if (top.mask == 0 || top.block == top.reconvergence || top.block == kNever) {
        stack_.pop_back();
        continue;
      }
      // Also bounds loops of empty or fully predicated-off blocks.
      if (++block_visits_ > cap) return finish(true);
      in_block_ = true;
      block_ = top.block;
      op_ = owner_.blocks_[block_].first_op;
      lanes_ = top.mask;
    }
    const BlockInfo& info = owner_.blocks_[block_];
    while (op_ < info.end_op && lanes_ != 0) {
      if (emitted_ + 1 >= cap) return finish(true);
      const uint32_t i = op_++;
      const Op& op = owner_.ops_[i];
      // A block's final branch issues in every lane; its guard picks the way.
      const bool decides_way = i + 1 == info.end_op && info.edges.size() >= 2;
      const LaneMask exec =
          op.guard >= 0 && !decides_way ? guard_lanes(op, lanes_, op.exits) : lanes_;
      predicate_known_ &= static_cast<uint8_t>(~op.pred_writes);
      if (exec == 0) continue;  // predicated off in every lane: not issued
      if (op.exits) {
        alive_ &= ~exec;
        lanes_ &= ~exec;
        emit_op(op, exec, alive_ == 0 ? InstClass::Exit : InstClass::Branch);
        last_mask_ = exec;
        if (exited_) return;  // every lane has left: nothing can follow
      } else {
        emit_op(op, exec, op.proto.cls);
        last_mask_ = exec;
      }
      if (++batch == kBatch) return;
    }
    in_block_ = false;
    leave_block();
  }
}

void KernelWorkload::Execution::leave_block() {
  const BlockInfo& info = owner_.blocks_[block_];
  StackEntry& top = stack_.back();
  if (lanes_ == 0) return;
  if (info.edges.empty()) {
    alive_ &= ~lanes_;  // falls off the end (a subroutine's RET path, a block without successors)
    return;
  }
  choose_edges(block_, lanes_);
  uint32_t ways = 0;
  int32_t only = -1;
  for (uint32_t e = 0; e < info.edges.size(); ++e) {
    const LaneMask moved = lanes_per_edge_[e];
    if (moved == 0) continue;
    ++ways;
    only = static_cast<int32_t>(e);
    const Edge& edge = info.edges[e];
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!(moved & (1u << lane))) continue;
      if (edge.back_edge_of >= 0) ++back_edges_taken_[edge.back_edge_of][lane];
      for (uint32_t l : edge.leaves) {
        back_edges_taken_[l][lane] = 0;
        trip_limit_[l][lane] = draw_trip(l);
      }
    }
  }
  if (ways == 1) {
    top.block = info.edges[only].to;
    return;
  }
  // Divergence: this entry waits at the reconvergence point; one entry per way,
  // the fall-through way on top so that it runs first.
  const uint32_t reconvergence = info.reconvergence;
  top.block = reconvergence;
  for (uint32_t e = 0; e < info.edges.size(); ++e)
    if (lanes_per_edge_[e] != 0 && static_cast<int32_t>(e) != info.fallthrough_edge)
      stack_.push_back({info.edges[e].to, reconvergence, lanes_per_edge_[e]});
  if (info.fallthrough_edge >= 0 && lanes_per_edge_[info.fallthrough_edge] != 0)
    stack_.push_back({info.edges[info.fallthrough_edge].to, reconvergence,
                      lanes_per_edge_[info.fallthrough_edge]});
}

WarpStream& KernelWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  const KernelShape& shape = config_.shape;
  if (cta >= shape.ctas || warp >= shape.warps_per_cta())
    throw WorkloadError(description_ + ": no warp " + std::to_string(cta) + " " +
                        std::to_string(warp) + " in a kernel of " + std::to_string(shape.ctas) +
                        " CTAs x " + std::to_string(shape.warps_per_cta()) + " warps");
  if (slot >= slots_.size()) slots_.resize(size_t{slot} + 1);
  if (!slots_[slot]) slots_[slot] = std::make_unique<Execution>(*this);
  slots_[slot]->start(cta, warp);
  return *slots_[slot];
}

WorkloadNotes KernelWorkload::notes() const {
  WorkloadNotes notes;
  notes.capped_warps = capped_warps_;
  notes.dropped_operands = dropped_operands_;
  if (capped_warps_ != 0 && !config_.allow_capped)
    notes.capped_failure =
        description_ + ": " + std::to_string(capped_warps_) +
        " warp(s) reached kernel.max_insts_per_warp = " +
        std::to_string(config_.max_insts_per_warp) +
        " instructions and were cut short (a loop without an exit?); raise the cap, or set "
        "kernel.allow_capped=true to accept the truncated streams";
  if (dropped_operands_ != 0) {
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(first_dropped_pc_));
    notes.dropped_warning =
        description_ + ": " + std::to_string(dropped_operands_) + " register operand(s) beyond " +
        std::to_string(kMaxSrc) + " sources or " + std::to_string(kMaxDst) +
        " destinations of an instruction are not modelled (first at PC " + pc + ")";
  }
  return notes;
}

std::string KernelWorkload::describe() const {
  const KernelShape& shape = config_.shape;
  return description_ + " seed " + std::to_string(config_.seed) + " (" +
         std::to_string(shape.ctas) + " CTAs x " + std::to_string(shape.warps_per_cta()) +
         " warps, " + std::to_string(kernel_.blocks.size()) + " blocks, " +
         std::to_string(loops_.size()) + " loops)";
}

}  // namespace warpreg

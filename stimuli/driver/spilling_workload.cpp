#include "stimuli/driver/spilling_workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/params.h"
#include "modules/interfaces/occupancy.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

namespace {

/// Loop depth of each block: how many loops contain it, a loop being a backward branch
/// (to a block starting at or before the branching block) and the blocks laid out
/// between its target and it. Compilers lay loops out this way, which is all a spill
/// cost needs.
std::vector<uint32_t> loop_depth_by_layout(const Kernel& kernel) {
  const size_t n = kernel.blocks.size();
  std::vector<uint64_t> first(n, 0), last(n, 0);
  for (const BasicBlock& b : kernel.blocks) {
    if (b.insts.empty()) continue;
    first[b.id] = b.insts.front().pc;
    last[b.id] = b.insts.back().pc;
  }
  std::vector<uint32_t> depth(n, 0);
  for (const BasicBlock& b : kernel.blocks) {
    if (b.insts.empty()) continue;
    for (uint32_t to : b.succ) {
      if (kernel.blocks[to].insts.empty() || first[to] > last[b.id]) continue;
      for (const BasicBlock& c : kernel.blocks)
        if (!c.insts.empty() && first[c.id] >= first[to] && last[c.id] <= last[b.id]) ++depth[c.id];
    }
  }
  return depth;
}

}  // namespace

SpillingWorkload::SpillingWorkload(std::unique_ptr<Workload> inner, uint32_t register_limit)
    : inner_(std::move(inner)), shape_(inner_->shape()) {
  if (register_limit >= shape_.regs_per_thread)
    throw WorkloadError("kernel.recompile_for_registers: a limit of " +
                        std::to_string(register_limit) + " registers does not reduce the " +
                        std::to_string(shape_.regs_per_thread) + " registers of " + shape_.name);
  if (register_limit <= kScratch)
    throw WorkloadError("kernel.recompile_for_registers: a limit of " +
                        std::to_string(register_limit) + " registers leaves none beside the " +
                        std::to_string(kScratch) + " scratch registers the spill code needs");
  kept_ = register_limit - kScratch;
  shape_.regs_per_thread = register_limit;
  choose_spilled();
}

void SpillingWorkload::choose_spilled() {
  cost_.assign(kMaxArchRegisters, 0.0);
  const uint32_t used = inner_->shape().regs_per_thread;
  if (const Kernel* kernel = inner_->static_code()) {
    const std::vector<uint32_t> depth = loop_depth_by_layout(*kernel);
    for (const BasicBlock& b : kernel->blocks) {
      if (!b.insts.empty()) leaders_.push_back(b.insts.front().pc);
      const double weight = std::pow(10.0, double(depth[b.id]));
      for (const StaticInst& inst : b.insts) {
        for (uint16_t r : inst.src)
          if (r < kMaxArchRegisters) cost_[r] += weight;
        for (uint16_t r : inst.dst)
          if (r < kMaxArchRegisters) cost_[r] += weight;
      }
    }
    std::sort(leaders_.begin(), leaders_.end());
  } else {
    // No static code (a trace): the uses in the first warp's stream stand for the counts.
    WarpStream& first = inner_->load_warp(0, 0, 0);
    for (uint32_t i = 0;; ++i) {
      const WarpInst inst = first.at(i);
      first.retire(i);
      for (unsigned k = 0; k < inst.num_src; ++k)
        if (inst.src[k] < kMaxArchRegisters) cost_[inst.src[k]] += 1.0;
      for (unsigned k = 0; k < inst.num_dst; ++k)
        if (inst.dst[k] < kMaxArchRegisters) cost_[inst.dst[k]] += 1.0;
      if (inst.cls == InstClass::Exit) break;
    }
  }
  // The cheapest registers go to memory; a tie spills the higher-numbered register.
  std::vector<uint16_t> order;
  for (uint16_t r = 0; r < used; ++r) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) {
    return cost_[a] != cost_[b] ? cost_[a] < cost_[b] : a > b;
  });
  for (size_t i = 0; i + kept_ < order.size(); ++i) spilled_.set(order[i]);
  renamed_.assign(kMaxArchRegisters + 1, kZeroRegister);
  local_word_.assign(kMaxArchRegisters + 1, kNoLocalWord);
  uint16_t next_kept = 0, next_word = 0;
  for (uint16_t r = 0; r < used; ++r) {
    if (spilled_.test(r))
      local_word_[r] = next_word++;
    else
      renamed_[r] = next_kept++;
  }
}

uint16_t SpillingWorkload::Rewrite::scratch_for(uint16_t reg, uint32_t busy, bool& fill) {
  ++uses_;
  for (uint16_t j = 0; j < kScratch; ++j)
    if (scratch_[j].reg == reg) {
      scratch_[j].used = uses_;
      fill = false;
      return j;
    }
  uint16_t pick = kScratch;
  for (uint16_t j = 0; j < kScratch; ++j) {
    if ((busy >> j) & 1u) continue;
    if (pick == kScratch || scratch_[j].reg == kZeroRegister ||
        (scratch_[pick].reg != kZeroRegister && scratch_[j].used < scratch_[pick].used))
      pick = j;
    if (scratch_[pick].reg == kZeroRegister) break;
  }
  if (pick == kScratch)
    throw std::logic_error("spill code: an instruction names more spilled registers than scratch");
  scratch_[pick] = {reg, uses_};
  fill = true;
  return pick;
}

void SpillingWorkload::Rewrite::start(WarpStream& inner) {
  restart();
  inner_ = &inner;
  next_ = 0;
  if (memory_.empty()) memory_.resize(kMaxArchRegisters + 1);
  for (WarpRegister& r : memory_) r = WarpRegister{};
  scratch_.fill(Scratch{});
  boundary_ = true;
  mask_ = 0;
}

void SpillingWorkload::Rewrite::spill_op(InstClass cls, const WarpInst& at, uint16_t reg,
                                         uint16_t j) {
  WarpInst op;
  op.pc = at.pc;
  op.active = at.active;
  op.cls = cls;
  op.local_word = code_.local_word_[reg];
  // On the memory system: the register's word of the thread's local frame.
  op.mem = MemOperand::make(MemorySpace::Local, 4);
  op.mem_tag = code_.local_word_[reg];
  op.value_index = next_value_index();
  if (cls == InstClass::Load) {
    op.num_dst = 1;
    op.dst[0] = static_cast<uint16_t>(code_.kept_ + j);
    emit_value() = memory_[reg];
  } else {
    op.num_src = 1;
    op.src[0] = static_cast<uint16_t>(code_.kept_ + j);
  }
  emit(op);
}

void SpillingWorkload::Rewrite::generate() {
  const WarpInst& original = inner_->at(next_);
  const auto scratch = [this](uint16_t j) { return static_cast<uint16_t>(code_.kept_ + j); };
  // A compiler's local allocation keeps a filled value within its basic block only.
  if (boundary_ || original.active != mask_ ||
      std::binary_search(code_.leaders_.begin(), code_.leaders_.end(), original.pc))
    scratch_.fill(Scratch{});
  mask_ = original.active;
  boundary_ = original.cls == InstClass::Branch;

  WarpInst inst = original;
  uint32_t busy = 0;
  for (unsigned k = 0; k < inst.num_src; ++k) {
    const uint16_t r = inst.src[k];
    if (r == kZeroRegister) continue;
    if (!code_.spilled_.test(r)) {
      inst.src[k] = code_.renamed_[r];
      continue;
    }
    bool fill = false;
    const uint16_t j = scratch_for(r, busy, fill);
    busy |= 1u << j;
    if (fill) spill_op(InstClass::Load, inst, r, j);
    inst.src[k] = scratch(j);
  }
  // Spilled destinations are written to scratch registers and stored after.
  uint16_t stored[kMaxDst], stored_from[kMaxDst];
  unsigned stores = 0;
  uint32_t written = 0;
  inst.value_index = next_value_index();
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    const WarpRegister& value = inner_->value(original, k);
    emit_value() = value;
    if (r == kZeroRegister) continue;
    if (!code_.spilled_.test(r)) {
      inst.dst[k] = code_.renamed_[r];
      continue;
    }
    bool fill = false;
    const uint16_t j = scratch_for(r, written, fill);
    written |= 1u << j;
    inst.dst[k] = scratch(j);
    memory_[r].merge(value, inst.active);
    stored[stores] = r;
    stored_from[stores++] = j;
  }
  // A traced memory instruction's lane addresses follow its destinations' values.
  for (unsigned k = inst.num_dst; k < inst.value_count(); ++k)
    emit_value() = inner_->value(original, k);
  emit(inst);
  for (unsigned s = 0; s < stores; ++s) spill_op(InstClass::Store, inst, stored[s], stored_from[s]);
  inner_->retire(next_++);
}

WarpStream& SpillingWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  WarpStream& in = inner_->load_warp(slot, cta, warp);
  if (slots_.size() <= slot) slots_.resize(slot + 1);
  if (!slots_[slot]) slots_[slot] = std::make_unique<Rewrite>(*this);
  slots_[slot]->start(in);
  return *slots_[slot];
}

std::string SpillingWorkload::describe() const {
  std::string spilled;
  for (uint16_t r = 0; r < kMaxArchRegisters; ++r)
    if (spilled_.test(r)) spilled += (spilled.empty() ? "R" : ", R") + std::to_string(r);
  return inner_->describe() + ", recompiled to " + std::to_string(shape_.regs_per_thread) +
         " registers (" + spilled + " spilled to local memory)";
}

uint32_t recompiled_register_limit(const KernelShape& kernel, const Params& params,
                                   uint32_t reference_registers) {
  SmLimits sm;
  sm.max_warps = static_cast<uint32_t>(params.integer("sm.max_warps"));
  sm.max_threads = static_cast<uint32_t>(params.integer("sm.max_threads"));
  sm.max_ctas = static_cast<uint32_t>(params.integer("sm.max_ctas"));
  sm.shared_mem_bytes = static_cast<uint32_t>(params.integer("sm.shared_mem_bytes"));
  sm.reg_alloc_granularity = static_cast<uint32_t>(params.integer("sm.reg_alloc_granularity"));
  const auto registers = static_cast<uint32_t>(params.integer("sm.registers"));
  sm.registers = reference_registers;
  const uint32_t warps = compute_occupancy(sm, kernel).warps();
  const uint32_t granularity = std::max<uint32_t>(sm.reg_alloc_granularity, 1);
  uint32_t limit = registers / kWarpSize / std::max<uint32_t>(warps, 1);
  limit -= limit % granularity;
  return std::min(limit, kernel.regs_per_thread);
}

std::unique_ptr<Workload> apply_register_limit(std::unique_ptr<Workload> inner,
                                               const Params& params) {
  const auto reference = static_cast<uint32_t>(params.integer("kernel.recompile_for_registers"));
  if (reference == 0) return inner;
  const uint32_t limit = recompiled_register_limit(inner->shape(), params, reference);
  if (limit >= inner->shape().regs_per_thread) return inner;
  return std::make_unique<SpillingWorkload>(std::move(inner), limit);
}

}  // namespace warpreg

#include "stimuli/driver/spilling_workload.h"

#include <algorithm>
#include <string>

#include "common/params.h"
#include "modules/interfaces/occupancy.h"

namespace warpreg {

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
}

void SpillingWorkload::Rewrite::start(WarpStream& inner) {
  restart();
  inner_ = &inner;
  next_ = 0;
  if (memory_.empty()) memory_.resize(kMaxArchRegisters + 1);
  for (WarpRegister& r : memory_) r = WarpRegister{};
}

void SpillingWorkload::Rewrite::generate() {
  const WarpInst& original = inner_->at(next_);
  const auto scratch = [this](unsigned k) { return static_cast<uint16_t>(kept_ + k); };
  WarpInst inst = original;
  // Loads of spilled sources into scratch registers, one per distinct register.
  uint16_t loaded[kMaxSrc];
  unsigned loads = 0;
  for (unsigned k = 0; k < inst.num_src; ++k) {
    const uint16_t r = inst.src[k];
    if (r == kZeroRegister || r < kept_) continue;
    unsigned j = 0;
    while (j < loads && loaded[j] != r) ++j;
    if (j == loads) {
      loaded[loads++] = r;
      WarpInst load;
      load.pc = inst.pc;
      load.active = inst.active;
      load.cls = InstClass::Load;
      load.num_dst = 1;
      load.dst[0] = scratch(j);
      load.value_index = next_value_index();
      emit_value() = memory_[r];
      emit(load);
    }
    inst.src[k] = scratch(j);
  }
  // Spilled destinations are written to scratch registers and stored after.
  unsigned stores = 0;
  inst.value_index = next_value_index();
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    const WarpRegister& value = inner_->value(original, k);
    emit_value() = value;
    if (r == kZeroRegister || r < kept_) continue;
    inst.dst[k] = scratch(stores++);
    memory_[r].merge(value, inst.active);
  }
  emit(inst);
  for (unsigned j = 0; j < stores; ++j) {
    WarpInst store;
    store.pc = inst.pc;
    store.active = inst.active;
    store.cls = InstClass::Store;
    store.num_src = 1;
    store.src[0] = scratch(j);
    store.value_index = next_value_index();
    emit(store);
  }
  inner_->retire(next_++);
}

WarpStream& SpillingWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  WarpStream& in = inner_->load_warp(slot, cta, warp);
  if (slots_.size() <= slot) slots_.resize(slot + 1);
  if (!slots_[slot]) slots_[slot] = std::make_unique<Rewrite>(kept_);
  slots_[slot]->start(in);
  return *slots_[slot];
}

std::string SpillingWorkload::describe() const {
  return inner_->describe() + ", recompiled to " + std::to_string(shape_.regs_per_thread) +
         " registers (R" + std::to_string(kept_) + " and up spilled to local memory)";
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

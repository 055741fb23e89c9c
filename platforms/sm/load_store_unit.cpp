#include "platforms/sm/load_store_unit.h"

#include <algorithm>

namespace warpreg {

uint64_t LoadStoreUnit::default_base(uint64_t pc) {
  return memory::array_base(memory::MemSpace::Global, pc);
}

LoadStoreUnit::LoadStoreUnit(const LoadStoreConfig& config, Workload& workload, RequestPort& port)
    : config_(config), workload_(workload), port_(port), coalescer_(config.coalescer, "l1") {}

void LoadStoreUnit::find_addresses(const MemoryAccess& a, memory::MemSpace space, uint32_t bytes) {
  const WarpInst& inst = *a.inst;
  access_.local_word_stride = 0;
  if (inst.mem.traced()) {
    // Low and high 32 bits of each lane's address follow the destinations' values.
    const WarpRegister& lo = a.stream->value(inst, inst.num_dst);
    const WarpRegister& hi = a.stream->value(inst, inst.num_dst + 1);
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      access_.address[lane] = (uint64_t(hi.lane[lane]) << 32) | lo.lane[lane];
    ++counters_.traced;
    return;
  }
  const KernelShape& shape = workload_.shape();
  memory::AccessSite site;
  site.warp = uint64_t(a.cta) * shape.warps_per_cta() + a.warp_in_cta;
  site.grid_warps = uint64_t(shape.ctas) * shape.warps_per_cta();
  site.instance = inst.mem.space() == MemorySpace::None ? a.dynamic_index : inst.mem_tag;
  site.sm = config_.sm;
  site.warp_slot = a.warp_slot;
  ++counters_.modelled;
  if (space != memory::MemSpace::Local &&
      workload_.lane_addresses(inst, GridSite{site.warp, site.grid_warps, site.instance}, lanes_)) {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      access_.address[lane] = (inst.active >> lane) & 1u ? lanes_[lane] : 0;
    return;
  }
  // The default model: local words by mem_tag; global and shared coalesced, one array per
  // PC; constant uniform over the PC's own table (a[k] in a loop: one line per warp).
  memory::AddressModelConfig model = memory::default_model(space);
  model.access_bytes = bytes;
  if (space == memory::MemSpace::Local) {
    model.base = uint64_t(inst.mem_tag) * 4;
  } else if (space == memory::MemSpace::Shared) {
    model.footprint_bytes = memory::shared_region_bytes(shape.shared_mem_per_cta, bytes);
  }
  memory::AddressModel(model, 1, inst.pc, config_.local, "l1.default_model")
      .generate(site, inst.active, access_);
}

MemoryTiming LoadStoreUnit::access(const MemoryAccess& a, uint64_t cycle) {
  const WarpInst& inst = *a.inst;
  ++counters_.instructions;
  const MemorySpace declared = inst.mem.space();
  const memory::MemSpace space = memory::mem_space_of(declared);
  const uint32_t bytes = declared == MemorySpace::None ? 4 : inst.mem.access_bytes();
  MemoryTiming timing;
  if (space == memory::MemSpace::Constant) ++counters_.constant_loads;
  access_.active = inst.active;
  access_.bytes = bytes;
  access_.space = space;
  access_.kind = inst.mem.atomic()              ? memory::MemKind::Atomic
                 : inst.cls == InstClass::Store ? memory::MemKind::Store
                                                : memory::MemKind::Load;
  access_.bypass_l1 = config_.coalescer.skip_l1;
  find_addresses(a, space, bytes);
  if (space == memory::MemSpace::Local) ++counters_.local;
  if (space == memory::MemSpace::Local) access_.local_word_stride = config_.local.threads() * 4;
  access_.space = space;
  access_.bytes = bytes;
  coalescer_.coalesce(access_, coalesced_);

  if (space == memory::MemSpace::Shared) {
    const uint32_t passes = std::max<uint32_t>(coalesced_.shared_passes, 1);
    counters_.shared_passes += passes;
    timing.done = cycle + config_.shared_latency + passes - 1;
    timing.unit_free = cycle + passes;
    timing.l1_hit = true;
    return timing;
  }
  timing.done = cycle + 1;
  timing.unit_free = cycle + 1;
  timing.l1_hit = coalesced_.count != 0;
  uint64_t next = cycle;
  for (const memory::LineRequest& r : coalesced_) {
    memory::MemRequest& ext = txn_.request();
    txn_.prepare(access_.kind, space, r.address, r.bytes);
    ext.sm = static_cast<uint16_t>(config_.sm);
    ext.warp = static_cast<uint16_t>(a.warp_slot);
    ext.lanes = r.lanes;
    ext.sectors = r.sectors;
    ext.byte_mask = access_.kind == memory::MemKind::Store ? r.byte_mask : memory::ByteMask{};
    ext.bypass_l1 = access_.bypass_l1;
    ext.id = counters_.requests;
    uint64_t accepted = next;
    const uint64_t done = port_.send(txn_, next, accepted);
    ++counters_.requests;
    counters_.bytes_requested += r.bytes;
    timing.done = std::max(timing.done, done);
    timing.l1_hit = timing.l1_hit && ext.served_by == memory::MemLevel::L1;
    // One request per cycle, and none before the L1 took the previous one.
    next = std::max(next, accepted) + 1;
    timing.unit_free = next;
  }
  return timing;
}

uint64_t LoadStoreUnit::transfer(uint32_t warp, uint16_t reg, bool store, uint64_t cycle) {
  WarpInst inst;
  inst.cls = store ? InstClass::Store : InstClass::Load;
  inst.mem = MemOperand::make(MemorySpace::Local, 4);
  inst.mem_tag = kDesignFrameWord + reg;
  ++counters_.design_transfers;
  return access(MemoryAccess{&inst, nullptr, warp, 0, 0, 0}, cycle).done;
}

}  // namespace warpreg

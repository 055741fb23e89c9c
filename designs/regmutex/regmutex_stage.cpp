#include "designs/regmutex/regmutex_stage.h"

#include <algorithm>
#include <stdexcept>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg {

WARPREG_REGISTER_STATS(RegMutexStats);

namespace {

RegMutexPlan make_plan(const RegMutexParams& params, const DesignContext& context) {
  return *context.require<RegMutexPlan>(
      kRegMutexPlan, "regmutex.mode = " + std::string(params.mode.text()), "its acquire regions");
}

}  // namespace

RegMutexStage::RegMutexStage(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name),
      params_(&context.params),
      clock_(context.clock),
      alu_latency_(context.machine.alu_latency),
      plan_(make_plan(params_, context)),
      allocator_("srp_allocator", plan_.geometry, context.tech, context.clock),
      warps_(context.machine.limits.max_warps),
      energy_(this->name(), context.clock.ns_per_cycle()) {}

// ---------------------------------------------------------------- issue stage

bool RegMutexStage::try_acquire(uint32_t slot, uint32_t cta_slot, WarpState& w, uint64_t now) {
  if (allocator_.acquire(slot, cta_slot, now) == AcquireOutcome::NoSection) {
    if (w.first_try == ~uint64_t(0)) w.first_try = now;
    wait(w, stats_.failed_acquire_attempts, now);
    return false;
  }
  ++stats_.acquires;
  if (w.first_try == ~uint64_t(0))
    ++stats_.first_try_acquires;
  else
    stats_.acquire_wait_cycles += now - w.first_try;
  w.first_try = ~uint64_t(0);
  send_range(RfAccessKind::Launch, slot, allocator_.extended_base(slot), plan_.geometry.es,
             clock_.delay_until(now));
  return true;
}

IssueVerdict RegMutexStage::wait(WarpState& w, Counter& counter, uint64_t now) {
  if (w.last_failed != now) ++counter;  // the SM may ask again in the same cycle
  w.last_failed = now;
  return IssueVerdict::Wait;
}

IssueVerdict RegMutexStage::before_issue(uint32_t slot, uint32_t cta_slot, uint32_t /*index*/,
                                         const WarpInst& inst, uint64_t now) {
  if (!plan_.applied) return IssueVerdict::Issue;
  if (plan_.regions.per_release) return before_issue_per_release(slot, cta_slot, inst, now);
  WarpState& w = warps_[slot];
  const bool needs = plan_.regions.in_acquire_state(inst.pc);
  const bool holds = allocator_.holds(slot);
  if (params_.mode == RegMutexMode::Owf) {
    // Jatala et al. check the lock at the register access: no instruction of its own.
    if (!needs || holds) return IssueVerdict::Issue;
    return try_acquire(slot, cta_slot, w, now) ? IssueVerdict::Issue : IssueVerdict::Wait;
  }
  if (needs) {
    if (holds) return IssueVerdict::Issue;
    return try_acquire(slot, cta_slot, w, now) ? IssueVerdict::Metadata : IssueVerdict::Wait;
  }
  if (!holds) return IssueVerdict::Issue;
  // The release waits for the region's last writes to its extended registers.
  if (w.pending_extended_writes > 0) return wait(w, stats_.release_waits, now);
  release(slot, now);
  return IssueVerdict::Metadata;
}

void RegMutexStage::release(uint32_t slot, uint64_t now) {
  const uint32_t section = allocator_.extended_base(slot);
  allocator_.release(slot);
  ++stats_.releases;
  send_range(RfAccessKind::Retire, slot, section, plan_.geometry.es, clock_.delay_until(now));
}

// Per-release compaction: a warp's registers move between indices as it runs, as the
// paper's compiler renames them (§III-A4). The invariant: while the warp holds no
// section, every live value is in a base register. A release first moves each live
// value out of the extended set (one MOV per issue slot); an instruction of the release
// state writing a register whose index is extended swaps that index with a base index
// holding a dead value (the compiler's renaming to the end of the live range; no MOV).
// Reads happen at issue, so only writes in flight pin an index.
IssueVerdict RegMutexStage::before_issue_per_release(uint32_t slot, uint32_t cta_slot,
                                                     const WarpInst& inst, uint64_t now) {
  WarpState& w = warps_[slot];
  const bool needs = plan_.regions.in_acquire_state(inst.pc);
  const bool holds = allocator_.holds(slot);
  if (needs && !holds)
    return try_acquire(slot, cta_slot, w, now) ? IssueVerdict::Metadata : IssueVerdict::Wait;
  // The MOVs' results are read from their base registers only once written.
  if (w.moves_done > now) return wait(w, stats_.compaction_waits, now);
  if (needs) return IssueVerdict::Issue;
  if (holds) {
    const RegisterSet& live = live_before(inst);
    RegisterSet keep = live;
    for (unsigned k = 0; k < inst.num_dst; ++k)
      if (inst.dst[k] != kZeroRegister) keep.set(inst.dst[k]);
    const RegMutexGeometry& g = plan_.geometry;
    for (uint32_t x = g.bs; x < g.bs + g.es; ++x) {
      const uint16_t r = w.register_at[x];
      // A write in flight to an extended register, live or not, must land first.
      if (w.pending_writes.test(r)) return wait(w, stats_.release_waits, now);
      if (!live.test(r)) continue;
      const uint32_t to = free_base_index(w, keep, 0);
      if (to == kNoIndex) return wait(w, stats_.compaction_waits, now);
      move(slot, w, r, x, to, now);
      return IssueVerdict::Metadata;
    }
    release(slot, now);
    return IssueVerdict::Metadata;
  }
  if (!rename_destinations(w, inst, false)) return wait(w, stats_.compaction_waits, now);
  return IssueVerdict::Issue;
}

const RegisterSet& RegMutexStage::live_before(const WarpInst& inst) const {
  static const RegisterSet nothing;
  const RegisterSet* live = plan_.regions.live_before(inst.pc);
  if (live != nullptr) return *live;
  // The EXIT a cuobjdump importer adds after an sm_1x end-of-program bit has no PC in
  // the static code; nothing is live at an exit.
  if (inst.cls == InstClass::Exit) return nothing;
  throw std::logic_error(std::string(name()) + ": no liveness for PC " + std::to_string(inst.pc) +
                         " (not in the kernel's static code)");
}

uint32_t RegMutexStage::free_base_index(const WarpState& w, const RegisterSet& keep,
                                        uint32_t skip) const {
  for (uint32_t y = 0; y < plan_.geometry.bs; ++y) {
    const uint16_t r = w.register_at[y];
    if (keep.test(r) || w.pending_writes.test(r)) continue;
    if (skip-- == 0) return y;
  }
  return kNoIndex;
}

bool RegMutexStage::rename_destinations(WarpState& w, const WarpInst& inst, bool commit) {
  const uint32_t bs = plan_.geometry.bs;
  RegisterSet keep;
  bool any = false;
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t d = inst.dst[k];
    if (d == kZeroRegister) continue;
    keep.set(d);
    any |= w.index_of[d] >= bs;
  }
  if (!any) return true;
  keep |= live_before(inst);
  uint32_t skip = 0;
  RegisterSet renamed;
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t d = inst.dst[k];
    if (d == kZeroRegister || w.index_of[d] < bs || renamed.test(d)) continue;
    const uint32_t y = free_base_index(w, keep, commit ? 0 : skip);
    if (y == kNoIndex) return false;
    renamed.set(d);
    if (commit) {
      swap_indices(w, w.index_of[d], y);
      ++stats_.base_renames;
    } else {
      ++skip;
    }
  }
  return true;
}

void RegMutexStage::swap_indices(WarpState& w, uint32_t x, uint32_t y) {
  const uint16_t a = w.register_at[x], b = w.register_at[y];
  w.register_at[x] = static_cast<uint8_t>(b);
  w.register_at[y] = static_cast<uint8_t>(a);
  w.index_of[a] = static_cast<uint8_t>(y);
  w.index_of[b] = static_cast<uint8_t>(x);
}

void RegMutexStage::move(uint32_t slot, WarpState& w, uint16_t reg, uint32_t from, uint32_t to,
                         uint64_t now) {
  // The compiler's MOV, as the SM runs an instruction: its destination is woken (a
  // power-control stage's collector assignment), the extended register read, and the
  // base register written once the ALU's latency after the read, as the SM writes back
  // an ALU instruction dispatched when its operands are in. Seed 003's MOV is an
  // ordinary instruction and seed 002's TRIC relies on that pipeline to have the
  // destination ON by the writeback: a write right after the read would reach it still
  // waking. It has no collector unit of the SM's.
  RfAccess& a = move_txn_.access();
  const auto send = [&](RfAccessKind kind, uint32_t index, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload& payload =
        move_txn_.prepare(kind, kind == RfAccessKind::Wake ? nullptr : &move_value_);
    a.warp_slot = static_cast<uint16_t>(slot);
    a.cta_slot = w.cta_slot;
    a.arch_reg = reg;
    a.collector = kNoCollector;
    a.operand_slot = 0;
    a.active_mask = kFullMask;
    a.phys_reg = allocator_.physical(slot, index);
    forward(payload, a, delay);
    if (payload.is_response_error())
      throw std::logic_error(std::string(name()) + ": the operand path refused a compaction MOV");
  };
  sc_core::sc_time delay = clock_.delay_until(now);
  sc_core::sc_time wake_delay = delay;
  send(RfAccessKind::Wake, to, wake_delay);
  send(RfAccessKind::Read, from, delay);
  delay += clock_.cycles(alu_latency_);  // dispatched once read, written back after the ALU
  send(RfAccessKind::Write, to, delay);
  ++stats_.extended_accesses;
  ++stats_.base_accesses;
  w.moves_done = std::max(w.moves_done, clock_.cycle_at(delay));
  last_move_done_ = std::max(last_move_done_, w.moves_done);
  swap_indices(w, from, to);
  ++stats_.compaction_moves;
}

void RegMutexStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst,
                           uint64_t /*now*/) {
  if (!plan_.applied) return;
  const RegMutexRegions& r = plan_.regions;
  const uint8_t flags = r.flags(inst.pc);
  ++issued_;
  acquire_state_issued_ += (flags & RegMutexRegions::kAcquireState) != 0;
  over_base_issued_ += (flags & RegMutexRegions::kOverBase) != 0;
  if (r.per_release) {
    WarpState& w = warps_[slot];
    if (!allocator_.holds(slot) && !rename_destinations(w, inst, true))
      throw std::logic_error(std::string(name()) +
                             ": issued an instruction without base registers");
    for (unsigned k = 0; k < inst.num_dst; ++k)
      if (inst.dst[k] != kZeroRegister) w.pending_writes.set(inst.dst[k]);
    return;
  }
  for (unsigned k = 0; k < inst.num_dst; ++k)
    if (inst.dst[k] != kZeroRegister && inst.dst[k] < r.index_of.size() &&
        r.index_of[inst.dst[k]] >= plan_.geometry.bs)
      ++warps_[slot].pending_extended_writes;
}

void RegMutexStage::cta_finished(uint32_t cta_slot, uint64_t /*now*/) {
  allocator_.cta_finished(cta_slot);
}

uint64_t RegMutexStage::next_change(uint64_t now) const {
  // A warp waiting for its MOVs' writes may issue once they are done.
  if (last_move_done_ <= now) return ~uint64_t(0);
  uint64_t next = ~uint64_t(0);
  for (const WarpState& w : warps_)
    if (w.moves_done > now) next = std::min(next, w.moves_done);
  return next;
}

std::string RegMutexStage::wait_report() const {
  if (!plan_.applied) return {};
  const RegMutexAllocator& core = allocator_.core();
  std::string out = "  regmutex (" + std::string(params_.mode.text()) +
                    "): " + std::to_string(core.free_sections()) + " free sections; holders:";
  for (uint32_t w = 0; w < warps_.size(); ++w)
    if (core.holds(w)) out += " " + std::to_string(w) + "->" + std::to_string(core.section_of(w));
  out += "; waiting to acquire:";
  for (uint32_t w = 0; w < warps_.size(); ++w)
    if (warps_[w].first_try != ~uint64_t(0)) out += " " + std::to_string(w);
  return out + "\n";
}

// ---------------------------------------------------------------- operand path

void RegMutexStage::send_range(RfAccessKind kind, uint32_t slot, uint32_t first, uint32_t count,
                               sc_core::sc_time delay) {
  tlm::tlm_generic_payload& payload = range_txn_.prepare(kind, nullptr);
  RfAccess& a = range_txn_.access();
  a.warp_slot = static_cast<uint16_t>(slot);
  a.cta_slot = warps_[slot].cta_slot;
  a.arch_reg = kZeroRegister;
  a.phys_reg = first;
  a.regs_per_warp = count;
  forward(payload, a, delay);
}

bool RegMutexStage::map(tlm::tlm_generic_payload& payload, RfAccess& a) {
  const uint16_t slot = a.warp_slot;
  const RegMutexRegions& r = plan_.regions;
  const uint32_t names = r.per_release ? r.bs + r.es : static_cast<uint32_t>(r.index_of.size());
  const bool known = slot < warps_.size() && a.arch_reg < names;
  uint32_t x = 0;
  if (known) {
    WarpState& w = warps_[slot];
    x = r.per_release ? w.index_of[a.arch_reg] : r.index_of[a.arch_reg];
    if (r.per_release && a.kind == RfAccessKind::Write) w.pending_writes.reset(a.arch_reg);
  }
  const bool extended = x >= plan_.geometry.bs;
  if (!known || (extended && !allocator_.holds(slot))) {
    // No physical location: a register beyond the kernel's, or an extended register of
    // a warp that holds no section (the regions would be wrong).
    ++stats_.unmapped_accesses;
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
           known ? "an extended register of a warp that holds no SRP section"
                 : "a register beyond the kernel's or a warp slot beyond the SM's");
    return false;
  }
  if (a.kind != RfAccessKind::Wake) {
    if (extended) {
      ++stats_.extended_accesses;
      if (a.kind == RfAccessKind::Write && !r.per_release) --warps_[slot].pending_extended_writes;
    } else {
      ++stats_.base_accesses;
    }
  }
  a.phys_reg = allocator_.physical(slot, x);
  return true;
}

void RegMutexStage::transport(tlm::tlm_generic_payload& payload, RfAccess& a,
                              sc_core::sc_time& delay) {
  // Without RegMutex (|E_s| = 0) the SM's direct names and allocation stand.
  if (plan_.applied) {
    const uint16_t slot = a.warp_slot;
    switch (a.kind) {
      case RfAccessKind::Launch:
      case RfAccessKind::Retire:
        if (slot >= warps_.size()) {
          refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "warp slot beyond the SM's");
          return;
        }
        if (a.kind == RfAccessKind::Launch) {
          WarpState& w = warps_[slot];
          w = WarpState{};
          w.cta_slot = a.cta_slot;
          const std::vector<uint16_t>& first = plan_.regions.index_of;
          for (uint32_t reg = 0; reg < plan_.geometry.bs + plan_.geometry.es; ++reg) {
            w.index_of[reg] = static_cast<uint8_t>(first[reg]);
            w.register_at[first[reg]] = static_cast<uint8_t>(reg);
          }
        } else if (allocator_.holds(slot)) {
          const uint32_t section = allocator_.extended_base(slot);
          allocator_.warp_exited(slot);
          ++stats_.released_at_exit;
          send_range(RfAccessKind::Retire, slot, section, plan_.geometry.es, delay);
        }
        // The warp's own allocation is its base set, one contiguous range in every mode.
        a.phys_reg = allocator_.core().physical(slot, 0);
        a.regs_per_warp = plan_.geometry.bs;
        break;
      case RfAccessKind::Wake:
        // A collector assignment without a destination names no register.
        if (a.phys_reg != kNoPhysical && !map(payload, a)) return;
        break;
      case RfAccessKind::Read:
      case RfAccessKind::Write:
        if (!map(payload, a)) return;
        break;
      default:
        break;
    }
  }
  forward(payload, a, delay);
}

// ---------------------------------------------------------------- reports

nlohmann::json RegMutexStage::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  const RegMutexGeometry& g = plan_.geometry;
  RegMutexStats& s = stats_;
  s.mode.set(params_.mode.text());
  s.compaction.set(plan_.regions.per_release ? "per_release" : "static");
  s.applied.set(plan_.applied);
  s.decision.set(plan_.decision);
  s.base_regs.set(plan_.applied ? g.bs : plan_.occupancy.regs_per_thread);
  s.extended_regs.set(plan_.applied ? g.es : 0);
  s.sections.set(plan_.applied && params_.mode == RegMutexMode::Shared ? g.sections : 0);
  s.baseline_warps.set(plan_.baseline.warps());
  s.resident_warps.set(plan_.occupancy.warps());
  s.acquire_success_rate.set(s.acquires ? double(s.first_try_acquires) / double(s.acquires.value())
                                        : 1.0);
  const double issued = double(std::max<uint64_t>(issued_, 1));
  s.acquire_state_fraction.set(double(acquire_state_issued_) / issued);
  s.over_base_fraction.set(double(over_base_issued_) / issued);
  const RegMutexRegions& r = plan_.regions;
  s.static_regions.set({{"instructions", r.instructions},
                        {"acquire_state_instructions", r.acquire_state_instructions},
                        {"over_base_instructions", r.over_base_instructions},
                        {"acquire_points", r.acquire_points},
                        {"release_points", r.release_points},
                        {"barrier_live_registers", plan_.barrier_live}});
  nlohmann::json j = energy_.to_json();
  s.write(j);
  return j;
}

nlohmann::json RegMutexStage::describe() const {
  const RegMutexAllocator::StorageBits s = allocator_.core().storage_bits();
  const RegMutexGeometry& g = allocator_.geometry();
  // Register file virtualization's structures on the same SM, the paper's comparison
  // (§III-B1): a renaming table of N_w x 63 entries of log2(physical registers) bits and
  // one availability bit per physical register.
  uint32_t physical_bits = 0;
  while ((uint64_t{1} << physical_bits) < plan_.register_file) ++physical_bits;
  const uint64_t rfv_bits = uint64_t{g.max_warps} * 63 * physical_bits + plan_.register_file;
  // The allocator's state is its child's (regmutex.srp_allocator); the stage's
  // per-warp counts of extended writes in flight are the scoreboard's.
  return {{"storage_bits", nlohmann::json::object()},
          {"blocks", {allocator_.name()}},
          {"comparison",
           {{"srp_allocator_bits", s.total()},
            {"rfv_renaming_table_and_availability_bits", rfv_bits},
            {"rfv_over_this_design", s.total() ? double(rfv_bits) / double(s.total()) : 0.0}}},
          {"ports",
           {{"target", "operand-path transactions from the collectors"},
            {"initiator", "the same with physical names; Launch / Retire per physical range"},
            {"issue_hook", "acquire and release at the issue stage (metadata instructions)"}}},
          {"latency_cycles", {{"mapping", 0}}},
          {"parameters", params_.to_json()},
          {"plan", {{"applied", plan_.applied}, {"decision", plan_.decision}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

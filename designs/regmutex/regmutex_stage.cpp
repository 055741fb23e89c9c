#include "designs/regmutex/regmutex_stage.h"

#include <algorithm>
#include <stdexcept>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg {

RegMutexConfig RegMutexConfig::from(const Params& p) {
  RegMutexConfig c;
  const std::string& mode = p.text("regmutex.mode");
  c.mode = mode == "shared"   ? RegMutexMode::Shared
           : mode == "paired" ? RegMutexMode::Paired
           : mode == "owf"    ? RegMutexMode::Owf
                              : RegMutexMode::Off;
  c.forced_es = static_cast<uint32_t>(p.integer("regmutex.extended_regs"));
  return c;
}

namespace {

RegMutexPlan make_plan(const RegMutexConfig& config, const DesignContext& context) {
  return *context.require<RegMutexPlan>(kRegMutexPlan,
                                        "regmutex.mode = " + std::string(to_string(config.mode)),
                                        "its acquire regions");
}

}  // namespace

RegMutexStage::RegMutexStage(sc_core::sc_module_name name, const RegMutexConfig& config,
                             const DesignContext& context)
    : OperandStage(name),
      config_(config),
      plan_(make_plan(config, context)),
      allocator_(plan_.geometry),
      warps_(context.machine.limits.max_warps),
      energy_("regmutex", context.clock.ns_per_cycle()) {
  // The seeds give no energy for these few hundred bits of state: counted only.
  acquire_event_ = energy_.add_event(
      "acquires", "acquire instructions that took a section (FFZ, LUT and bitmask writes)", 0.0);
  release_event_ =
      energy_.add_event("releases", "release instructions (LUT read, bitmask writes)", 0.0);
  mapping_event_ = energy_.add_event("extended_mappings",
                                     "operand accesses mapped through the LUT into the SRP", 0.0);
}

// ---------------------------------------------------------------- issue stage

void RegMutexStage::failed_try(WarpState& w, uint64_t now) {
  if (w.first_try == ~uint64_t(0)) w.first_try = now;
  if (w.last_failed == now) return;  // the SM may ask again in the same cycle
  w.last_failed = now;
  ++counters_.failed_attempts;
}

void RegMutexStage::took_section(WarpState& w, uint64_t now) {
  ++counters_.acquires;
  if (w.first_try == ~uint64_t(0))
    ++counters_.first_try_acquires;
  else
    counters_.acquire_wait_cycles += now - w.first_try;
  w.first_try = ~uint64_t(0);
  energy_.count(acquire_event_);
}

IssueVerdict RegMutexStage::before_issue(uint32_t slot, uint32_t cta_slot, uint32_t /*index*/,
                                         const WarpInst& inst, uint64_t now) {
  if (!plan_.applied) return IssueVerdict::Issue;
  WarpState& w = warps_[slot];
  const bool needs = plan_.regions.in_acquire_state(inst.pc);
  const bool holds = allocator_.holds(slot);
  if (config_.mode == RegMutexMode::Owf) {
    // Jatala et al. check the lock at the register access: no instruction of its own.
    if (!needs || holds) return IssueVerdict::Issue;
    if (allocator_.acquire(slot, cta_slot) == AcquireOutcome::NoSection) {
      failed_try(w, now);
      return IssueVerdict::Wait;
    }
    took_section(w, now);
    return IssueVerdict::Issue;
  }
  if (needs) {
    if (holds) return IssueVerdict::Issue;
    if (allocator_.acquire(slot, cta_slot) == AcquireOutcome::NoSection) {
      failed_try(w, now);
      return IssueVerdict::Wait;
    }
    took_section(w, now);
    return IssueVerdict::Metadata;
  }
  if (!holds) return IssueVerdict::Issue;
  // The release waits for the region's last writes to its extended registers.
  if (w.pending_extended_writes > 0) {
    if (w.last_failed != now) ++counters_.release_waits;
    w.last_failed = now;
    return IssueVerdict::Wait;
  }
  allocator_.release(slot);
  ++counters_.releases;
  energy_.count(release_event_);
  return IssueVerdict::Metadata;
}

void RegMutexStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst,
                           uint64_t /*now*/) {
  if (!plan_.applied) return;
  const uint8_t flags = plan_.regions.flags(inst.pc);
  ++counters_.issued;
  counters_.acquire_state_issued += (flags & RegMutexRegions::kAcquireState) != 0;
  counters_.over_base_issued += (flags & RegMutexRegions::kOverBase) != 0;
  for (unsigned k = 0; k < inst.num_dst; ++k)
    if (inst.dst[k] != kZeroRegister && plan_.regions.index_of[inst.dst[k]] >= plan_.geometry.bs)
      ++warps_[slot].pending_extended_writes;
}

void RegMutexStage::cta_finished(uint32_t cta_slot, uint64_t /*now*/) {
  allocator_.cta_finished(cta_slot);
}

std::string RegMutexStage::wait_report() const {
  if (!plan_.applied) return {};
  std::string out = "  regmutex (" + std::string(to_string(config_.mode)) +
                    "): " + std::to_string(allocator_.free_sections()) + " free sections; holders:";
  for (uint32_t w = 0; w < warps_.size(); ++w)
    if (allocator_.holds(w))
      out += " " + std::to_string(w) + "->" + std::to_string(allocator_.section_of(w));
  out += "; waiting to acquire:";
  for (uint32_t w = 0; w < warps_.size(); ++w)
    if (warps_[w].first_try != ~uint64_t(0)) out += " " + std::to_string(w);
  return out + "\n";
}

// ---------------------------------------------------------------- operand path

void RegMutexStage::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  const uint16_t slot = a.warp_slot;
  switch (a.kind) {
    case RfAccessKind::Launch:
    case RfAccessKind::Retire:
      if (a.kind == RfAccessKind::Launch) {
        warps_[slot] = WarpState{};
      } else if (allocator_.holds(slot)) {
        allocator_.warp_exited(slot);
        ++counters_.released_at_exit;
      }
      // Stages after this one see the warp's own allocation: its base set, one
      // contiguous range in every mode (the SRP sections belong to no warp).
      if (plan_.applied) {
        a.phys_reg = allocator_.physical(slot, 0);
        a.regs_per_warp = plan_.geometry.bs;
      }
      break;
    case RfAccessKind::Read:
    case RfAccessKind::Write: {
      if (!plan_.applied) break;  // the SM's direct mapping stands
      const uint32_t x = plan_.regions.index_of[a.arch_reg];
      if (x >= plan_.geometry.bs) {
        if (!allocator_.holds(slot))
          throw std::logic_error("regmutex: warp slot " + std::to_string(slot) + " accesses R" +
                                 std::to_string(a.arch_reg) +
                                 " of its extended set without holding a section");
        ++counters_.extended_accesses;
        energy_.count(mapping_event_);
        if (a.kind == RfAccessKind::Write) --warps_[slot].pending_extended_writes;
      } else {
        ++counters_.base_accesses;
      }
      a.phys_reg = allocator_.physical(slot, x);
      break;
    }
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

// ---------------------------------------------------------------- reports

nlohmann::json RegMutexStage::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const RegMutexGeometry& g = plan_.geometry;
  j["storage_bits"] = describe()["storage_bits"]["total"];
  j["mode"] = to_string(config_.mode);
  j["applied"] = plan_.applied;
  j["decision"] = plan_.decision;
  j["base_regs"] = plan_.applied ? g.bs : plan_.occupancy.regs_per_thread;
  j["extended_regs"] = plan_.applied ? g.es : 0;
  j["sections"] = plan_.applied && config_.mode == RegMutexMode::Shared ? g.sections : 0;
  j["baseline_warps"] = plan_.baseline.warps();
  j["resident_warps"] = plan_.occupancy.warps();
  j["acquires"] = counters_.acquires;
  j["first_try_acquires"] = counters_.first_try_acquires;
  j["acquire_success_rate"] =
      counters_.acquires ? double(counters_.first_try_acquires) / double(counters_.acquires) : 1.0;
  j["failed_acquire_attempts"] = counters_.failed_attempts;
  j["acquire_wait_cycles"] = counters_.acquire_wait_cycles;
  j["releases"] = counters_.releases;
  j["release_waits"] = counters_.release_waits;
  j["released_at_exit"] = counters_.released_at_exit;
  j["base_accesses"] = counters_.base_accesses;
  j["extended_accesses"] = counters_.extended_accesses;
  const double issued = double(std::max<uint64_t>(counters_.issued, 1));
  j["acquire_state_fraction"] = double(counters_.acquire_state_issued) / issued;
  j["over_base_fraction"] = double(counters_.over_base_issued) / issued;
  const RegMutexRegions& r = plan_.regions;
  j["static"] = {{"instructions", r.instructions},
                 {"acquire_state_instructions", r.acquire_state_instructions},
                 {"over_base_instructions", r.over_base_instructions},
                 {"acquire_points", r.acquire_points},
                 {"release_points", r.release_points},
                 {"barrier_live_registers", plan_.barrier_live}};
  return j;
}

nlohmann::json RegMutexStage::describe() const {
  const RegMutexAllocator::StorageBits s = allocator_.storage_bits();
  const RegMutexGeometry& g = allocator_.geometry();
  nlohmann::json storage = {{"total", s.total()}};
  if (s.warp_status) storage["warp_status_bitmask"] = s.warp_status;
  if (s.srp_bitmask) storage["srp_bitmask"] = s.srp_bitmask;
  if (s.lut) storage["lookup_table"] = s.lut;
  if (s.pair_bitmask) storage["pair_bitmask"] = s.pair_bitmask;
  if (s.owner) storage["cta_pair_locks"] = s.owner;
  // Register file virtualization's structures on the same SM, the paper's comparison
  // (§III-B1): a renaming table of N_w x 63 entries of log2(physical registers) bits and
  // one availability bit per physical register.
  uint32_t physical_bits = 0;
  while ((uint64_t{1} << physical_bits) < plan_.register_file) ++physical_bits;
  const uint64_t rfv_bits = uint64_t{g.max_warps} * 63 * physical_bits + plan_.register_file;
  return {{"storage_bits", storage},
          {"comparison",
           {{"rfv_renaming_table_and_availability_bits", rfv_bits},
            {"rfv_over_this_design", s.total() ? double(rfv_bits) / double(s.total()) : 0.0}}},
          {"ports", {{"allocator", "one acquire or release per issue slot"}}},
          {"latency_cycles", {{"mapping", 0}, {"acquire_or_release", 1}}},
          {"parameters",
           {{"mode", to_string(config_.mode)},
            {"applied", plan_.applied},
            {"max_warps", g.max_warps},
            {"base_regs", g.bs},
            {"extended_regs", g.es},
            {"srp_sections", g.sections},
            {"srp_offset", g.srp_offset},
            {"forced_extended_regs", config_.forced_es},
            {"decision", plan_.decision}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

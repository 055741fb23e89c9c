#include "modules/regmutex/srp_allocator.h"

namespace warpreg {

WARPREG_REGISTER_STATS(SrpAllocatorStats);

SrpAllocator::SrpAllocator(sc_core::sc_module_name name, const RegMutexGeometry& geometry,
                           const power::TechTable& tech, const CycleClock& clock)
    : sc_core::sc_module(name),
      core_(geometry),
      last_failed_(geometry.max_warps, ~uint64_t(0)),
      energy_(this->name(), clock.ns_per_cycle()) {
  const std::string block = this->name();
  const double access_pj = tech.value_for(block, "srp_allocator_access");
  acquire_event_ = energy_.add_event(
      "acquires", "acquires that took a section: find first zero, LUT and bitmask writes",
      access_pj);
  failed_event_ = energy_.add_event(
      "failed_acquires",
      "searches of the SRP bitmask that found no free section (once per warp and cycle)",
      access_pj);
  release_event_ =
      energy_.add_event("releases", "releases: LUT read, SRP and status bit cleared", access_pj);
  lut_read_event_ =
      energy_.add_event("lut_reads", "register accesses mapped into the SRP through the LUT",
                        tech.value_for(block, "srp_lut_read"));
}

AcquireOutcome SrpAllocator::acquire(uint32_t warp, uint32_t cta_slot, uint64_t cycle) {
  const AcquireOutcome outcome = core_.acquire(warp, cta_slot);
  if (outcome == AcquireOutcome::Acquired) {
    energy_.count(acquire_event_);
  } else if (outcome == AcquireOutcome::NoSection && last_failed_[warp] != cycle) {
    last_failed_[warp] = cycle;
    energy_.count(failed_event_);
  }
  return outcome;
}

bool SrpAllocator::release(uint32_t warp) {
  if (!core_.release(warp)) return false;
  energy_.count(release_event_);
  return true;
}

nlohmann::json SrpAllocator::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  stats_.storage_bits.set(core_.storage_bits().total());
  nlohmann::json j = energy_.to_json();
  stats_.write(j);
  return j;
}

nlohmann::json SrpAllocator::describe() const {
  const RegMutexAllocator::StorageBits s = core_.storage_bits();
  const RegMutexGeometry& g = core_.geometry();
  nlohmann::json storage = {{"total", s.total()}};
  if (s.warp_status) storage["warp_status_bitmask"] = s.warp_status;
  if (s.srp_bitmask) storage["srp_bitmask"] = s.srp_bitmask;
  if (s.lut) storage["lookup_table"] = s.lut;
  if (s.pair_bitmask) storage["pair_bitmask"] = s.pair_bitmask;
  if (s.owner) storage["cta_pair_locks"] = s.owner;
  return {{"storage_bits", storage},
          {"ports",
           {{"issue_stage",
             "direct calls: acquire (find first zero), release, warp exit, CTA "
             "finished"},
            {"mapping_unit",
             "direct call per register access: architected index -> physical "
             "register (LUT read for the extended set)"}}},
          {"latency_cycles", {{"mapping", 0}, {"acquire_or_release", 1}}},
          {"launch_geometry",
           {{"mode", to_string(g.mode)},
            {"max_warps", g.max_warps},
            {"base_regs", g.bs},
            {"extended_regs", g.es},
            {"srp_sections", g.sections},
            {"srp_offset", g.srp_offset}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

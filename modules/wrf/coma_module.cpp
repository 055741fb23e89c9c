#include "modules/wrf/coma_module.h"

#include <algorithm>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg {

ComaConfig ComaModule::config_from(const Params& p) {
  ComaConfig c;
  c.entries = static_cast<uint32_t>(p.integer("collector.sp") + p.integer("collector.sfu") +
                                    p.integer("collector.mem"));
  return c;
}

ComaModule::ComaModule(sc_core::sc_module_name name, const Params& params,
                       const power::TechTable& tech, const CycleClock& clock)
    : OperandStage(name),
      core_(config_from(params)),
      lane_slices_(static_cast<uint32_t>(params.integer("rf.lane_slices"))),
      clock_(clock),
      bank_ports_(params.flag("coma.bank_ports") && lane_slices_ > 1),
      banks_(static_cast<uint32_t>(params.integer("rf.banks"))),
      interleaved_(params.text("rf.bank_mapping") == "interleaved"),
      energy_("coma", clock.ns_per_cycle()) {
  if (bank_ports_) {
    read_free_.assign(banks_, 0);
    write_free_.assign(banks_, 0);
  }
  const double pj = tech.value("coma_table_access");
  table_writes_ = energy_.add_event(
      "table_writes", "active-mask table writes (a warp assigned a collector unit)", pj);
  table_reads_ =
      energy_.add_event("table_reads", "active-mask table reads (one per operand read)", pj);
}

uint32_t ComaModule::bank_of(const RfAccess& a) const {
  return interleaved_ ? a.phys_reg % banks_ : (uint32_t(a.arch_reg) + a.warp_slot) % banks_;
}

uint64_t ComaModule::take_bank_port(std::vector<uint64_t>& next_free, const RfAccess& a,
                                    sc_core::sc_time& delay) {
  // Registers outside the file are the banks' to refuse.
  if (a.phys_reg == kNoPhysical) return 0;
  uint64_t& port = next_free[bank_of(a)];
  const uint64_t cycle = clock_.cycle_at(delay);
  const uint64_t grant = std::max(cycle, port);
  if (grant > cycle) delay += clock_.cycles(grant - cycle);
  port = grant + 1;
  return grant - cycle;
}

void ComaModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  switch (a.kind) {
    case RfAccessKind::Wake:
      // The first Wake of a collector assignment carries the warp's active mask.
      if (a.operand_slot == 0) {
        core_.assign(a.collector, a.active_mask);
        energy_.count(table_writes_);
      }
      break;
    case RfAccessKind::Read:
      // A register-file cache's fill is no collector's read: every lane is fetched.
      if (a.collector != kNoCollector) {
        a.read_lanes &= core_.read_mask(a.collector, a.active_mask);
        energy_.count(table_reads_);
      }
      if (bank_ports_) {
        if (const uint64_t waited = take_bank_port(read_free_, a, delay)) {
          ++conflicted_reads_;
          read_conflict_cycles_ += waited;
        }
      }
      break;
    case RfAccessKind::Write:
      // The write already switches only the slices of its (scoreboard) mask.
      core_.write_mask(a.active_mask);
      if (bank_ports_ && take_bank_port(write_free_, a, delay) > 0) ++conflicted_writes_;
      break;
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

double ComaModule::gated_share() const {
  const ComaCore::Counters& c = core_.counters();
  const uint64_t all = c.lanes_accessed + c.lanes_gated;
  return all ? double(c.lanes_gated) / double(all) : 0.0;
}

namespace {

// Shares of warp instructions with all 32, 17-31 and 0-16 active lanes, and the mean
// share of active lanes (thread utilisation; seed 002 Figure 3 and its categories).
nlohmann::json lane_breakdown(const std::array<uint64_t, kWarpSize + 1>& counts) {
  uint64_t all = 0, half = 0, partial = 0, lanes = 0;
  for (unsigned k = 0; k <= kWarpSize; ++k) {
    all += counts[k];
    lanes += k * counts[k];
    if (k <= kWarpSize / 2)
      half += counts[k];
    else if (k < kWarpSize)
      partial += counts[k];
  }
  const auto share = [all](uint64_t n) { return all ? double(n) / double(all) : 0.0; };
  return {{"lanes_32", share(counts[kWarpSize])},
          {"lanes_17_31", share(partial)},
          {"lanes_0_16", share(half)},
          {"utilisation", all ? double(lanes) / double(all * kWarpSize) : 0.0}};
}

}  // namespace

nlohmann::json ComaModule::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  j["storage_bits"] = core_.config().storage_bits();
  const ComaCore::Counters& c = core_.counters();
  j["writeback_masks"] = c.writeback_masks;
  j["lanes_accessed"] = c.lanes_accessed;
  j["lanes_gated"] = c.lanes_gated;
  j["mask_mismatches"] = c.mismatches;
  j["read_active_lanes"] = c.read_active_lanes;
  j["assigned_active_lanes"] = c.assigned_active_lanes;
  j["reads_by_lanes"] = lane_breakdown(c.read_active_lanes);
  j["instructions_by_lanes"] = lane_breakdown(c.assigned_active_lanes);
  j["gated_share"] = gated_share();
  if (bank_ports_)
    j["bank_conflicts"] = {{"reads", conflicted_reads_},
                           {"read_cycles", read_conflict_cycles_},
                           {"writes", conflicted_writes_}};
  return j;
}

nlohmann::json ComaModule::describe() const {
  const ComaConfig& c = core_.config();
  return {{"storage_bits", {{"mask_table", c.storage_bits()}}},
          {"organisation",
           {{"entries", c.entries},
            {"bits_per_entry", kWarpSize},
            {"indexed_by", "operand collector unit"},
            {"gated_segments_per_register", lane_slices_}}},
          {"ports",
           {{"write", "two-level scheduler: active mask of the warp assigned a collector unit"},
            {"read", "every operand read, by collector unit id"},
            {"writeback_mask", "scoreboard: the writeback's active mask"}}},
          {"latency_cycles", {{"table_access", 0}}},
          {"parameters", {{"rf.lane_slices", lane_slices_}, {"coma.bank_ports", bank_ports_}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

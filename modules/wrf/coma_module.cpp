#include "modules/wrf/coma_module.h"

#include "modules/common/params.h"
#include "modules/common/rf_access.h"

namespace warpreg {

ComaConfig ComaModule::config_from(const Params& p) {
  ComaConfig c;
  c.entries = static_cast<uint32_t>(p.integer("collector.sp") + p.integer("collector.sfu") +
                                    p.integer("collector.mem"));
  return c;
}

ComaModule::ComaModule(sc_core::sc_module_name name, const Params& params,
                       const power::TechTable& tech, double cycle_ns)
    : OperandStage(name),
      core_(config_from(params)),
      lane_slices_(static_cast<uint32_t>(params.integer("rf.lane_slices"))),
      energy_("coma", cycle_ns) {
  const double pj = tech.value("coma_table_access");
  table_writes_ = energy_.add_event(
      "table_writes", "active-mask table writes (a warp assigned a collector unit)", pj);
  table_reads_ =
      energy_.add_event("table_reads", "active-mask table reads (one per operand read)", pj);
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
      a.read_lanes &= core_.read_mask(a.collector, a.active_mask);
      energy_.count(table_reads_);
      break;
    case RfAccessKind::Write:
      // The write already switches only the slices of its (scoreboard) mask.
      core_.write_mask(a.active_mask);
      break;
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

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
          {"parameters", {{"rf.lane_slices", lane_slices_}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

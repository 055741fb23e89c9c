#include "modules/operand_path/crossbar.h"

#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "power/power_params.h"
#include "power/tech_scaling.h"

namespace warpreg {

Crossbar::Crossbar(sc_core::sc_module_name name, const Params& params, const power::TechTable& tech,
                   double cycle_ns)
    : OperandStage(name), wire_mm_(PowerParams(&params).wire_mm), energy_("crossbar", cycle_ns) {
  flits_ = energy_.add_event(
      "flits", "128-bit flits carried between banks and collectors (8 per warp register)",
      power::scaled(tech, "crossbar_transfer", "transfer_bytes", kFlitBytes) * wire_mm_);
}

nlohmann::json Crossbar::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  j["storage_bits"] = 0;
  return j;
}

nlohmann::json Crossbar::describe() const {
  return {{"storage_bits", nlohmann::json::object()},
          {"ports", {{"width_bits", kFlitBytes * 8}}},
          {"latency_cycles", {{"transfer", 0}}},
          {"parameters", {{"power.wire_mm", wire_mm_}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

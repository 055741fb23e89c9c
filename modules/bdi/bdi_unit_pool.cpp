#include "modules/bdi/bdi_unit_pool.h"

#include "modules/interfaces/tlm_refusal.h"

namespace warpreg {

BdiUnitPool::BdiUnitPool(sc_core::sc_module_name name, const DesignContext& context,
                         const Kind& kind, uint32_t units, uint32_t latency)
    : sc_core::sc_module(name),
      target("target"),
      clock_(context.clock),
      period_(context.clock.period()),
      pool_(units),
      latency_(latency),
      energy_scale_(BdiUnitEnergyParams(&context.params).unit_energy_scale),
      stats_(this->name()),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  const std::string block = this->name();
  operations_ = energy_.add_event(kind.operations, kind.description,
                                  context.tech.value_for(block, kind.activation) * energy_scale_);
  const double mw[power::kPowerStateCount] = {context.tech.value_for(block, kind.leakage), 0, 0, 0};
  energy_.add_residency("units", "the pool's units, always on", units, power::PowerState::On, mw);
  target.register_b_transport(this, &BdiUnitPool::b_transport);
}

void BdiUnitPool::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  BdiImage* image = nullptr;
  payload.get_extension(image);
  if (!image) {
    refuse(payload, tlm::TLM_GENERIC_ERROR_RESPONSE, *this, "no BdiImage extension");
    return;
  }
  if (!accepts(*image)) {
    refuse(payload, tlm::TLM_GENERIC_ERROR_RESPONSE, *this,
           "an image of encoding " + image->encoding.name() + ", which this unit cannot take");
    return;
  }
  // The unit rewrites the register in place (BdiTransaction): a write of 128 bytes.
  if (!accept_data(payload, tlm::TLM_WRITE_COMMAND, kWarpRegisterBytes, *this)) return;
  carry(*reinterpret_cast<WarpRegister*>(payload.get_data_ptr()), *image, delay);
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

void BdiUnitPool::carry(WarpRegister& data, BdiImage& image, sc_core::sc_time& delay) {
  const uint64_t cycle = clock_.cycle_at(delay);
  delay += period_ * double(carry_at(data, image, cycle) - cycle);
}

nlohmann::json BdiUnitPool::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  stats_.units.set(pool_.units());
  stats_.activations.set(pool_.activations());
  stats_.contended.set(pool_.contended());
  stats_.wait_cycles.set(pool_.wait_cycles());
  stats_.write(j);
  return j;
}

nlohmann::json BdiUnitPool::describe() const {
  nlohmann::json parameters = this->parameters();
  parameters["unit_energy_scale"] = energy_scale_;
  return {{"storage_bits", nlohmann::json::object()},
          {"organisation", organisation()},
          {"units", pool_.units()},
          {"ports",
           {{"target",
             "codec socket: one 128-byte warp register and its BdiImage (encoding) per "
             "transaction"},
            {"per_unit", "one warp register per cycle (pipelined)"}}},
          {"latency_cycles", {{"operation", latency_}}},
          {"parameters", parameters},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

#include "modules/memory/interconnect.h"

#include "common/errors.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectConfig& config,
                           const AddressMapConfig& map)
    : sc_core::sc_module(name),
      sm_side("sm_side"),
      l2_side("l2_side"),
      core_(config, "interconnect"),
      map_(map, "address_map"),
      clock_(config.clock_mhz),
      energy_(this->name(), clock_.ns_per_cycle()) {
  if (config.slice_ports != map_.config().slices())
    throw ConfigError("interconnect.slice_ports = " + std::to_string(config.slice_ports) +
                      " differs from the address map's " + std::to_string(map_.config().slices()) +
                      " slices (address_map.channels x address_map.sub_partitions_per_channel)");
  rules_.line_bytes = kMaxLineBytes;
  rules_.spaces =
      space_bit(MemSpace::Global) | space_bit(MemSpace::Local) | space_bit(MemSpace::Constant);
  request_flits_ = energy_.add_event("request_flits", "flits through the request network",
                                     config.energy.flit_pj);
  reply_flits_ =
      energy_.add_event("reply_flits", "flits through the reply network", config.energy.flit_pj);
  const double mw[power::kPowerStateCount] = {config.energy.leakage_mw, config.energy.leakage_mw, 0,
                                              0};
  energy_.add_residency("crossbar", "the crossbar and its buffers", 1, power::PowerState::On, mw);
  sm_side.register_b_transport(this, &Interconnect::b_transport);
}

void Interconnect::end_of_elaboration() {
  const InterconnectConfig& c = core_.config();
  if (sm_side.size() > c.sm_ports)
    SC_REPORT_ERROR(name(),
                    ("sm_side is bound " + std::to_string(sm_side.size()) +
                     " times, more than interconnect.sm_ports = " + std::to_string(c.sm_ports))
                        .c_str());
  if (l2_side.size() != c.slice_ports)
    SC_REPORT_ERROR(name(), ("l2_side is bound to " + std::to_string(l2_side.size()) +
                             " slices, interconnect.slice_ports = " + std::to_string(c.slice_ports))
                                .c_str());
}

void Interconnect::b_transport(int port, tlm::tlm_generic_payload& payload,
                               sc_core::sc_time& delay) {
  MemRequest* ext = accept_request(payload, rules_, *this);
  if (ext == nullptr) return;
  const uint32_t slice = map_.slice_of(payload.get_address());
  if (port < 0 || uint32_t(port) >= core_.config().sm_ports ||
      slice >= static_cast<uint32_t>(l2_side.size())) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
           "a port beyond interconnect.sm_ports or an address beyond the bound slices");
    return;
  }
  core_.forget_before(current_cycle(clock_));
  const uint32_t control = core_.config().control_bytes;
  const uint32_t data = payload.get_data_length();
  const bool read = ext->kind == MemKind::Load;
  const bool write = ext->kind == MemKind::Store || ext->kind == MemKind::Writeback;
  // mem_fetch::get_num_flits: data travels with writes and atomics towards the L2 and
  // with read and atomic replies towards the SM; the rest is control only.
  const Traversal there = core_.request(uint32_t(port), slice, control + (read ? 0 : data),
                                        arrival_cycle(clock_, delay));
  energy_.count(request_flits_, core_.flits(control + (read ? 0 : data)));
  delay = time_of(clock_, there.delivered) - sc_core::sc_time_stamp();
  l2_side[slice]->b_transport(payload, delay);
  if (payload.is_response_error()) return;
  const uint64_t answered = cycle_not_before(clock_, sc_core::sc_time_stamp() + delay);
  const uint32_t reply_bytes = control + (write ? 0 : data);
  const Traversal back = core_.reply(slice, uint32_t(port), reply_bytes, answered);
  energy_.count(reply_flits_, core_.flits(reply_bytes));
  ext->accepted = time_of(clock_, there.injected);
  delay = time_of(clock_, back.delivered) - sc_core::sc_time_stamp();
}

nlohmann::json Interconnect::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const double span = end_cycle > 0 ? double(end_cycle) : 1.0;
  const auto direction = [&](const InterconnectCore::Direction& d) {
    return nlohmann::json{{"packets", d.packets},
                          {"flits", d.flits},
                          {"bytes", d.bytes},
                          {"wait_cycles", d.wait_cycles},
                          {"mean_waiting_packets", double(d.wait_cycles) / span}};
  };
  j["requests"] = direction(core_.requests());
  j["replies"] = direction(core_.replies());
  return j;
}

nlohmann::json Interconnect::describe() const {
  const InterconnectConfig& c = core_.config();
  return {{"organisation",
           {{"sm_ports", c.sm_ports},
            {"slice_ports", c.slice_ports},
            {"networks", {"request", "reply"}},
            {"flit_bytes", c.flit_bytes},
            {"control_bytes", c.control_bytes}}},
          {"ports", {{"flits_per_cycle_per_port_per_direction", 1}}},
          {"latency_cycles", {{"traversal", c.latency}}},
          {"clock_mhz", c.clock_mhz},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg::memory

#include "modules/memory/dram_channel.h"

#include "common/errors.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

DramChannel::DramChannel(sc_core::sc_module_name name, uint32_t channel, const DramConfig& config,
                         const AddressMapConfig& map)
    : sc_core::sc_module(name),
      l2_side("l2_side"),
      channel_(channel),
      core_(config, "dram"),
      map_(map, "address_map"),
      clock_(config.clock_mhz),
      energy_(this->name(), clock_.ns_per_cycle()) {
  if (channel_ >= map_.config().channels)
    throw ConfigError(std::string(this->name()) + ": channel " + std::to_string(channel_) +
                      " beyond address_map.channels = " + std::to_string(map_.config().channels));
  if (map_.banks() != config.banks)
    throw ConfigError("dram.banks = " + std::to_string(config.banks) +
                      " but address_map.mapping has " + std::to_string(map_.banks()) +
                      " banks (B bits)");
  rules_.line_bytes = kMaxLineBytes;
  rules_.spaces =
      space_bit(MemSpace::Global) | space_bit(MemSpace::Local) | space_bit(MemSpace::Constant);
  const DramEnergy& e = config.energy;
  activates_ = energy_.add_event("activates", "row activations", e.activate_pj);
  precharges_ =
      energy_.add_event("precharges", "precharges closing a row for another", e.precharge_pj);
  read_atoms_ = energy_.add_event("read_atoms", "read bursts of dram atom_bytes", e.read_atom_pj);
  write_atoms_ =
      energy_.add_event("write_atoms", "write bursts of dram atom_bytes", e.write_atom_pj);
  const double mw[power::kPowerStateCount] = {e.background_mw, e.background_mw, 0, 0};
  energy_.add_residency("channel", "the channel's chips and I/O (background)", 1,
                        power::PowerState::On, mw);
  l2_side.register_b_transport(this, &DramChannel::b_transport);
}

void DramChannel::b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  MemRequest* ext = accept_request(payload, rules_, *this);
  if (ext == nullptr) return;
  const DecodedAddress where = map_.decode(payload.get_address());
  if (where.channel != channel_) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "an address of another channel");
    return;
  }
  core_.forget_before(current_cycle(clock_));
  const bool write = payload.get_command() == tlm::TLM_WRITE_COMMAND;
  const uint32_t bytes = payload.get_data_length();
  const DramAccess a =
      core_.access(where.bank, where.row, bytes, write, arrival_cycle(clock_, delay));
  if (!a.row_hit) energy_.count(activates_);
  if (a.precharged) energy_.count(precharges_);
  const DramConfig& c = core_.config();
  energy_.count(write ? write_atoms_ : read_atoms_, (bytes + c.atom_bytes() - 1) / c.atom_bytes());
  ext->served_by = MemLevel::Dram;
  ext->accepted = time_of(clock_, a.accepted);
  delay = time_of(clock_, a.done) - sc_core::sc_time_stamp();
}

nlohmann::json DramChannel::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const DramCore::Counters& c = core_.counters();
  const double span = end_cycle > 0 ? double(end_cycle) : 1.0;
  j["channel"] = channel_;
  j["reads"] = c.reads;
  j["writes"] = c.writes;
  j["bytes_read"] = c.bytes_read;
  j["bytes_written"] = c.bytes_written;
  j["row_hits"] = c.row_hits;
  j["activates"] = c.activates;
  j["precharges"] = c.precharges;
  j["bus_busy_cycles"] = c.bus_busy_cycles;
  j["bus_utilisation"] = double(c.bus_busy_cycles) / span;
  j["queue_stalls"] = {{"requests", c.queue_stalls}, {"cycles", c.queue_stall_cycles}};
  j["queue_occupancy_cycles"] = c.queue_busy_cycles;
  j["queue_occupancy_mean"] = double(c.queue_busy_cycles) / span;
  return j;
}

nlohmann::json DramChannel::describe() const {
  const DramConfig& c = core_.config();
  const DramTiming& t = c.timing;
  return {{"channel", channel_},
          {"organisation",
           {{"banks", c.banks},
            {"bus_bytes", c.bus_width_bytes * c.chips_per_channel},
            {"burst_length", c.burst_length},
            {"atom_bytes", c.atom_bytes()},
            {"queue_entries", c.queue_entries},
            {"peak_bytes_per_cycle", c.peak_bytes_per_cycle()}}},
          {"latency_cycles",
           {{"controller", c.controller_latency},
            {"tCCD", t.tCCD},
            {"tRRD", t.tRRD},
            {"tRCD", t.tRCD},
            {"tRAS", t.tRAS},
            {"tRP", t.tRP},
            {"tRC", t.tRC},
            {"tCL", t.tCL},
            {"tWL", t.tWL},
            {"tWR", t.tWR}}},
          {"clock_mhz", c.clock_mhz},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg::memory

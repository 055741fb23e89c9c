#include "modules/memory/memory_system.h"

#include "common/errors.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

const MemorySystemConfig& MemorySystemConfig::gtx480() {
  static const MemorySystemConfig config;
  return config;
}

void MemorySystemConfig::validate() const {
  address_map.validate("address_map");
  interconnect.validate("interconnect");
  l2.validate("l2");
  dram.validate("dram");
  if (interconnect.slice_ports != address_map.slices())
    throw ConfigError(
        "interconnect.slice_ports = " + std::to_string(interconnect.slice_ports) +
        " differs from address_map.channels x address_map.sub_partitions_per_channel = " +
        std::to_string(address_map.slices()));
}

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& config)
    : sc_core::sc_module(name),
      interconnect((config.validate(), "interconnect"), config.interconnect, config.address_map),
      sm_side(interconnect.sm_side) {
  const AddressMapConfig& map = config.address_map;
  for (uint32_t c = 0; c < map.channels; ++c)
    channels_.push_back(
        std::make_unique<DramChannel>(("dram" + std::to_string(c)).c_str(), c, config.dram, map));
  for (uint32_t s = 0; s < map.slices(); ++s) {
    slices_.push_back(
        std::make_unique<L2Slice>(("l2_" + std::to_string(s)).c_str(), s, config.l2, map));
    interconnect.l2_side.bind(slices_.back()->icnt_side);
    slices_.back()->dram_side.bind(channels_[s / map.sub_partitions_per_channel]->l2_side);
  }
}

std::vector<ReportingBlock*> MemorySystem::blocks() {
  std::vector<ReportingBlock*> out{&interconnect};
  for (auto& s : slices_) out.push_back(s.get());
  for (auto& c : channels_) out.push_back(c.get());
  return out;
}

nlohmann::json MemorySystem::stats_at(const sc_core::sc_time& end) {
  nlohmann::json j = nlohmann::json::object();
  j[interconnect.name()] = interconnect.stats(cycle_not_before(interconnect.clock(), end));
  for (auto& s : slices_) j[s->name()] = s->stats(cycle_not_before(s->clock(), end));
  for (auto& c : channels_) j[c->name()] = c->stats(cycle_not_before(c->clock(), end));
  return j;
}

nlohmann::json MemorySystem::describe() const {
  nlohmann::json j = nlohmann::json::object();
  j[interconnect.name()] = interconnect.describe();
  for (const auto& s : slices_) j[s->name()] = s->describe();
  for (const auto& c : channels_) j[c->name()] = c->describe();
  return j;
}

}  // namespace warpreg::memory

#include "modules/rfv/release_flag_cache_module.h"

#include <cmath>
#include <stdexcept>

#include "common/errors.h"

namespace warpreg {

WARPREG_REGISTER_STATS(ReleaseFlagCacheStats);

namespace {

ReleaseFlagCacheConfig checked_config(const ReleaseFlagCacheParams& params) {
  ReleaseFlagCacheConfig config = params.core_config();
  try {
    config.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("rfv: ") + e.what());
  }
  return config;
}

}  // namespace

ReleaseFlagCacheModule::ReleaseFlagCacheModule(sc_core::sc_module_name name,
                                               const DesignContext& context)
    : sc_core::sc_module(name),
      params_(&context.params),
      core_(checked_config(params_)),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  // The table's coefficients are for the array its attributes name; this cache's own
  // size follows rules S3 (access: bytes moved x sqrt(capacity)) and S4 (leakage:
  // capacity) of docs/power.md. No entries: no array, nothing to charge.
  const power::TechTable& tech = context.tech;
  const std::string block = this->name();
  const double access = tech.value_for(block, "release_flag_cache_access");
  const double leakage = tech.value_for(block, "release_flag_cache_leakage");
  const uint32_t entries = params_.flag_cache_entries;
  const double array_bytes = double(storage_bits()) / 8;
  const double entry_bytes = entries ? array_bytes / entries : 0.0;
  const double access_pj =
      entries
          ? access * entry_bytes / tech.attribute("release_flag_cache_access", "access_bytes") *
                std::sqrt(array_bytes / tech.attribute("release_flag_cache_access", "array_bytes"))
          : 0.0;
  const double leakage_mw =
      leakage * array_bytes / tech.attribute("release_flag_cache_leakage", "array_bytes");
  probes_ = energy_.add_event("probes", "entry reads: one per probe at the fetch stage", access_pj);
  fills_ = energy_.add_event("fills", "entry writes: a decoded pir's flags stored", access_pj);
  const double mw[power::kPowerStateCount] = {leakage_mw, leakage_mw, 0.0, 0.0};
  energy_.add_residency("array", "the flag and tag array", 1, power::PowerState::On, mw);
}

double ReleaseFlagCacheModule::energy_pj(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  return energy_.dynamic_pj() + energy_.leakage_pj();
}

nlohmann::json ReleaseFlagCacheModule::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const ReleaseFlagCache::Counters& c = core_.counters();
  stats_.probes.set(c.probes);
  stats_.hits.set(c.hits);
  stats_.misses.set(c.misses);
  stats_.fills.set(c.fills);
  stats_.evictions.set(c.evictions);
  stats_.storage_bits.set(storage_bits());
  stats_.write(j);
  return j;
}

nlohmann::json ReleaseFlagCacheModule::describe() const {
  const ReleaseFlagCacheConfig& c = core_.config();
  return {{"storage_bits",
           {{"flags", core_.flag_storage_bits()},
            {"tags_and_valid", core_.tag_storage_bits()},
            {"total", storage_bits()}}},
          {"ports",
           {{"interface", "direct calls from the rfv stage's issue hook: probe, fill"},
            {"probes_per_cycle", 1}}},
          {"latency_cycles", {{"probe", 0}}},
          {"parameters",
           {{"entries", c.entries},
            {"flag_bits_per_entry", ReleaseFlagCacheConfig::kFlagBits},
            {"inst_bytes", c.inst_bytes},
            {"pc_bits", c.pc_bits},
            {"organisation", "direct mapped by pir PC"}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

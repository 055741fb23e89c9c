#include "modules/ltrf/register_file_cache_module.h"

#include "power/tech_scaling.h"

namespace warpreg {

WARPREG_REGISTER_STATS(RegisterFileCacheStats);

namespace {

// A coefficient of the table, given for `attribute` bytes, scaled linearly to `bytes`.
double scaled_for(const power::TechTable& tech, const std::string& block, const std::string& key,
                  const std::string& attribute, double bytes) {
  return tech.value_for(block, key) * bytes / tech.attribute(key, attribute);
}

}  // namespace

RegisterFileCacheModule::RegisterFileCacheModule(sc_core::sc_module_name name,
                                                 const RegisterFileCacheConfig& config,
                                                 const power::TechTable& tech,
                                                 const CycleClock& clock)
    : sc_core::sc_module(name), core_(config), energy_(this->name(), clock.ns_per_cycle()) {
  const std::string block = this->name();
  // A cache bank of entries_per_bank registers: rule S3 (docs/power.md) from the table's
  // rfc_bank_read/write to a 128 B access of this bank, and its leakage per byte (S4).
  const double bank_bytes = double(config.entries_per_bank) * kWarpRegisterBytes;
  tech.value_for(block, "rfc_bank_read");
  tech.value_for(block, "rfc_bank_write");
  reads_ = energy_.add_event(
      "reads", "cache bank reads (128 B of one bank, rule S3 from rfc_bank_read)",
      power::sram_access_pj(tech, "rfc_bank_read", kWarpRegisterBytes, bank_bytes));
  writes_ = energy_.add_event(
      "writes", "cache bank writes (128 B of one bank, rule S3 from rfc_bank_write)",
      power::sram_access_pj(tech, "rfc_bank_write", kWarpRegisterBytes, bank_bytes));
  const double bank_mw = scaled_for(tech, block, "rfc_bank_leakage", "bank_bytes", bank_bytes);
  const double mw[power::kPowerStateCount] = {bank_mw, bank_mw, 0.0, 0.0};
  energy_.add_residency("banks", "register-file-cache banks (always on)", config.banks,
                        power::PowerState::On, mw);
}

nlohmann::json RegisterFileCacheModule::stats(uint64_t end_cycle) {
  const RegisterFileCacheCore::Counters& c = core_.counters();
  if (!counted_) {
    counted_ = true;
    energy_.count(reads_, c.reads);
    energy_.count(writes_, c.writes);
    energy_.finish(end_cycle);
  }
  stats_.reads.set(c.reads);
  stats_.writes.set(c.writes);
  stats_.crossbar_transfers.set(c.transfers);
  stats_.storage_bits.set(core_.storage_bits());
  nlohmann::json j = energy_.to_json();
  stats_.write(j);
  return j;
}

nlohmann::json RegisterFileCacheModule::describe() const {
  const RegisterFileCacheConfig& k = core_.config();
  return {{"storage_bits", {{"banks", core_.storage_bits()}, {"total", core_.storage_bits()}}},
          {"organisation",
           {{"banks", k.banks},
            {"entries_per_bank", k.entries_per_bank},
            {"entry_bytes", kWarpRegisterBytes},
            {"bytes", core_.storage_bits() / 8}}},
          {"ports",
           {{"interface", "RegisterFileCacheCore, bound at elaboration (the ltrf controller)"},
            {"per_bank", {{"read", 1}, {"write", 1}, {"crossbar_link", 1}}}}},
          {"latency_cycles", {{"bank", k.latency}, {"crossbar_transfer", k.fill_cycles}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

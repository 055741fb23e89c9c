#pragma once
// The RFV release flag cache (seed 000 §7.2) as a block: a direct-mapped cache of the
// 54 flag bits of pir metadata instructions, indexed by the pir's PC, probed by the
// fetch stage. The core is ReleaseFlagCache (plain C++); this module adds its
// counters and energy.
//
// Interface (no socket): the RFV stage's issue hook calls it directly, bound at
// elaboration (the module is the stage's child):
//   probe(pir_pc)        -> hit?  (one entry read)
//   fill(pir_pc, flags)  -> the decoded pir's flags stored (one entry written)
#include <systemc>

#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/waveform.h"
#include "modules/rfv/release_flag_cache.h"
#include "power/energy.h"

namespace warpreg {

/// The release flag cache's parameters (rfv.*).
struct ReleaseFlagCacheParams : ParamSet {
  explicit ReleaseFlagCacheParams(const Params* values = nullptr) : ParamSet("rfv", values) {}
  Param<uint32_t> flag_cache_entries{
      this,
      "flag_cache_entries",
      10,
      {0, 4096},
      "entries",
      "Release flag cache entries (direct mapped, 54 flag bits each); 0: no cache, every pir is "
      "fetched and decoded.",
      "seed 000 §7.2: 'a release flag cache of 10 entries is sufficient'"};

  ReleaseFlagCacheConfig core_config() const {
    ReleaseFlagCacheConfig c;
    c.entries = flag_cache_entries;
    return c;
  }
};

struct ReleaseFlagCacheStats : StatSet {
  ReleaseFlagCacheStats() : StatSet("rfv.release_flag_cache") {}
  Counter probes{this, "probes", "probes", "Fetch-stage probes (first instruction a pir covers)."};
  Counter hits{this, "hits", "probes", "Probes that found the pir's flags: no pir fetched."};
  Counter misses{this, "misses", "probes", "Probes that did not: the pir is fetched and decoded."};
  Counter fills{this, "fills", "entries", "Decoded pirs stored."};
  Counter evictions{this, "evictions", "entries", "Fills that replaced another pir's flags."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "Flag bits plus tag and valid bits of every entry."};
};

class ReleaseFlagCacheModule : public sc_core::sc_module,
                               public ReportingBlock,
                               public TracedBlock {
 public:
  /// Throws ConfigError naming the option on a configuration the core refuses, and
  /// TechError naming the block when the technology lacks its coefficients.
  ReleaseFlagCacheModule(sc_core::sc_module_name name, const DesignContext& context);

  /// Fetch-stage probe for the pir at `pir_pc`: true on a hit.
  bool probe(uint64_t pir_pc) {
    energy_.count(probes_);
    return core_.probe(pir_pc);
  }
  /// Stores a decoded pir's flag bits, replacing whatever its entry held.
  void fill(uint64_t pir_pc, uint64_t flags) {
    if (params_.flag_cache_entries == 0u) return;
    energy_.count(fills_);
    core_.fill(pir_pc, flags);
  }
  uint64_t flags(uint64_t pir_pc) const { return core_.flags(pir_pc); }
  const ReleaseFlagCache& core() const { return core_; }
  uint64_t storage_bits() const { return core_.flag_storage_bits() + core_.tag_storage_bits(); }
  /// Dynamic and leakage energy up to `end_cycle` (closes the leakage integration).
  double energy_pj(uint64_t end_cycle);

  // ReportingBlock
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }
  /// Waveform: probes and hits in the cycle.
  void add_signals(Waveform& wave) override {
    const std::string prefix = name() + std::string(".");
    wave.add_count(prefix + "probes", 8, [this] { return core_.counters().probes; });
    wave.add_count(prefix + "hits", 8, [this] { return core_.counters().hits; });
  }

 private:
  ReleaseFlagCacheParams params_;
  ReleaseFlagCache core_;
  ReleaseFlagCacheStats stats_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId probes_, fills_;
};

}  // namespace warpreg

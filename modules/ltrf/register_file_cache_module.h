#pragma once
// LTRF's register-file cache as a block (child "register_file_cache" of the ltrf stage):
// its banks with their contents, ports and narrow-crossbar links (RegisterFileCacheCore),
// its energy and leakage. The controller reaches it through core(), bound at
// elaboration: a cached operand read is a bank access, not a hop. docs/blocks/ltrf.md.
#include <systemc>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/waveform.h"
#include "modules/ltrf/register_file_cache_core.h"
#include "power/energy.h"

namespace warpreg {

/// The cache's organisation and timing (ltrf.*): banks = registers per interval, entries
/// per bank = active warps.
struct RegisterFileCacheParams : ParamSet {
  explicit RegisterFileCacheParams(const Params* values = nullptr) : ParamSet("ltrf", values) {}
  Param<uint32_t> regs_per_interval{
      this,
      "regs_per_interval",
      16,
      {1, 64},
      "registers",
      "Registers a warp may cache = register-file-cache banks (N of Algorithms 1 and 2).",
      "seed 004 Table 3 'Number of registers in a register-interval 16'; §4.1"};
  Param<uint32_t> active_warps{
      this,
      "active_warps",
      8,
      {1, 64},
      "warps",
      "Active warps: warp-offset slots = entries per cache bank.",
      "seed 004 Table 3 'Number of active warps 8 per SM'; §6.4 Figure 13"};
  Param<uint32_t> cache_latency{this,
                                "cache_latency",
                                1,
                                {1, 16},
                                "cycles",
                                "Register-file-cache bank access latency.",
                                "assumption: a 1 KB bank of the Table 2 #1 technology, as fast as "
                                "a baseline bank (rf.read_latency = 1)"};
  Param<uint32_t> fill_cycles{
      this,
      "fill_cycles",
      4,
      {1, 64},
      "cycles",
      "Cycles one register occupies the narrow main-RF-to-cache crossbar link of its cache bank.",
      "seed 004 §4.2 'Interconnect': 4x narrower crossbar, 'from 1 cycle to 4 cycles'"};
};

struct RegisterFileCacheStats : StatSet {
  RegisterFileCacheStats() : StatSet("ltrf.register_file_cache") {}
  Counter reads{this, "reads", "accesses", "Operand reads served by a cache bank."};
  Counter writes{this, "writes", "accesses", "Results written into a cache bank."};
  Counter crossbar_transfers{this, "crossbar_transfers", "registers",
                             "Registers moved over the narrow crossbar between the main register "
                             "file and the cache (fills, LTRF write-backs); not priced."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits", "The cache banks."};
};

class RegisterFileCacheModule : public sc_core::sc_module,
                                public ReportingBlock,
                                public TracedBlock {
 public:
  /// Throws std::invalid_argument naming the field of a bad configuration, TechError
  /// naming this block when the technology table lacks a coefficient.
  RegisterFileCacheModule(sc_core::sc_module_name name, const RegisterFileCacheConfig& config,
                          const power::TechTable& tech, const CycleClock& clock);

  /// The cache itself, for the LTRF controller (bound at elaboration).
  RegisterFileCacheCore& core() { return core_; }
  const RegisterFileCacheCore& core() const { return core_; }

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }
  /// Waveform: the cache entries holding a register (any lane valid).
  void add_signals(Waveform& wave) override {
    wave.add(name() + std::string(".occupied_entries"), 16, [this](uint64_t) {
      uint32_t n = 0;
      for (uint32_t i = 0; i < core_.config().entries(); ++i)
        n += core_.entry(i).valid_lanes != 0 ? 1 : 0;
      return n;
    });
  }

 private:
  RegisterFileCacheCore core_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId reads_ = 0, writes_ = 0;
  RegisterFileCacheStats stats_;
  bool counted_ = false;
};

}  // namespace warpreg

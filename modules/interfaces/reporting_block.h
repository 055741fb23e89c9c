#pragma once
// What every block reports: its statistics (stats.json's blocks.NAME) and its
// hardware reference view (warpreg describe).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/stat_set.h"
#include "power/energy.h"

namespace warpreg {

class ReportingBlock {
 public:
  virtual ~ReportingBlock() = default;
  /// The key in stats.json's blocks and describe's blocks: the block's hierarchical
  /// SystemC name ("regfile", "rfv.renaming_table").
  virtual std::string block_name() const = 0;
  /// The statistics the block declares (common/stat_set.h): every key of stats() that
  /// is not an energy field (events, dynamic_pj, leakage_pj, residency) must be one of
  /// them (a test checks). nullptr only for a block that reports energy alone.
  virtual const StatSet* statistics() const { return nullptr; }
  /// {"events": {...}, "dynamic_pj", "leakage_pj", "storage_bits", ...} at the end of a
  /// run; `end_cycle` closes residency integration.
  virtual nlohmann::json stats(uint64_t end_cycle) = 0;
  /// {"storage_bits": {STRUCTURE: bits}, "ports": {...}, "latency_cycles": {...},
  ///  "parameters": {...}, "energy": {...}}
  virtual nlohmann::json describe() const = 0;
  /// The block's energy account while it runs (time series read its dynamic energy);
  /// nullptr for a block without one.
  virtual const power::EnergyAccount* energy_account() const { return nullptr; }
};

}  // namespace warpreg

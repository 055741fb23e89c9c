#pragma once
// What every block reports: its statistics (stats.json's blocks.NAME) and its
// hardware reference view (warpreg describe).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace warpreg {

class ReportingBlock {
 public:
  virtual ~ReportingBlock() = default;
  virtual std::string block_name() const = 0;
  /// {"events": {...}, "dynamic_pj", "leakage_pj", "storage_bits", ...} at the end of a
  /// run; `end_cycle` closes residency integration.
  virtual nlohmann::json stats(uint64_t end_cycle) = 0;
  /// {"storage_bits": {STRUCTURE: bits}, "ports": {...}, "latency_cycles": {...},
  ///  "parameters": {...}, "energy": {...}}
  virtual nlohmann::json describe() const = 0;
};

}  // namespace warpreg

#include "modules/wrf/coma_core.h"

#include <stdexcept>
#include <string>

#include "common/bits.h"

namespace warpreg {

void ComaConfig::validate() const {
  if (entries == 0) throw std::invalid_argument("ComaConfig.entries must be positive");
}

ComaCore::ComaCore(const ComaConfig& config) : config_(config) {
  config_.validate();
  table_.assign(config_.entries, kFullMask);
}

void ComaCore::out_of_range(uint32_t collector) const {
  throw std::out_of_range("COMA: collector unit " + std::to_string(collector) + " beyond the " +
                          std::to_string(table_.size()) + " entries of the mask table");
}

void ComaCore::assign(uint32_t collector, LaneMask mask) {
  if (collector >= table_.size()) out_of_range(collector);
  table_[collector] = mask;
  ++counters_.table_writes;
  ++counters_.assigned_active_lanes[static_cast<unsigned>(popcount32(mask))];
}

void ComaCore::account(LaneMask mask) {
  const auto active = static_cast<uint64_t>(popcount32(mask));
  counters_.lanes_accessed += active;
  counters_.lanes_gated += kWarpSize - active;
}

LaneMask ComaCore::read_mask(uint32_t collector, LaneMask expected) {
  if (collector >= table_.size()) out_of_range(collector);
  const LaneMask mask = table_[collector];
  ++counters_.table_reads;
  if (mask != expected) ++counters_.mismatches;
  ++counters_.read_active_lanes[static_cast<unsigned>(popcount32(mask))];
  account(mask);
  return mask;
}

LaneMask ComaCore::read_ungated(LaneMask expected, LaneMask lanes, bool mismatch) {
  ++counters_.table_reads;
  ++counters_.ungated_reads;
  if (mismatch) ++counters_.mismatches;
  ++counters_.read_active_lanes[static_cast<unsigned>(popcount32(expected))];
  account(lanes);
  return lanes;
}

LaneMask ComaCore::write_mask(LaneMask scoreboard_mask) {
  ++counters_.writeback_masks;
  account(scoreboard_mask);
  return scoreboard_mask;
}

}  // namespace warpreg

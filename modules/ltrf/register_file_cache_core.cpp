#include "modules/ltrf/register_file_cache_core.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

void RegisterFileCacheConfig::validate() const {
  if (banks == 0 || banks > 256) throw std::invalid_argument("banks must be 1..256");
  if (entries_per_bank == 0 || entries_per_bank > 255)
    throw std::invalid_argument("entries_per_bank must be 1..255");
  if (fill_cycles == 0) throw std::invalid_argument("fill_cycles must be at least 1");
}

RegisterFileCacheCore::RegisterFileCacheCore(const RegisterFileCacheConfig& config)
    : config_(config),
      entries_(config.entries()),
      read_free_(config.banks, 0),
      write_free_(config.banks, 0),
      link_free_(config.banks, 0) {
  config_.validate();
}

uint64_t RegisterFileCacheCore::read(uint32_t bank, uint64_t cycle) {
  const uint64_t grant = std::max(cycle, read_free_[bank]);
  read_free_[bank] = grant + 1;
  ++counters_.reads;
  return grant + config_.latency;
}

uint64_t RegisterFileCacheCore::write(uint32_t bank, uint64_t cycle) {
  const uint64_t grant = std::max(cycle, write_free_[bank]);
  write_free_[bank] = grant + 1;
  ++counters_.writes;
  return grant + config_.latency;
}

uint64_t RegisterFileCacheCore::transfer(uint32_t bank, uint64_t cycle) {
  const uint64_t start = std::max(cycle, link_free_[bank]);
  link_free_[bank] = start + config_.fill_cycles;
  ++counters_.transfers;
  return start + config_.fill_cycles;
}

}  // namespace warpreg

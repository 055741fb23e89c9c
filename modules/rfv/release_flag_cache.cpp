#include "modules/rfv/release_flag_cache.h"

#include <stdexcept>
#include <string>

namespace warpreg {

void ReleaseFlagCacheConfig::validate() const {
  if (inst_bytes == 0 || (inst_bytes & (inst_bytes - 1)) != 0)
    throw std::invalid_argument("release flag cache: inst_bytes = " + std::to_string(inst_bytes) +
                                " must be a power of two");
  if (pc_bits == 0 || pc_bits > 64)
    throw std::invalid_argument("release flag cache: pc_bits = " + std::to_string(pc_bits) +
                                " must be 1..64");
}

ReleaseFlagCache::ReleaseFlagCache(const ReleaseFlagCacheConfig& config)
    : config_(config), lines_(config.entries) {
  config_.validate();
}

bool ReleaseFlagCache::probe(uint64_t pir_pc) {
  ++counters_.probes;
  if (config_.entries != 0) {
    const Line& line = lines_[index_of(pir_pc)];
    if (line.valid && line.tag == tag_of(pir_pc)) {
      ++counters_.hits;
      return true;
    }
  }
  ++counters_.misses;
  return false;
}

void ReleaseFlagCache::fill(uint64_t pir_pc, uint64_t flags) {
  if (config_.entries == 0) return;
  Line& line = lines_[index_of(pir_pc)];
  if (line.valid && line.tag != tag_of(pir_pc)) ++counters_.evictions;
  line.valid = true;
  line.tag = tag_of(pir_pc);
  line.flags = flags & ((uint64_t{1} << ReleaseFlagCacheConfig::kFlagBits) - 1);
  ++counters_.fills;
}

uint64_t ReleaseFlagCache::tag_storage_bits() const {
  if (config_.entries == 0) return 0;
  uint32_t offset_bits = 0, index_bits = 0;
  while ((1u << offset_bits) < config_.inst_bytes) ++offset_bits;
  while ((uint64_t{1} << index_bits) < config_.entries) ++index_bits;
  const uint32_t used = offset_bits + index_bits;
  const uint32_t tag_bits = config_.pc_bits > used ? config_.pc_bits - used : 0;
  return uint64_t{config_.entries} * (tag_bits + 1);  // + valid bit
}

}  // namespace warpreg

#pragma once
// RFV release flag cache (seed 000 §7.2): a direct-mapped cache, shared by every warp
// of the SM, of the 54 flag bits of `pir` metadata instructions, indexed by the pir's
// PC. The fetch stage probes it; a hit skips fetching and decoding the pir, a miss
// fetches and decodes it and fills the entry. Plain C++, no SystemC.
#include <cstdint>
#include <vector>

namespace warpreg {

struct ReleaseFlagCacheConfig {
  uint32_t entries = 10;    ///< 0: no cache, every pir is fetched (the paper's "Dynamic0")
  uint32_t inst_bytes = 8;  ///< instruction size: the PC's low bits that never vary
  uint32_t pc_bits = 32;    ///< PC width, for the tag storage figure
  static constexpr uint32_t kFlagBits = 54;  ///< 18 instructions x 3 source flags
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

class ReleaseFlagCache {
 public:
  explicit ReleaseFlagCache(const ReleaseFlagCacheConfig& config);

  const ReleaseFlagCacheConfig& config() const { return config_; }

  /// Fetch-stage probe for the pir at `pir_pc`: true on a hit.
  bool probe(uint64_t pir_pc);
  /// Stores a decoded pir's 54 flag bits, replacing whatever its index held.
  void fill(uint64_t pir_pc, uint64_t flags);
  /// The 54 flag bits cached for `pir_pc`; only valid after a hit or a fill.
  uint64_t flags(uint64_t pir_pc) const { return lines_[index_of(pir_pc)].flags; }

  /// Flag storage (the paper's 68 B for 10 entries) and tag + valid storage.
  uint64_t flag_storage_bits() const { return uint64_t{config_.entries} * config_.kFlagBits; }
  uint64_t tag_storage_bits() const;

  struct Counters {
    uint64_t probes = 0, hits = 0, misses = 0, fills = 0, evictions = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Line {
    bool valid = false;
    uint64_t tag = 0;
    uint64_t flags = 0;
  };
  uint32_t index_of(uint64_t pc) const {
    return static_cast<uint32_t>((pc / config_.inst_bytes) % config_.entries);
  }
  uint64_t tag_of(uint64_t pc) const { return pc / config_.inst_bytes / config_.entries; }

  ReleaseFlagCacheConfig config_;
  std::vector<Line> lines_;
  Counters counters_;
};

}  // namespace warpreg

#pragma once
// The memory system shared by the SMs: the interconnect, the L2 slices and the DRAM
// channels, wired as GPGPU-Sim's GTX480 (slice s in channel s / sub_partitions). A GPU
// platform builds one, binds each SM's L1Cache::mem_side to sm_side (binding order =
// SM port), and reads stats_at() at the end of the run.
#include <memory>
#include <systemc>
#include <vector>

#include "modules/memory/dram_channel.h"
#include "modules/memory/interconnect.h"
#include "modules/memory/l2_slice.h"

namespace warpreg::memory {

struct MemorySystemConfig {
  AddressMapConfig address_map;
  InterconnectConfig interconnect;
  CacheConfig l2 = CacheConfig::gtx480_l2_slice();
  DramConfig dram;
  /// Throws ConfigError naming the field ("address_map.channels", "l2.sets", ...).
  void validate() const;
  /// The defaults (GTX480), for default arguments.
  static const MemorySystemConfig& gtx480();
};

class MemorySystem : public sc_core::sc_module {
 public:
  Interconnect interconnect;
  tlm_utils::multi_passthrough_target_socket<Interconnect>& sm_side;

  explicit MemorySystem(sc_core::sc_module_name name,
                        const MemorySystemConfig& config = MemorySystemConfig::gtx480());

  L2Slice& slice(uint32_t s) { return *slices_.at(s); }
  DramChannel& channel(uint32_t c) { return *channels_.at(c); }
  uint32_t slices() const { return static_cast<uint32_t>(slices_.size()); }
  uint32_t channels() const { return static_cast<uint32_t>(channels_.size()); }
  /// Every block of the memory system (interconnect, slices, channels).
  std::vector<ReportingBlock*> blocks();
  /// {BLOCK NAME: stats} with each block's statistics up to `end`, each in its own clock.
  nlohmann::json stats_at(const sc_core::sc_time& end);
  /// {BLOCK NAME: description}
  nlohmann::json describe() const;

 private:
  std::vector<std::unique_ptr<L2Slice>> slices_;
  std::vector<std::unique_ptr<DramChannel>> channels_;
};

}  // namespace warpreg::memory

#pragma once
// What LTRF's compiler pass hands the design, per kernel (metadata kind "ltrf.program"):
// per static instruction (by PC) its register-interval (or strand) and the sources whose
// value dies with it (the dead operand bits of §3.2, from static liveness), and each
// interval's working set (its PREFETCH bit-vector).
#include <cstdint>
#include <utility>
#include <vector>

#include "common/pc_index.h"
#include "common/register_set.h"
#include "modules/ltrf/ltrf_core.h"

namespace warpreg {

struct Kernel;

/// Metadata kind of LtrfProgram.
inline const char* const kLtrfProgram = "ltrf.program";

class LtrfProgram {
 public:
  LtrfProgram() = default;
  /// Built by the compiler pass (designs/ltrf/compiler/ltrf_pass.cpp). Throws
  /// std::invalid_argument when an instruction alone needs more than N registers.
  /// `strands`: prefetch units are strands (§6.6) instead of register-intervals: pieces of
  /// basic blocks that also end after every load, each re-prefetched whenever a warp
  /// reaches its first instruction.
  LtrfProgram(const Kernel& kernel, uint32_t regs_per_interval, bool strands = false);
  /// Explicit intervals (test benches): instruction PCs with their interval ids.
  LtrfProgram(std::vector<RegisterSet> interval_sets,
              const std::vector<std::pair<uint64_t, uint32_t>>& pc_intervals);
  /// The static instruction at `pc` (PcIndex::kNone: not in the program); a caller keeps
  /// it to ask the three questions below without looking the PC up for each.
  uint32_t index_of(uint64_t pc) const { return index_of_pc_.find(pc); }
  /// Its register-interval (or strand); kNoInterval for kNone.
  uint32_t interval_at(uint32_t index) const {
    return index == PcIndex::kNone ? kNoInterval : interval_[index];
  }
  /// The sources whose value dies with it (none for kNone).
  const RegisterSet& dead_at(uint32_t index) const {
    return index == PcIndex::kNone ? kNoRegisters : dead_[index];
  }
  /// True when it starts a strand (strand mode only).
  bool starts_unit_at(uint32_t index) const { return index != PcIndex::kNone && header_[index]; }
  bool strands() const { return strands_; }
  const std::vector<RegisterSet>& interval_sets() const { return sets_; }
  uint32_t intervals() const { return static_cast<uint32_t>(sets_.size()); }
  double mean_static_length() const { return mean_length_; }

 private:
  static inline const RegisterSet kNoRegisters{};
  PcIndex index_of_pc_;
  std::vector<uint32_t> interval_;
  std::vector<RegisterSet> dead_;
  std::vector<bool> header_;
  std::vector<RegisterSet> sets_;
  bool strands_ = false;
  double mean_length_ = 0.0;
};

}  // namespace warpreg

#pragma once
// COMA, the coordinated mask aware control unit of the Warped Register File
// (seed 002 §5.1): a table of one active mask per operand collector unit,
// written when the two-level scheduler assigns a warp to a collector and read on
// every register access, whose output gates the divided word line: only active
// lanes' word-line segments, bit lines and sense amplifiers switch. The
// writeback's mask comes from the scoreboard with the write.
//
// Plain C++, no SystemC.
#include <array>
#include <cstdint>
#include <vector>

#include "common/warp_register.h"

namespace warpreg {

struct ComaConfig {
  uint32_t entries = 16;  ///< one per operand collector unit
  /// Throws std::invalid_argument naming the field.
  void validate() const;
  uint64_t storage_bits() const { return uint64_t(entries) * kWarpSize; }
};

class ComaCore {
 public:
  explicit ComaCore(const ComaConfig& config);
  const ComaConfig& config() const { return config_; }

  /// The scheduler assigned a warp with `mask` to collector unit `collector`.
  void assign(uint32_t collector, LaneMask mask);
  /// A read for collector unit `collector`: the mask gating the access. `expected`
  /// (the mask the SM attached) checks that the table is in step with the
  /// collectors; a difference counts a mismatch.
  LaneMask read_mask(uint32_t collector, LaneMask expected);
  /// A read the table does not gate: the word line switches `lanes` (a codec packed the
  /// register into those slices, whose every bit is needed; or the whole register for a
  /// read the collector's entry would cut, counted as a mismatch when `mismatch`). The
  /// read counts by `expected`'s active lanes. Returns `lanes`.
  LaneMask read_ungated(LaneMask expected, LaneMask lanes, bool mismatch);
  /// A writeback with the scoreboard's mask: the gating mask is that mask.
  LaneMask write_mask(LaneMask scoreboard_mask);

  /// Bit-exact view for tests and golden vectors.
  LaneMask entry(uint32_t collector) const { return table_.at(collector); }

  struct Counters {
    uint64_t table_writes = 0;
    uint64_t table_reads = 0;
    uint64_t writeback_masks = 0;
    uint64_t lanes_accessed = 0;  ///< lane segments switched (reads and writes)
    uint64_t lanes_gated = 0;     ///< lane segments kept idle (reads and writes)
    uint64_t mismatches = 0;      ///< table entry differed from the access's mask
    uint64_t ungated_reads = 0;   ///< reads not gated by the mask (read_ungated)
    /// Operand reads by number of active lanes, 0..32 (seed 002 Figure 3 counts the same
    /// per warp instruction).
    std::array<uint64_t, kWarpSize + 1> read_active_lanes{};
    /// Collector assignments (issued warp instructions with register operands) by number
    /// of active lanes, 0..32: seed 002 Figure 3's active-thread breakdown.
    std::array<uint64_t, kWarpSize + 1> assigned_active_lanes{};
  };
  const Counters& counters() const { return counters_; }

 private:
  void account(LaneMask mask);
  /// Out of line, so that the accessors that check a collector save no registers for it.
  [[noreturn, gnu::noinline]] void out_of_range(uint32_t collector) const;
  ComaConfig config_;
  std::vector<LaneMask> table_;
  Counters counters_;
};

}  // namespace warpreg

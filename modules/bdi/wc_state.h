#pragma once
// The bookkeeping Warped-Compression adds beside the bank arbiter (seed 001 §4,
// §5, §5.3), without SystemC: the range-indicator table (which encoding each
// physical warp register is stored in) and a valid bit per bank entry (per register
// and lane slice) with bank-level power gating and wake-up. The compressor and
// decompressor pools are in unit_pool.h.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/warp_register.h"
#include "modules/interfaces/lane_slices.h"

namespace warpreg::bdi {

/// Hears every power-state change of a slice column (the stage accounts their
/// leakage from these). Cycles are those the state core uses: a column gates at
/// max(invalidating cycle, its wake-up end) and wakes at the writing cycle.
class GatingListener {
 public:
  virtual ~GatingListener() = default;
  virtual void column_gated(uint32_t column, uint64_t cycle) = 0;
  virtual void column_woken(uint32_t column, uint64_t cycle) = 0;
};

struct WcStateConfig {
  uint32_t physical_registers = 1024;
  uint32_t banks = 4;        ///< register-file banks (rf.banks)
  uint32_t lane_slices = 8;  ///< lane slices per bank (rf.lane_slices): a slice column is one
                             ///< physical bank of the seed (16 B x 256 entries in wc)
  uint32_t entries_per_bank = 256;
  bool gating = true;
  uint32_t wakeup_latency = 10;
};

class WcRegisterState {
 public:
  explicit WcRegisterState(const WcStateConfig& config);
  const WcStateConfig& config() const { return config_; }
  /// Tells `listener` (may be null) of every gate and wake-up from now on.
  void set_listener(GatingListener* listener) { listener_ = listener; }

  // ---- range-indicator table
  uint8_t indicator(uint32_t phys) const { return indicator_[phys]; }
  void set_indicator(uint32_t phys, uint8_t code, uint64_t cycle);
  uint32_t compressed_registers() const { return compressed_; }

  // ---- valid bits and lane slices
  /// Lane slices holding any lane of `lanes` (forced inline: several per access).
  [[gnu::always_inline]] uint32_t slices_of(LaneMask lanes) const {
    return slices_.slices_of(lanes);
  }
  /// Lanes of the slices in `slices`.
  LaneMask lanes_of(uint32_t slices) const { return slices_.lanes_of(slices); }
  /// Slices of `phys` whose entry is valid.
  uint32_t valid_slices(uint32_t phys) const { return valid_[phys]; }
  /// Makes `slices` of `phys` (in `bank`) valid, keeping the others; gated slice
  /// columns are woken at `cycle`. Returns the cycle from which all are awake.
  uint64_t add_valid(uint32_t phys, uint32_t bank, uint32_t slices, uint64_t cycle);
  /// Exactly `slices` of `phys` valid afterwards (a compressed write invalidates the
  /// slices it no longer needs); columns left without a valid entry are gated.
  uint64_t set_valid(uint32_t phys, uint32_t bank, uint32_t slices, uint64_t cycle);
  /// Cycle from which every slice column of `slices` in `bank` is awake (no wake-up).
  uint64_t awake_at(uint32_t bank, uint32_t slices) const {
    const Column* const row = &columns_[bank * config_.lane_slices];
    uint64_t ready = 0;
    for (uint32_t rest = slices; rest != 0; rest &= rest - 1)
      ready = std::max(ready, row[__builtin_ctz(rest)].awake_at);
    return ready;
  }
  /// The cycle an access to `slices` of `bank` at `cycle` can start: max(cycle,
  /// awake_at(bank, slices)), without visiting the slices when the bank's latest wake-up
  /// ended by `cycle` (nearly always).
  uint64_t ready_at(uint32_t bank, uint32_t slices, uint64_t cycle) const {
    return cycle >= bank_awake_[bank] ? cycle : std::max(cycle, awake_at(bank, slices));
  }
  /// A warp's registers are freed: entries invalid, indicators back to uncompressed.
  void release(uint32_t first_phys, uint32_t count, uint64_t cycle);
  /// Registers allocated to warps (Launch adds, release removes), for time averages.
  void allocate(uint32_t count, uint64_t cycle);

  // ---- gating statistics
  uint32_t columns() const { return config_.banks * config_.lane_slices; }
  bool gated(uint32_t column) const { return columns_[column].gated; }
  /// Cycles each slice column (bank x lane_slices + slice) spent gated up to `cycle`.
  std::vector<uint64_t> gated_cycles(uint64_t cycle) const;
  uint64_t wakeups() const { return wakeups_; }
  uint64_t gate_events() const { return gate_events_; }
  /// Integrals over time up to `cycle` (for the compressed-register share, Figure 12).
  uint64_t compressed_register_cycles(uint64_t cycle) const;
  uint64_t allocated_register_cycles(uint64_t cycle) const;

 private:
  struct Column {
    uint32_t valid_entries = 0;
    bool gated = false;
    uint64_t gated_since = 0;
    uint64_t gated_cycles = 0;
    uint64_t awake_at = 0;
  };
  void wake(Column& c, uint64_t cycle);
  void invalidate(Column& c, uint64_t cycle);
  void integrate(uint64_t cycle);

  WcStateConfig config_;
  GatingListener* listener_ = nullptr;
  LaneSlices slices_;
  std::vector<uint8_t> indicator_;
  std::vector<uint32_t> valid_;       ///< per register: valid slice mask
  std::vector<uint16_t> bank_;        ///< per register: bank of its valid entries
  std::vector<Column> columns_;       ///< bank x lane_slices
  std::vector<uint64_t> bank_awake_;  ///< per bank: the latest awake_at of its columns
  uint32_t compressed_ = 0, allocated_ = 0;
  uint64_t last_cycle_ = 0, compressed_cycles_ = 0, allocated_cycles_ = 0;
  uint64_t wakeups_ = 0, gate_events_ = 0;
};

}  // namespace warpreg::bdi

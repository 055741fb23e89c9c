#pragma once
// The register file's power states per cell (physical register x lane slice), as the
// power controllers of the designs on the path ask for them (StoragePower), with every
// cell's residency and leakage integrated exactly and lazily, at its own changes.
// Plain C++. Until some controller gates bank columns, all slices of a register move
// together and are kept as one unit, so per-register controllers pay per register.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "modules/interfaces/storage_power.h"

namespace warpreg {

class StoragePowerMap final : public StoragePower {
 public:
  /// `registers` physical registers of `slices` lane slices in `banks` banks. Bank
  /// columns (set_bank) hold the registers with phys mod banks == bank.
  StoragePowerMap(uint32_t registers, uint32_t slices, uint32_t banks);

  Controller add_controller(const std::string& name, const Fractions& fractions,
                            power::PowerState initial) override;
  void set_registers(Controller controller, uint32_t first, uint32_t count, power::PowerState state,
                     uint64_t cycle) override;
  void set_bank(Controller controller, uint32_t bank, uint32_t slices, power::PowerState state,
                uint64_t cycle) override;

  bool controlled() const { return !controllers_.empty(); }
  const std::vector<std::string>& controller_names() const { return names_; }
  /// Integrates every cell up to `cycle` (not before a cell's last change).
  void finish(uint64_t cycle);
  /// Cell-cycles spent in each state (a cell's state is the one of the controller that
  /// gives it the least leakage), up to the last finish().
  uint64_t cell_cycles(power::PowerState state) const {
    return state_cycles_[static_cast<unsigned>(state)];
  }
  /// Σ over cells of cycles x leakage fraction: the ON-equivalent cell-cycles.
  double on_equivalent_cell_cycles() const { return on_cycles_; }
  /// The state of one cell now (for waveforms and tests).
  power::PowerState state_of(uint32_t phys, uint32_t slice) const;
  uint32_t cells() const { return registers_ * slices_; }
  /// Registers of bank `bank` whose lane slice `slice` is in `state` now: kept at every
  /// change, for waveforms and samples.
  uint32_t column_cells(uint32_t bank, uint32_t slice, power::PowerState state) const {
    return column_counts_[(size_t(bank) * slices_ + (per_slice_ ? slice : 0)) *
                              power::kPowerStateCount +
                          static_cast<unsigned>(state)];
  }
  /// Cells (register x lane slice) not ON now.
  uint64_t cells_in_low_power() const { return low_power_cells_; }
  uint32_t banks() const { return banks_; }
  uint32_t slices() const { return slices_; }

 private:
  struct ControllerState {
    Fractions fractions;
    std::vector<uint8_t> registers;  ///< state per physical register
    std::vector<uint8_t> banks;      ///< state per bank x slice
    /// Per state: its place in the order update() picks by (rank_of_).
    std::array<uint8_t, power::kPowerStateCount> rank{};
  };
  /// What a cell's state is from every controller's wish: the wish of least leakage
  /// fraction, of the deeper state among equal fractions. Each (controller, state) has
  /// a rank in that order (equal fraction and state: equal rank), so that update()
  /// takes a minimum of small integers instead of comparing fractions.
  struct Ranked {
    uint8_t state;
    double fraction;
    /// The order of picking: a lower fraction first, the deeper state among equal ones.
    static bool before(const Ranked& a, const Ranked& b) {
      return a.fraction < b.fraction || (a.fraction == b.fraction && a.state > b.state);
    }
  };
  /// The rank of a (state, fraction) that by_rank_ holds.
  uint8_t rank_of(Ranked wish) const;
  /// Ranks the wishes of every controller, and keeps each unit's state and fraction.
  void rank_wishes();
  static constexpr uint8_t kNever = 255;  ///< the rank of a wish that is never picked
  /// phys % banks: a mask for a power-of-two bank count (the presets'), since the
  /// division heads the chain of loads every state change waits on.
  uint32_t bank_of(uint32_t phys) const {
    return (banks_ & (banks_ - 1)) == 0 ? phys & (banks_ - 1) : phys % banks_;
  }
  uint32_t unit_of(uint32_t phys, uint32_t slice) const {
    return per_slice_ ? phys * slices_ + slice : phys;
  }
  /// Recomputes a unit's state from every controller and integrates the change.
  /// `bank` is phys % banks, which the callers know.
  void update(uint32_t unit, uint32_t phys, uint32_t bank, uint32_t slice, uint64_t cycle);
  /// The rank of a unit's state from every controller's wishes.
  uint8_t rank_at(uint32_t phys, uint32_t column) const;
  /// Puts a unit in the state of `rank` at `cycle`, integrating the state it leaves.
  void change(uint32_t unit, uint8_t rank, uint32_t bank, uint32_t slice, uint64_t cycle);
  /// After add_controller or set_bank: whether a register's state is its one controller's
  /// register wish (solo_), and the rank of each such wish.
  void note_solo();
  void split_slices();
  /// set_registers for any count (out of line: the one-register case needs none of it).
  [[gnu::noinline]] void set_range(ControllerState& c, uint32_t first, uint32_t count, uint8_t s,
                                   uint64_t cycle);

  uint32_t registers_, slices_, banks_;
  bool per_slice_ = false;
  std::vector<ControllerState> controllers_;
  /// rank -> (state, fraction): every wish, "ON at 2.0" (no wish) and "ON at 1.0" (every
  /// cell before the first controller).
  std::vector<Ranked> by_rank_;
  uint8_t no_wish_rank_ = 0;  ///< the rank of "ON at fraction 2.0", where update() starts
  /// One controller, which never set a bank: a unit's rank is solo_rank_[its register's
  /// wish], without a look at the bank (TRIC or RFV alone: their every state change).
  bool solo_ = false;
  std::array<uint8_t, power::kPowerStateCount> solo_rank_{};
  std::vector<std::string> names_;
  /// A unit now: its state and leakage fraction as their rank (by_rank_), since when. A
  /// change compares and stores one byte instead of a state and a fraction.
  struct Unit {
    uint64_t since = 0;  ///< cycle of its last change
    uint8_t rank = 0;    ///< by_rank_[rank]: its state and leakage fraction now
  };
  std::vector<Unit> units_;
  std::array<uint64_t, power::kPowerStateCount> state_cycles_{};
  /// Per bank x slice (slice 0 only until slices split) x state: units in that state.
  std::vector<uint32_t> column_counts_;
  uint64_t low_power_cells_ = 0;
  double on_cycles_ = 0;
};

}  // namespace warpreg

#include "modules/regfile/storage_power_map.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace warpreg {

using power::PowerState;

StoragePowerMap::StoragePowerMap(uint32_t registers, uint32_t slices, uint32_t banks)
    : registers_(registers), slices_(slices), banks_(banks) {
  if (registers == 0 || slices == 0 || slices > 32 || banks == 0)
    throw std::invalid_argument("storage power map: registers, slices (1..32) and banks > 0");
  rank_wishes();
  units_.assign(registers, Unit{0, rank_of({static_cast<uint8_t>(PowerState::On), 1.0})});
  column_counts_.assign(size_t(banks) * slices * power::kPowerStateCount, 0);
  for (uint32_t phys = 0; phys < registers; ++phys)
    ++column_counts_[size_t(phys % banks) * slices * power::kPowerStateCount +
                     static_cast<unsigned>(PowerState::On)];
}

StoragePower::Controller StoragePowerMap::add_controller(const std::string& name,
                                                         const Fractions& fractions,
                                                         PowerState initial) {
  if (controllers_.size() >= 8)
    throw std::logic_error("storage power map: more than eight power controllers");
  ControllerState c;
  c.fractions = fractions;
  c.registers.assign(registers_, static_cast<uint8_t>(initial));
  c.banks.assign(size_t(banks_) * slices_, static_cast<uint8_t>(PowerState::On));
  controllers_.push_back(std::move(c));
  names_.push_back(name);
  rank_wishes();
  note_solo();
  for (uint32_t phys = 0; phys < registers_; ++phys)
    for (uint32_t s = 0; s < (per_slice_ ? slices_ : 1); ++s)
      update(unit_of(phys, s), phys, phys % banks_, s, 0);
  return static_cast<Controller>(controllers_.size() - 1);
}

void StoragePowerMap::note_solo() {
  solo_ = controllers_.size() == 1 && !per_slice_;
  if (!solo_) return;
  const ControllerState& c = controllers_.front();
  solo_ = std::all_of(c.banks.begin(), c.banks.end(),
                      [](uint8_t b) { return b == static_cast<uint8_t>(PowerState::On); });
  const uint8_t bank_rank = c.rank[static_cast<unsigned>(PowerState::On)];
  for (unsigned s = 0; s < power::kPowerStateCount; ++s)
    solo_rank_[s] = std::min({no_wish_rank_, c.rank[s], bank_rank});
}

uint8_t StoragePowerMap::rank_of(Ranked wish) const {
  const auto it = std::lower_bound(by_rank_.begin(), by_rank_.end(), wish, Ranked::before);
  return static_cast<uint8_t>(it - by_rank_.begin());
}

void StoragePowerMap::rank_wishes() {
  // The order update() picked by, one wish at a time from (ON, 2.0): a wish (s, f)
  // replaced the pick (state, best) when f < best, or f == best and s > state. Sorted
  // by (f ascending, s descending), the pick is the first wish of the list.
  // A fraction that is not a number compared false both ways: never picked (kNever).
  // "ON at 1.0" is every cell's state before the first controller; no controller need wish
  // it, and it is never picked unless one does (it ranks before "ON at 2.0").
  std::vector<Ranked> wishes{{static_cast<uint8_t>(PowerState::On), 2.0},
                             {static_cast<uint8_t>(PowerState::On), 1.0}};
  for (const ControllerState& c : controllers_)
    for (unsigned s = 0; s < power::kPowerStateCount; ++s)
      if (!std::isnan(c.fractions.of[s]))
        wishes.push_back({static_cast<uint8_t>(s), c.fractions.of[s]});
  std::sort(wishes.begin(), wishes.end(), Ranked::before);
  const std::vector<Ranked> old_ranks = std::move(by_rank_);
  by_rank_.clear();
  for (const Ranked& w : wishes)
    if (by_rank_.empty() || Ranked::before(by_rank_.back(), w)) by_rank_.push_back(w);
  // Each unit's (state, fraction) was a wish or one of the two ON entries: all still ranked.
  for (Unit& u : units_) u.rank = rank_of(old_ranks[u.rank]);
  no_wish_rank_ = rank_of({static_cast<uint8_t>(PowerState::On), 2.0});
  for (ControllerState& c : controllers_)
    for (unsigned s = 0; s < power::kPowerStateCount; ++s)
      c.rank[s] = std::isnan(c.fractions.of[s])
                      ? kNever
                      : rank_of({static_cast<uint8_t>(s), c.fractions.of[s]});
}

// Inline into its callers (all in this file): TRIC and RFV change a register's state
// about five times per warp instruction. The members it reads are copied to locals first:
// the stores through the vectors could alias them and would reload them otherwise.
[[gnu::always_inline]] inline uint8_t StoragePowerMap::rank_at(uint32_t phys,
                                                               uint32_t column) const {
  uint8_t rank = no_wish_rank_;
  for (const ControllerState& c : controllers_)
    rank = std::min({rank, c.rank[c.registers[phys]], c.rank[c.banks[column]]});
  return rank;
}

[[gnu::always_inline]] inline void StoragePowerMap::update(uint32_t unit, uint32_t phys,
                                                           uint32_t bank, uint32_t slice,
                                                           uint64_t cycle) {
  change(unit, rank_at(phys, bank * slices_ + slice), bank, slice, cycle);
}

[[gnu::always_inline]] inline void StoragePowerMap::change(uint32_t unit, uint8_t rank,
                                                           uint32_t bank, uint32_t slice,
                                                           uint64_t cycle) {
  const uint32_t slices = slices_;
  const bool per_slice = per_slice_;
  Unit& u = units_[unit];
  if (rank == u.rank) return;
  const uint8_t state = by_rank_[rank].state;
  const uint8_t was = by_rank_[u.rank].state;
  const double was_fraction = by_rank_[u.rank].fraction;
  const uint32_t weight = per_slice ? 1 : slices;
  const uint64_t since = u.since;
  if (cycle > since) {
    const uint64_t dt = cycle - since;
    state_cycles_[was] += dt * weight;
    on_cycles_ += was_fraction * double(dt) * weight;
    u.since = cycle;
  }
  uint32_t* const counts =
      &column_counts_[size_t(bank * slices + (per_slice ? slice : 0)) * power::kPowerStateCount];
  --counts[was];
  ++counts[state];
  const auto on = static_cast<uint8_t>(PowerState::On);
  if (was == on && state != on) low_power_cells_ += weight;
  if (was != on && state == on) low_power_cells_ -= weight;
  u.rank = rank;
}

void StoragePowerMap::set_registers(Controller controller, uint32_t first, uint32_t count,
                                    PowerState state, uint64_t cycle) {
  ControllerState& c = controllers_.at(controller);
  const auto s = static_cast<uint8_t>(state);
  if (count != 1 || per_slice_) {
    set_range(c, first, count, s, cycle);
    return;
  }
  // TRIC and RFV change one register at a time (about five times per warp instruction
  // with TRIC): set_range for a single unit, without its loop and register saves.
  if (first < registers_ && c.registers[first] != s) {
    c.registers[first] = s;
    const uint32_t bank = bank_of(first);
    change(first, solo_ ? solo_rank_[s] : rank_at(first, bank * slices_), bank, 0, cycle);
  }
}

void StoragePowerMap::set_range(ControllerState& c, uint32_t first, uint32_t count, uint8_t s,
                                uint64_t cycle) {
  const uint32_t end = std::min(registers_, first + count);
  for (uint32_t phys = first; phys < end; ++phys) {
    if (c.registers[phys] == s) continue;
    c.registers[phys] = s;
    const uint32_t bank = bank_of(phys);
    if (!per_slice_) {
      update(phys, phys, bank, 0, cycle);
    } else {
      for (uint32_t slice = 0; slice < slices_; ++slice)
        update(unit_of(phys, slice), phys, bank, slice, cycle);
    }
  }
}

void StoragePowerMap::split_slices() {
  std::vector<Unit> units(size_t(registers_) * slices_);
  for (uint32_t phys = 0; phys < registers_; ++phys)
    for (uint32_t s = 0; s < slices_; ++s) units[phys * slices_ + s] = units_[phys];
  units_ = std::move(units);
  // Every slice of a bank now counts what slice 0 counted for whole registers.
  for (uint32_t bank = 0; bank < banks_; ++bank)
    for (uint32_t s = 1; s < slices_; ++s)
      for (unsigned k = 0; k < power::kPowerStateCount; ++k)
        column_counts_[(size_t(bank) * slices_ + s) * power::kPowerStateCount + k] =
            column_counts_[size_t(bank) * slices_ * power::kPowerStateCount + k];
  per_slice_ = true;
}

void StoragePowerMap::set_bank(Controller controller, uint32_t bank, uint32_t slices,
                               PowerState state, uint64_t cycle) {
  ControllerState& c = controllers_.at(controller);
  if (bank >= banks_) throw std::out_of_range("storage power map: bank out of range");
  if (!per_slice_ && slices_ > 1) split_slices();
  solo_ = false;
  const auto s = static_cast<uint8_t>(state);
  for (uint32_t slice = 0; slice < slices_; ++slice) {
    if (!((slices >> slice) & 1u) || c.banks[bank * slices_ + slice] == s) continue;
    c.banks[bank * slices_ + slice] = s;
    for (uint32_t phys = bank; phys < registers_; phys += banks_)
      update(unit_of(phys, slice), phys, bank, slice, cycle);
  }
}

void StoragePowerMap::finish(uint64_t cycle) {
  const uint32_t weight = per_slice_ ? 1 : slices_;
  for (Unit& u : units_) {
    if (cycle <= u.since) continue;
    const uint64_t dt = cycle - u.since;
    state_cycles_[by_rank_[u.rank].state] += dt * weight;
    on_cycles_ += by_rank_[u.rank].fraction * double(dt) * weight;
    u.since = cycle;
  }
}

PowerState StoragePowerMap::state_of(uint32_t phys, uint32_t slice) const {
  return static_cast<PowerState>(by_rank_[units_[unit_of(phys, slice)].rank].state);
}

}  // namespace warpreg

#include "modules/bdi/wc_state.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpreg::bdi {

WcRegisterState::WcRegisterState(const WcStateConfig& config) : config_(config) {
  if (config_.banks == 0 || config_.lane_slices == 0 || kWarpSize % config_.lane_slices != 0)
    throw std::invalid_argument(
        "Warped-Compression needs at least one bank and lane slices "
        "dividing 32 (got " +
        std::to_string(config_.lane_slices) + ")");
  if (config_.banks > 0xffff) throw std::invalid_argument("too many banks");
  slices_ = LaneSlices(config_.lane_slices);
  indicator_.assign(config_.physical_registers, 0);
  valid_.assign(config_.physical_registers, 0);
  bank_.assign(config_.physical_registers, 0);
  columns_.assign(columns(), Column{});
  bank_awake_.assign(config_.banks, 0);
  // Nothing is valid before the first write: with gating every bank starts gated.
  if (config_.gating)
    for (Column& c : columns_) c.gated = true;
}

void WcRegisterState::integrate(uint64_t cycle) {
  if (cycle <= last_cycle_) return;
  compressed_cycles_ += uint64_t(compressed_) * (cycle - last_cycle_);
  allocated_cycles_ += uint64_t(allocated_) * (cycle - last_cycle_);
  last_cycle_ = cycle;
}

void WcRegisterState::set_indicator(uint32_t phys, uint8_t code, uint64_t cycle) {
  integrate(cycle);
  const bool was = indicator_[phys] != 0, is = code != 0;
  if (was && !is) --compressed_;
  if (!was && is) ++compressed_;
  indicator_[phys] = code;
}

void WcRegisterState::allocate(uint32_t count, uint64_t cycle) {
  integrate(cycle);
  allocated_ += count;
}

void WcRegisterState::wake(Column& c, uint64_t cycle) {
  if (!c.gated) return;
  c.gated = false;
  c.gated_cycles += cycle > c.gated_since ? cycle - c.gated_since : 0;
  c.awake_at = cycle + config_.wakeup_latency;
  uint64_t& bank_awake = bank_awake_[(&c - columns_.data()) / config_.lane_slices];
  bank_awake = std::max(bank_awake, c.awake_at);
  ++wakeups_;
  if (listener_) listener_->column_woken(static_cast<uint32_t>(&c - columns_.data()), cycle);
}

void WcRegisterState::invalidate(Column& c, uint64_t cycle) {
  if (c.valid_entries == 0) throw std::logic_error("Warped-Compression: valid count underflow");
  if (--c.valid_entries == 0 && config_.gating) {
    c.gated = true;
    c.gated_since = std::max(cycle, c.awake_at);
    ++gate_events_;
    if (listener_)
      listener_->column_gated(static_cast<uint32_t>(&c - columns_.data()), c.gated_since);
  }
}

uint64_t WcRegisterState::add_valid(uint32_t phys, uint32_t bank, uint32_t slices, uint64_t cycle) {
  return set_valid(phys, bank, valid_[phys] | slices, cycle);
}

uint64_t WcRegisterState::set_valid(uint32_t phys, uint32_t bank, uint32_t slices, uint64_t cycle) {
  const uint32_t old = valid_[phys];
  const uint32_t old_bank = bank_[phys];
  // Entries that stay valid where they are: neither counted again nor invalidated.
  const uint32_t kept = old_bank == bank ? old & slices : 0;
  // Wake and count the new entries first so that a column keeping one entry never gates;
  // only the slices named are visited, in ascending order as before.
  uint64_t ready = cycle;
  Column* const row = &columns_[bank * config_.lane_slices];
  for (uint32_t rest = slices; rest != 0; rest &= rest - 1) {
    const uint32_t s = static_cast<uint32_t>(__builtin_ctz(rest));
    Column& c = row[s];
    if (c.gated) wake(c, cycle);
    ready = std::max(ready, c.awake_at);
    if (!((kept >> s) & 1u)) ++c.valid_entries;
  }
  Column* const old_row = &columns_[old_bank * config_.lane_slices];
  for (uint32_t rest = old & ~kept; rest != 0; rest &= rest - 1)
    invalidate(old_row[__builtin_ctz(rest)], cycle);
  valid_[phys] = slices;
  bank_[phys] = static_cast<uint16_t>(bank);
  return ready;
}

void WcRegisterState::release(uint32_t first_phys, uint32_t count, uint64_t cycle) {
  integrate(cycle);
  const uint32_t end = std::min<uint32_t>(first_phys + count, config_.physical_registers);
  for (uint32_t p = first_phys; p < end; ++p) {
    set_indicator(p, 0, cycle);
    for (uint32_t s = 0; s < config_.lane_slices; ++s)
      if ((valid_[p] >> s) & 1u) invalidate(columns_[bank_[p] * config_.lane_slices + s], cycle);
    valid_[p] = 0;
  }
  allocated_ -= std::min(allocated_, end > first_phys ? end - first_phys : 0);
}

std::vector<uint64_t> WcRegisterState::gated_cycles(uint64_t cycle) const {
  std::vector<uint64_t> out(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    out[i] = c.gated_cycles + (c.gated && cycle > c.gated_since ? cycle - c.gated_since : 0);
  }
  return out;
}

uint64_t WcRegisterState::compressed_register_cycles(uint64_t cycle) const {
  return compressed_cycles_ +
         (cycle > last_cycle_ ? uint64_t(compressed_) * (cycle - last_cycle_) : 0);
}

uint64_t WcRegisterState::allocated_register_cycles(uint64_t cycle) const {
  return allocated_cycles_ +
         (cycle > last_cycle_ ? uint64_t(allocated_) * (cycle - last_cycle_) : 0);
}

}  // namespace warpreg::bdi

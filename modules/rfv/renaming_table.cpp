#include "modules/rfv/renaming_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpreg {

namespace {
void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("renaming table: " + message);
}
}  // namespace

void RenamingConfig::validate() const {
  require(max_warps > 0, "max_warps must be positive");
  require(max_regs_per_thread > 0 && max_regs_per_thread <= kMaxArchRegisters,
          "max_regs_per_thread = " + std::to_string(max_regs_per_thread) + " must be 1..255");
  require(rf_banks > 0 && physical_registers % rf_banks == 0,
          "physical_registers = " + std::to_string(physical_registers) +
              " must split evenly into rf_banks = " + std::to_string(rf_banks));
  require(physical_registers > 0, "physical_registers must be positive");
  require(table_banks > 0, "table_banks must be positive");
  require(subarray_entries > 0, "subarray_entries must be positive");
}

uint32_t RenamingConfig::entry_bits() const {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < physical_registers) ++bits;
  return bits;
}

RenamingTable::RenamingTable(const RenamingConfig& config) : config_(config) {
  config_.validate();
  words_per_bank_ = (config_.entries_per_bank() + 63) / 64;
  exempt_slot_.assign(kMaxArchRegisters + 1, -1);
  map_.assign(size_t{config_.max_warps} * config_.max_regs_per_thread, kNoPhysical);
  subarray_slot_.resize(config_.physical_registers);
  for (uint32_t p = 0; p < config_.physical_registers; ++p)
    subarray_slot_[p] =
        bank_of_physical(p, config_.rf_banks) * config_.subarrays_per_bank() + subarray_of(p);
  start_kernel(0, {});
}

void RenamingTable::mark(uint32_t phys, bool used) {
  const uint32_t bank = bank_of_physical(phys, config_.rf_banks);
  const uint32_t entry = phys / config_.rf_banks;
  uint64_t& word = free_bits_[size_t{bank} * words_per_bank_ + entry / 64];
  const uint64_t bit = uint64_t{1} << (entry % 64);
  uint32_t& sub = subarray_used_[subarray_slot_[phys]];
  if (used) {
    word &= ~bit;
    --free_per_bank_[bank];
    --free_total_;
    ++sub;
  } else {
    word |= bit;
    ++free_per_bank_[bank];
    ++free_total_;
    --sub;
  }
}

void RenamingTable::start_kernel(uint32_t regs_per_thread, const std::vector<bool>& exempt) {
  require(regs_per_thread <= config_.max_regs_per_thread,
          "the kernel uses " + std::to_string(regs_per_thread) +
              " registers per thread; the table names at most " +
              std::to_string(config_.max_regs_per_thread));
  regs_per_thread_ = regs_per_thread;
  std::fill(exempt_slot_.begin(), exempt_slot_.end(), -1);
  exempt_count_ = 0;
  for (uint32_t r = 0; r < regs_per_thread && r < exempt.size(); ++r)
    if (exempt[r]) exempt_slot_[r] = static_cast<int16_t>(exempt_count_++);
  pool_start_ = exempt_count_ * config_.max_warps;
  require(pool_start_ <= config_.physical_registers,
          std::to_string(exempt_count_) + " exempt registers x " +
              std::to_string(config_.max_warps) + " warps exceed the " +
              std::to_string(config_.physical_registers) + " physical registers");

  std::fill(map_.begin(), map_.end(), kNoPhysical);
  const uint32_t banks = config_.rf_banks;
  free_bits_.assign(size_t{banks} * words_per_bank_, 0);
  free_per_bank_.assign(banks, 0);
  subarray_used_.assign(size_t{banks} * config_.subarrays_per_bank(), 0);
  free_total_ = 0;
  mapped_ = 0;
  // Every entry starts free; the exempt area is then taken for the whole kernel.
  for (uint32_t p = 0; p < config_.physical_registers; ++p) {
    const uint32_t bank = bank_of_physical(p, banks);
    const uint32_t entry = p / banks;
    free_bits_[size_t{bank} * words_per_bank_ + entry / 64] |= uint64_t{1} << (entry % 64);
    ++free_per_bank_[bank];
    ++free_total_;
  }
  for (uint32_t p = 0; p < pool_start_; ++p) mark(p, true);
}

uint32_t RenamingTable::lookup(uint16_t warp, uint16_t reg) const {
  const int16_t e = exempt_slot_[reg];
  if (e >= 0) return uint32_t{warp} * exempt_count_ + static_cast<uint32_t>(e);
  return map_[slot(warp, reg)];
}

uint32_t RenamingTable::map_for_write(uint16_t warp, uint16_t reg) {
  const uint32_t current = lookup(warp, reg);
  if (current != kNoPhysical) return current;
  const uint32_t bank = compiler_bank(warp, reg);
  const uint64_t* words = &free_bits_[size_t{bank} * words_per_bank_];
  for (uint32_t w = 0; w < words_per_bank_; ++w) {
    if (words[w] == 0) continue;
    const uint32_t entry = w * 64 + static_cast<uint32_t>(__builtin_ctzll(words[w]));
    const uint32_t phys = entry * config_.rf_banks + bank;
    mark(phys, true);
    map_[slot(warp, reg)] = phys;
    ++mapped_;
    ++counters_.allocations;
    counters_.max_mapped = std::max<uint64_t>(counters_.max_mapped, mapped_);
    return phys;
  }
  ++counters_.allocation_failures;
  return kNoPhysical;
}

bool RenamingTable::release(uint16_t warp, uint16_t reg) {
  if (exempt_slot_[reg] >= 0) return false;
  uint32_t& phys = map_[slot(warp, reg)];
  if (phys == kNoPhysical) return false;
  mark(phys, false);
  phys = kNoPhysical;
  --mapped_;
  ++counters_.releases;
  return true;
}

uint32_t RenamingTable::release_warp(uint16_t warp) {
  uint32_t freed = 0;
  for (uint32_t r = 0; r < regs_per_thread_; ++r)
    if (release(warp, static_cast<uint16_t>(r))) ++freed;
  return freed;
}

uint32_t RenamingTable::lookup_cycles(const uint16_t* regs, unsigned count) const {
  uint32_t per_bank[32] = {};
  uint32_t worst = 0;
  const uint32_t banks = std::min<uint32_t>(config_.table_banks, 32);
  for (unsigned i = 0; i < count; ++i) {
    if (regs[i] == kZeroRegister || exempt_slot_[regs[i]] >= 0) continue;
    worst = std::max(worst, ++per_bank[regs[i] % banks]);
  }
  return std::max<uint32_t>(worst, 1);
}

}  // namespace warpreg

#include "modules/ltrf/address_allocation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpreg {

uint32_t bits_for(uint32_t n) {
  uint32_t bits = 1;
  while ((uint64_t{1} << bits) < n) ++bits;
  return bits;
}

AddressAllocationUnit::AddressAllocationUnit(uint32_t slots) : slots_(slots) {
  unused_.reserve(slots);
  occupied_.reserve(slots);
  for (uint32_t s = 0; s < slots; ++s) unused_.push_back(s);
}

uint32_t AddressAllocationUnit::allocate() {
  if (unused_.empty()) return kNone;
  const uint32_t slot = unused_.front();
  unused_.erase(unused_.begin());
  occupied_.push_back(slot);
  return slot;
}

void AddressAllocationUnit::deallocate(uint32_t slot) {
  const auto it = std::find(occupied_.begin(), occupied_.end(), slot);
  if (it == occupied_.end())
    throw std::logic_error("address allocation unit: slot " + std::to_string(slot) +
                           " is not occupied");
  occupied_.erase(it);
  unused_.push_back(slot);
}

void AddressAllocationUnit::deallocate_all() {
  for (uint32_t slot : occupied_) unused_.push_back(slot);
  occupied_.clear();
}

uint64_t AddressAllocationUnit::storage_bits() const {
  return 2 * uint64_t{slots_} * bits_for(std::max<uint32_t>(slots_, 1));
}

}  // namespace warpreg

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

AddressAllocationUnit::AddressAllocationUnit(uint32_t slots)
    : slots_(slots), ring_(slots), older_(slots, kNone), newer_(slots, kNone), occupied_(slots, 0) {
  reset();
}

void AddressAllocationUnit::reset() {
  for (uint32_t s = 0; s < slots_; ++s) ring_[s] = s;
  std::fill(occupied_.begin(), occupied_.end(), uint8_t{0});
  unused_head_ = 0;
  unused_count_ = slots_;
  occupied_head_ = occupied_tail_ = kNone;
}

uint32_t AddressAllocationUnit::allocate() {
  if (unused_count_ == 0) return kNone;
  const uint32_t slot = ring_[unused_head_];
  if (++unused_head_ == slots_) unused_head_ = 0;
  --unused_count_;
  occupied_[slot] = 1;
  older_[slot] = occupied_tail_;
  newer_[slot] = kNone;
  if (occupied_tail_ == kNone)
    occupied_head_ = slot;
  else
    newer_[occupied_tail_] = slot;
  occupied_tail_ = slot;
  return slot;
}

void AddressAllocationUnit::deallocate(uint32_t slot) {
  if (slot >= slots_ || !occupied_[slot])
    throw std::logic_error("address allocation unit: slot " + std::to_string(slot) +
                           " is not occupied");
  occupied_[slot] = 0;
  const uint32_t older = older_[slot], newer = newer_[slot];
  if (older == kNone)
    occupied_head_ = newer;
  else
    newer_[older] = newer;
  if (newer == kNone)
    occupied_tail_ = older;
  else
    older_[newer] = older;
  uint32_t tail = unused_head_ + unused_count_;
  if (tail >= slots_) tail -= slots_;
  ring_[tail] = slot;
  ++unused_count_;
}

void AddressAllocationUnit::deallocate_all() {
  while (occupied_head_ != kNone) deallocate(occupied_head_);
}

std::vector<uint32_t> AddressAllocationUnit::unused_queue() const {
  std::vector<uint32_t> out;
  for (uint32_t i = 0, at = unused_head_; i < unused_count_;
       ++i, at = at + 1 == slots_ ? 0 : at + 1)
    out.push_back(ring_[at]);
  return out;
}

std::vector<uint32_t> AddressAllocationUnit::occupied_queue() const {
  std::vector<uint32_t> out;
  for (uint32_t slot = occupied_head_; slot != kNone; slot = newer_[slot]) out.push_back(slot);
  return out;
}

uint64_t AddressAllocationUnit::storage_bits() const {
  return 2 * uint64_t{slots_} * bits_for(std::max<uint32_t>(slots_, 1));
}

}  // namespace warpreg

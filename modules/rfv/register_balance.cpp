#include "modules/rfv/register_balance.h"

namespace warpreg {

RegisterBalance::RegisterBalance(uint32_t cta_slots)
    : demand_(cta_slots, 0), held_(cta_slots, 0), resident_(cta_slots, false) {}

void RegisterBalance::launch(uint32_t slot, uint32_t demand) {
  demand_[slot] = demand;
  held_[slot] = 0;
  resident_[slot] = true;
  smallest_known_ = false;
}

void RegisterBalance::retire(uint32_t slot) {
  resident_[slot] = false;
  demand_[slot] = 0;
  held_[slot] = 0;
  smallest_known_ = false;
}

uint32_t RegisterBalance::allowed_cta(uint32_t free_registers) const {
  if (!smallest_known_) {
    smallest_ = kAnyCta;
    for (uint32_t s = 0; s < demand_.size(); ++s)
      if (resident_[s] && (smallest_ == kAnyCta || balance(s) < balance(smallest_))) smallest_ = s;
    smallest_known_ = true;
  }
  if (smallest_ == kAnyCta || free_registers > balance(smallest_)) return kAnyCta;
  return smallest_;
}

uint64_t RegisterBalance::storage_bits(uint32_t max_demand) const {
  uint32_t bits = 1;
  while ((uint64_t{1} << bits) <= max_demand) ++bits;
  return uint64_t{bits} * demand_.size();
}

}  // namespace warpreg

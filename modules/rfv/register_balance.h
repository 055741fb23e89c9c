#pragma once
// RFV forward-progress throttle (seed 000 §8.1): per resident CTA a register balance
// counter C - k_i, where C = registers one warp may hold x warps of the CTA (its
// worst-case demand) and k_i the physical registers the CTA holds now. When the free
// physical registers are not more than the smallest balance, only the CTA with the
// smallest balance may issue, so at least one CTA can always finish. Plain C++.
#include <cstdint>
#include <vector>

namespace warpreg {

class RegisterBalance {
 public:
  static constexpr uint32_t kAnyCta = 0xffffffffu;

  explicit RegisterBalance(uint32_t cta_slots = 8);

  /// A CTA starts in `slot` and may need up to `demand` (C) registers.
  void launch(uint32_t slot, uint32_t demand);
  /// The CTA in `slot` finished; its counter is free.
  void retire(uint32_t slot);
  void allocated(uint32_t slot) {
    ++held_[slot];
    // A balance went down: that slot may now be the smallest (ties: the lowest slot).
    if (!smallest_known_ || !resident_[slot] || slot == smallest_) return;
    if (smallest_ == kAnyCta || balance(slot) < balance(smallest_) ||
        (balance(slot) == balance(smallest_) && slot < smallest_))
      smallest_ = slot;
  }
  void released(uint32_t slot) {
    --held_[slot];
    if (slot == smallest_) smallest_known_ = false;  // the smallest went up
  }

  /// The only CTA slot allowed to issue given `free_registers`, or kAnyCta when every
  /// CTA may. Ties go to the lowest slot.
  uint32_t allowed_cta(uint32_t free_registers) const;
  /// C - k_i of a resident CTA (0 when it holds its whole demand or more).
  uint32_t balance(uint32_t slot) const {
    return held_[slot] >= demand_[slot] ? 0 : demand_[slot] - held_[slot];
  }
  uint32_t held(uint32_t slot) const { return held_[slot]; }
  bool resident(uint32_t slot) const { return resident_[slot]; }
  uint32_t slots() const { return static_cast<uint32_t>(demand_.size()); }
  /// Bits of the counters: one per CTA slot, wide enough for C.
  uint64_t storage_bits(uint32_t max_demand) const;

 private:
  std::vector<uint32_t> demand_;
  std::vector<uint32_t> held_;
  std::vector<bool> resident_;
  // The resident slot with the smallest balance (kAnyCta: none), found again only after
  // a counter changed: the issue stage asks on every issue probe.
  mutable uint32_t smallest_ = kAnyCta;
  mutable bool smallest_known_ = false;
};

}  // namespace warpreg

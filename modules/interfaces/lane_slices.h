#pragma once
// Lanes <-> lane slices of a warp register split into S slices of 32/S lanes (S divides
// 32, so a slice is a power-of-two run of lanes). Table lookups, a byte of the mask at a
// time, because banks, compression and power gating convert on every access.
#include <cstdint>

#include "common/warp_register.h"

namespace warpreg {

class LaneSlices {
 public:
  /// `slices` must divide 32 (RegFileConfig::validate checks rf.lane_slices).
  explicit LaneSlices(uint32_t slices = 1)
      : slices_(slices),
        lanes_(kWarpSize / slices),
        all_(slices == 32 ? 0xffffffffu : (1u << slices) - 1u) {
    for (uint32_t byte = 0; byte < 256; ++byte) {
      uint8_t folded = 0;
      LaneMask expanded = 0;
      for (uint32_t bit = 0; bit < 8; ++bit) {
        if (!((byte >> bit) & 1u)) continue;
        if (lanes_ <= 8) folded = static_cast<uint8_t>(folded | (1u << (bit / lanes_)));
        if (bit < slices_) expanded |= slice_lanes(bit);
      }
      to_slices_[byte] = folded;
      to_lanes_[byte] = expanded;
    }
  }

  /// Every slice's bit.
  uint32_t all() const { return all_; }

  /// The slices holding any lane of `lanes` (forced inline: GCC kept it out of line for
  /// WC's stage, which converts several masks per access).
  [[gnu::always_inline]] uint32_t slices_of(LaneMask lanes) const {
    if (lanes_ == 1) return lanes;
    if (lanes == kFullMask) return all_;  // most accesses are whole warps
    if (lanes_ == 32) return lanes ? 1u : 0u;
    if (lanes_ == 16) return ((lanes & 0xffffu) ? 1u : 0u) | ((lanes >> 16) ? 2u : 0u);
    const uint32_t per_byte = 8 / lanes_;  // slices per byte of the mask
    return uint32_t(to_slices_[lanes & 0xffu]) |
           uint32_t(to_slices_[(lanes >> 8) & 0xffu]) << per_byte |
           uint32_t(to_slices_[(lanes >> 16) & 0xffu]) << (2 * per_byte) |
           uint32_t(to_slices_[lanes >> 24]) << (3 * per_byte);
  }

  /// Every lane of the slices in `slices`.
  LaneMask lanes_of(uint32_t slices) const {
    if (lanes_ == 1) return slices;
    LaneMask lanes = to_lanes_[slices & 0xffu];
    if (slices_ > 8) lanes |= to_lanes_[(slices >> 8) & 0xffu] << (8 * lanes_);
    return lanes;
  }

 private:
  LaneMask slice_lanes(uint32_t slice) const {
    const LaneMask one = lanes_ == 32 ? kFullMask : (1u << lanes_) - 1u;
    return one << (slice * lanes_);
  }

  uint32_t slices_;
  uint32_t lanes_;
  uint32_t all_;
  uint8_t to_slices_[256];  ///< a byte of lanes -> its slices (lanes per slice <= 8)
  LaneMask to_lanes_[256];  ///< a byte of slices -> their lanes (slices 8k..8k+7 from lane 0)
};

}  // namespace warpreg

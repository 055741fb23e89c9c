#pragma once
// The value one warp register holds: 32 lanes of 32 bits (128 bytes).
#include <array>
#include <cstdint>
#include <cstring>

namespace warpreg {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kWarpRegisterBytes = kWarpSize * 4;

/// Bit i set: lane i is active.
using LaneMask = uint32_t;
constexpr LaneMask kFullMask = 0xffffffffu;

struct WarpRegister {
  std::array<uint32_t, kWarpSize> lane{};

  unsigned char* bytes() { return reinterpret_cast<unsigned char*>(lane.data()); }
  const unsigned char* bytes() const { return reinterpret_cast<const unsigned char*>(lane.data()); }

  /// Every lane equal, without a library call (std::array's == calls memcmp): the
  /// integrity check compares every operand.
  static bool same_lanes(const WarpRegister& a, const WarpRegister& b) {
    uint32_t differ = 0;
    for (unsigned i = 0; i < kWarpSize; ++i) differ |= a.lane[i] ^ b.lane[i];
    return differ == 0;
  }

  /// Copies the lanes of `src` selected by `mask`; other lanes keep their value.
  void merge(const WarpRegister& src, LaneMask mask) {
    if (mask == kFullMask) {
      lane = src.lane;
      return;
    }
    for (LaneMask rest = mask; rest != 0; rest &= rest - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(rest));
      lane[i] = src.lane[i];
    }
  }

  /// True when every lane selected by `mask` holds the same value in both.
  bool equal_on(const WarpRegister& other, LaneMask mask) const {
    if (mask == kFullMask) return same_lanes(*this, other);
    for (LaneMask rest = mask; rest != 0; rest &= rest - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(rest));
      if (lane[i] != other.lane[i]) return false;
    }
    return true;
  }

  friend bool operator==(const WarpRegister& a, const WarpRegister& b) { return same_lanes(a, b); }
  friend bool operator!=(const WarpRegister& a, const WarpRegister& b) { return !(a == b); }
};

static_assert(sizeof(WarpRegister) == kWarpRegisterBytes, "a warp register is 128 bytes");

}  // namespace warpreg

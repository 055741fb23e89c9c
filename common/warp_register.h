#pragma once
// The value one warp register holds: 32 lanes of 32 bits (128 bytes).
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

  /// Every lane zero: eight 16-byte stores (GCC makes a 128-byte memset `rep stos`,
  /// which costs tens of cycles to start, on register-file caches' and codecs' paths).
  void clear() {
#if defined(__SSE2__)
    for (unsigned k = 0; k < kWarpSize; k += 4)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(&lane[k]), _mm_setzero_si128());
#else
    lane.fill(0);
#endif
  }

  /// Copies the lanes of `src` selected by `mask`; other lanes keep their value.
  void merge(const WarpRegister& src, LaneMask mask) {
    if (mask == kFullMask) {
      lane = src.lane;
      return;
    }
#if defined(__SSE2__)
    // Four lanes at a time, blended by their four mask bits (every lane is stored; the
    // lanes outside the mask keep their value).
    for (unsigned k = 0; k < kWarpSize; k += 4) {
      const __m128i m = lanes_of_nibble(mask >> k);
      auto* to = reinterpret_cast<__m128i*>(&lane[k]);
      const __m128i from = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&src.lane[k]));
      _mm_storeu_si128(
          to, _mm_or_si128(_mm_and_si128(m, from), _mm_andnot_si128(m, _mm_loadu_si128(to))));
    }
#else
    for (LaneMask rest = mask; rest != 0; rest &= rest - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(rest));
      lane[i] = src.lane[i];
    }
#endif
  }

  /// True when every lane selected by `mask` holds the same value in both.
  bool equal_on(const WarpRegister& other, LaneMask mask) const {
    if (mask == kFullMask) return same_lanes(*this, other);
#if defined(__SSE2__)
    // Four lanes at a time: the differing bits of the lanes in the mask, or-ed together.
    __m128i differ = _mm_setzero_si128();
    for (unsigned k = 0; k < kWarpSize; k += 4) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&lane[k]));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&other.lane[k]));
      differ = _mm_or_si128(differ, _mm_and_si128(lanes_of_nibble(mask >> k), _mm_xor_si128(a, b)));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi32(differ, _mm_setzero_si128())) == 0xffff;
#else
    for (LaneMask rest = mask; rest != 0; rest &= rest - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(rest));
      if (lane[i] != other.lane[i]) return false;
    }
    return true;
#endif
  }

  friend bool operator==(const WarpRegister& a, const WarpRegister& b) { return same_lanes(a, b); }

#if defined(__SSE2__)
  /// All ones in 32-bit lane j (j = 0..3) when bit j of `bits` is set.
  static __m128i lanes_of_nibble(uint32_t bits) {
    const __m128i one_each = _mm_setr_epi32(1, 2, 4, 8);
    return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(static_cast<int>(bits)), one_each),
                           one_each);
  }
#endif
  friend bool operator!=(const WarpRegister& a, const WarpRegister& b) { return !(a == b); }
};

static_assert(sizeof(WarpRegister) == kWarpRegisterBytes, "a warp register is 128 bytes");

}  // namespace warpreg

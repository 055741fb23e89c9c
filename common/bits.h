#pragma once
// Bit counts for the hot paths. __builtin_popcount becomes a libgcc call unless the
// build targets a CPU with POPCNT (-mpopcnt), which warpreg does not assume; these
// inline SWAR counts cost about a dozen instructions and no call.
#include <cstdint>

namespace warpreg {

constexpr unsigned popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
}

constexpr unsigned popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

static_assert(popcount32(0) == 0 && popcount32(0xffffffffu) == 32 && popcount32(0x80000001u) == 2);
static_assert(popcount64(~0ull) == 64 && popcount64(0x8000000000000001ull) == 2);

}  // namespace warpreg

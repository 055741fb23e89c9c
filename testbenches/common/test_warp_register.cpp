// WarpRegister's masked copy and compare (four lanes at a time where SSE2 is there)
// against the rule lane by lane, over random values and masks.
#include <catch2/catch.hpp>
#include <cstdint>

#include "common/warp_register.h"

using namespace warpreg;

TEST_CASE("warp register: merge and equal_on follow the mask lane by lane", "[common][register]") {
  uint64_t s = 0x2545f491;
  const auto next = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int n = 0; n < 100000; ++n) {
    WarpRegister a, b;
    for (unsigned i = 0; i < kWarpSize; ++i) {
      a.lane[i] = static_cast<uint32_t>(next());
      // Lanes that agree in places, so that equal_on is true for some masks.
      b.lane[i] = next() % 4 == 0 ? static_cast<uint32_t>(next()) : a.lane[i];
    }
    const uint64_t kind = next() % 4;
    const LaneMask mask = kind == 0   ? kFullMask
                          : kind == 1 ? LaneMask(1) << (next() % kWarpSize)
                                      : static_cast<LaneMask>(next());
    bool equal = true;
    for (unsigned i = 0; i < kWarpSize; ++i)
      if ((mask >> i) & 1u) equal = equal && a.lane[i] == b.lane[i];
    INFO("case " << n << ", mask " << mask);
    REQUIRE(a.equal_on(b, mask) == equal);
    WarpRegister merged = a;
    merged.merge(b, mask);
    for (unsigned i = 0; i < kWarpSize; ++i)
      REQUIRE(merged.lane[i] == (((mask >> i) & 1u) ? b.lane[i] : a.lane[i]));
  }
  // The empty mask: nothing compared, nothing copied.
  WarpRegister x, y;
  y.lane[3] = 9;
  CHECK(x.equal_on(y, 0));
  x.merge(y, 0);
  CHECK(x.lane[3] == 0);
}

TEST_CASE("warp register: clear zeroes every lane", "[common][register]") {
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = 0x9e3779b9u * (i + 1);
  r.clear();
  for (unsigned i = 0; i < kWarpSize; ++i) REQUIRE(r.lane[i] == 0);
}

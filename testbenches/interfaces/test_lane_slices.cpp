// LaneSlices' table lookups against the lane-by-lane definition, for every slice count.
#include <catch2/catch.hpp>
#include <random>

#include "modules/interfaces/lane_slices.h"

using warpreg::LaneMask;
using warpreg::LaneSlices;

namespace {

uint32_t slices_by_lane(LaneMask lanes, uint32_t slices) {
  const uint32_t per = 32 / slices;
  uint32_t out = 0;
  for (uint32_t lane = 0; lane < 32; ++lane)
    if ((lanes >> lane) & 1u) out |= 1u << (lane / per);
  return out;
}

LaneMask lanes_by_slice(uint32_t slice_bits, uint32_t slices) {
  const uint32_t per = 32 / slices;
  LaneMask out = 0;
  for (uint32_t lane = 0; lane < 32; ++lane)
    if ((slice_bits >> (lane / per)) & 1u) out |= 1u << lane;
  return out;
}

}  // namespace

TEST_CASE("lane slices: lanes to slices and back agree with the lane-by-lane rule",
          "[interfaces]") {
  std::mt19937 rng(3);
  for (const uint32_t slices : {1u, 2u, 4u, 8u, 16u, 32u}) {
    const LaneSlices map(slices);
    INFO(slices << " slices");
    REQUIRE(map.all() == (slices == 32 ? 0xffffffffu : (1u << slices) - 1u));
    REQUIRE(map.slices_of(0) == 0);
    REQUIRE(map.slices_of(0xffffffffu) == map.all());
    REQUIRE(map.lanes_of(map.all()) == 0xffffffffu);
    for (int i = 0; i < 5000; ++i) {
      // Sparse and dense masks, and single lanes.
      const LaneMask lanes = i % 3 == 0   ? rng()
                             : i % 3 == 1 ? (rng() & rng() & rng())
                                          : 1u << (rng() % 32);
      INFO("lanes " << lanes);
      REQUIRE(map.slices_of(lanes) == slices_by_lane(lanes, slices));
      const uint32_t slice_bits = rng() & map.all();
      REQUIRE(map.lanes_of(slice_bits) == lanes_by_slice(slice_bits, slices));
    }
  }
}

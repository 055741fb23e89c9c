#include "modules/ltrf/ltrf_vectors.h"

#include "modules/ltrf/address_allocation.h"

namespace warpreg {

namespace {

uint64_t next_random(uint64_t& state) {
  // splitmix64: the same sequence on every platform.
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

nlohmann::json aau_vectors(uint64_t seed, uint32_t steps, uint32_t slots) {
  AddressAllocationUnit aau(slots);
  uint64_t state = seed;
  nlohmann::json out;
  out["block"] = "ltrf address allocation unit";
  out["doc"] = "docs/blocks/ltrf.md";
  out["slots"] = slots;
  out["seed"] = seed;
  nlohmann::json list = nlohmann::json::array();
  for (uint32_t i = 0; i < steps; ++i) {
    const uint64_t r = next_random(state);
    // The first slots + 2 steps fill the unit and try twice more (the "empty" answer);
    // then a random walk deallocates more often the fuller the unit is.
    const bool allocate =
        i < slots + 2 || aau.occupied_slots() == 0 || (r % slots) >= aau.occupied_slots();
    nlohmann::json step;
    if (allocate) {
      const uint32_t got = aau.allocate();
      step["op"] = "allocate";
      step["result"] = got == AddressAllocationUnit::kNone ? -1 : int64_t{got};
    } else {
      const auto& occupied = aau.occupied_queue();
      const uint32_t slot = occupied[(r >> 32) % occupied.size()];
      aau.deallocate(slot);
      step["op"] = "deallocate";
      step["slot"] = slot;
    }
    step["unused"] = aau.unused_queue();
    step["occupied"] = aau.occupied_queue();
    list.push_back(step);
  }
  out["steps"] = list;
  return out;
}

}  // namespace warpreg

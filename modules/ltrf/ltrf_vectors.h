#pragma once
// Golden vectors of LTRF's address allocation unit for RTL test benches
// (`warpreg vectors ltrf`): a seeded sequence of allocations and deallocations driven
// through the C++ core, each with the result and both queues afterwards.
#include <cstdint>
#include <nlohmann/json.hpp>

namespace warpreg {

/// `slots` entries (16: a warp's cache banks; 8: the global warp-offset unit).
nlohmann::json aau_vectors(uint64_t seed = 1, uint32_t steps = 200, uint32_t slots = 16);

}  // namespace warpreg

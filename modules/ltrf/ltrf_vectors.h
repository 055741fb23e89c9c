#pragma once
// Golden vectors of LTRF's address allocation unit for RTL test benches
// (docs/vectors.md#aau): a seeded sequence of allocations and deallocations driven
// through the C++ core, each with the result and both queues afterwards.
#include "common/golden_vectors.h"

namespace warpreg {

/// `aau`: a 16-slot unit (a warp's register-file-cache banks) filled and asked twice
/// more, then a seeded random walk of allocations and deallocations.
vectors::VectorGenerator aau_vector_generator();

}  // namespace warpreg

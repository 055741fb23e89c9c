#pragma once
// Golden vectors of the RFV cores for RTL testbenches (docs/vectors.md#rename-table,
// docs/vectors.md#release-flag-cache): a seeded operation sequence on the renaming table
// or the release flag cache, one record per operation with the response the hardware
// must give.
#include "common/golden_vectors.h"

namespace warpreg {

/// `rename-table`: 4 warps x 16 registers, 64 physical registers in 4 banks, exempt R0
/// and R1; write (map), read (lookup), release, warp exit.
vectors::VectorGenerator rename_table_vector_generator();
/// `release-flag-cache`: 10 entries, 8-byte instructions; probe, fill after a miss.
vectors::VectorGenerator release_flag_cache_vector_generator();

}  // namespace warpreg

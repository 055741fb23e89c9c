#pragma once
// Golden vectors of the RFV cores for RTL testbenches (docs/blocks/rfv.md): a seeded
// operation sequence on the renaming table or the release flag cache, one JSON line
// per operation with the response the hardware must give.
#include <cstdint>
#include <ostream>

namespace warpreg {

/// Renaming table (4 warps x 16 registers, 64 physical registers in 4 banks, exempt
/// R0 and R1): write (map), read (lookup), release, warp exit. Returns operations written.
uint64_t write_rename_table_vectors(std::ostream& out, uint64_t count, uint64_t seed);
/// Release flag cache (10 entries, 8-byte instructions): probe, fill after a miss.
uint64_t write_release_flag_cache_vectors(std::ostream& out, uint64_t count, uint64_t seed);

}  // namespace warpreg

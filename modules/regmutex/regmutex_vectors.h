#pragma once
// Golden vectors of the RegMutex allocator core for RTL testbenches (warpreg vectors regmutex).
#include <cstdint>
#include <ostream>

namespace warpreg::regmutex {

/// CSV: a boundary set (fill the pool, stall, double acquire, double release, release,
/// re-acquire) then `count` seeded acquire/release steps on N_w = 48, |B_s| = 18,
/// |E_s| = 6, 26 sections (seed 003's example). Each row: the operation, the warp, the
/// outcome, its section, the SRP bitmask after it, and the physical registers the
/// mapping unit gives the warp's X = 0 and X = |B_s| (-1 without a section).
/// Returns the rows written.
uint64_t write_vectors(std::ostream& out, uint64_t count, uint64_t seed);

}  // namespace warpreg::regmutex

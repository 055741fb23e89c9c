#pragma once
// Golden vectors of the BDI core for RTL testbenches (docs/blocks/bdi.md):
// JSON lines, one warp register each, with the encoding the compressor picks, the
// range-indicator code, the image bytes and the banks it occupies.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "modules/bdi/bdi_core.h"

namespace warpreg::bdi {

struct Vector {
  std::string label;  ///< what the case covers, e.g. "delta +128 in lane 31"
  WarpRegister lanes;
};

/// The fixed boundary set: every encoding, deltas of +-127/128 and +-32767/32768 in
/// the first and last lane, INT_MIN/INT_MAX and 0/0xffffffff wrap-around, thread-index ramps.
std::vector<Vector> boundary_vectors();
/// `count` seeded random registers mixing small-delta, boundary-delta and uniform values.
std::vector<Vector> random_vectors(uint64_t count, uint64_t seed);

/// Writes a header line and then the boundary set followed by `count` random vectors,
/// each checked to round-trip; returns the vectors written.
uint64_t write_vectors(std::ostream& out, uint64_t count, uint64_t seed,
                       Variant variant = Variant::Warped);

}  // namespace warpreg::bdi

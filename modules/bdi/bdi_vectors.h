#pragma once
// Golden vectors of the BDI codec for RTL testbenches (docs/vectors.md#bdi): one record
// per warp register with the range indicator the compressor picks, the banks the image
// occupies and the image, as the compressor's and decompressor's ports carry them.
#include <cstdint>
#include <string>
#include <vector>

#include "common/golden_vectors.h"
#include "modules/bdi/bdi_core.h"

namespace warpreg::bdi {

struct Vector {
  std::string label;  ///< what the case covers, e.g. "delta +128 in lane 31"
  WarpRegister lanes;
};

/// The fixed boundary set: every encoding, deltas of +-127/128 and +-32767/32768 in
/// the first and last lane, INT_MIN/INT_MAX and 0/0xffffffff wrap-around, thread-index ramps.
std::vector<Vector> boundary_vectors();

/// Seeded random registers mixing small-delta, boundary-delta and uniform values, one
/// at a time (a file of any length needs no memory for them).
class RandomVectors {
 public:
  explicit RandomVectors(uint64_t seed) : rng_(seed) {}
  Vector next();

 private:
  vectors::SplitMix64 rng_;
};

/// `bdi` (Variant::Warped, the paper's codec) or `bdi-original` (Variant::Original):
/// the boundary set, then `count` random registers, each checked to round-trip.
vectors::VectorGenerator vector_generator(Variant variant);

}  // namespace warpreg::bdi

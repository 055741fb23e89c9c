// `warpreg vectors bdi|bdi-original`: every record is the core's answer for its register,
// the boundary set comes first and every encoding appears.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "modules/bdi/bdi_vectors.h"

using namespace warpreg;
using namespace warpreg::bdi;

namespace {

/// A 1024-bit "0x" hex field as a register (lane 0 in the least significant bits).
WarpRegister register_of(const std::string& hex) {
  REQUIRE(hex.size() == 2 + 256);
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i)
    r.lane[i] = static_cast<uint32_t>(std::stoul(hex.substr(2 + 8 * (31 - i), 8), nullptr, 16));
  return r;
}

}  // namespace

TEST_CASE("bdi vectors: each record is the compressor's and decompressor's answer",
          "[bdi][vectors]") {
  for (Variant variant : {Variant::Warped, Variant::Original}) {
    const vectors::VectorGenerator g = vector_generator(variant);
    INFO("generator " << g.name);
    const auto records = vectors::records_as_json(g, 300, 9);
    const std::vector<Vector> boundary = boundary_vectors();
    REQUIRE(records.size() == boundary.size() + 300);
    const Codec codec(variant);
    std::map<std::string, int> encodings;
    for (size_t i = 0; i < records.size(); ++i) {
      const auto& r = records[i];
      const WarpRegister data = register_of(r["data"]);
      if (i < boundary.size()) {
        CHECK(data == boundary[i].lanes);
        CHECK(r["case"] == boundary[i].label);
      }
      const Compressed c = codec.compress(data);
      CHECK(r["indicator"] == codec.indicator_of(c.encoding));
      CHECK(r["encoding"] == c.encoding.name());
      CHECK(r["banks"] == c.banks());
      const WarpRegister image = register_of(r["image"]);
      CHECK(image == image_as_register(c));
      CHECK(unpack(image_from_register(image, codec.encoding_of(r["indicator"]))) == data);
      ++encodings[r["encoding"]];
    }
    // (The original search's <8,2> and <8,4> are never the smallest on these registers.)
    const Codec warped(Variant::Warped);
    for (Encoding e : warped.choices()) CHECK(encodings[e.name()] > 0);
    CHECK(encodings["uncompressed"] > 0);
  }
}

TEST_CASE("bdi vectors: the random registers are a stream of the seed", "[bdi][vectors]") {
  RandomVectors a(4), b(4), c(5);
  for (int i = 0; i < 50; ++i) {
    const Vector x = a.next();
    CHECK(x.lanes == b.next().lanes);
    CHECK(x.lanes != c.next().lanes);
    CHECK(x.label.rfind("random: ", 0) == 0);
  }
}

// BDI core (no SystemC): Table 1 sizes, boundary deltas, the packing bit by bit,
// round trips over a million random and adversarial registers, the variants.
#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "modules/bdi/bdi_core.h"

using namespace warpreg;
using namespace warpreg::bdi;

namespace {

WarpRegister splat(uint32_t v) {
  WarpRegister r;
  r.lane.fill(v);
  return r;
}

WarpRegister with_delta(uint32_t base, unsigned lane, int64_t delta) {
  WarpRegister r = splat(base);
  r.lane[lane] = base + static_cast<uint32_t>(delta);
  return r;
}

uint64_t next(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Random and adversarial registers: uniform, equal, deltas at and just past every
/// class edge (in random lanes), wrap-around bases, thread-index ramps.
WarpRegister adversarial(uint64_t& s) {
  static const int64_t edges[] = {
      0, 1, -1, 127, -128, 128, -129, 32767, -32768, 32768, -32769, 0x7fffffff, -0x7fffffffll - 1};
  static const uint32_t bases[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7fffff80u};
  const uint64_t kind = next(s) % 8;
  const uint64_t x = next(s);
  const uint32_t base = (x & 1) ? static_cast<uint32_t>(x >> 32) : bases[(x >> 1) % 6];
  WarpRegister r = splat(base);
  switch (kind) {
    case 0:
      for (uint32_t& l : r.lane) l = static_cast<uint32_t>(next(s));
      break;
    case 1:
      break;
    case 2:  // small deltas
      for (unsigned i = 1; i < kWarpSize; ++i)
        r.lane[i] = base + uint32_t(int32_t(next(s) % 256) - 128);
      break;
    case 3:  // medium deltas
      for (unsigned i = 1; i < kWarpSize; ++i)
        r.lane[i] = base + uint32_t(int32_t(next(s) % 65536) - 32768);
      break;
    case 4:  // edge deltas in a few random lanes
      for (int k = 0; k < 3; ++k) {
        const uint64_t y = next(s);
        r.lane[1 + y % 31] = base + static_cast<uint32_t>(edges[(y >> 8) % 13]);
      }
      break;
    case 5: {  // thread-index ramp with a random stride
      const uint32_t stride = static_cast<uint32_t>(next(s) % 4096) - 2048u;
      for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = base + stride * i;
      break;
    }
    case 6: {  // 64-bit pairs: odd lanes equal, even lanes ramp or equal (original BDI <8,*>)
      const uint32_t step = static_cast<uint32_t>(next(s) % 3);
      for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = i % 2 ? base : base + 1 + step * i;
      break;
    }
    default:  // half-word structure (original BDI <2,1>)
      for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = 0x00010001u * (base % 200 + i % 7);
      break;
  }
  return r;
}

}  // namespace

TEST_CASE("bdi: compressed sizes and banks follow seed 001 Table 1", "[bdi][core]") {
  struct Row {
    uint8_t base, delta;
    unsigned bytes, banks;
  };
  for (const Row& row :
       {Row{1, 0, 1, 1}, Row{2, 1, 65, 5}, Row{4, 0, 4, 1}, Row{4, 1, 35, 3}, Row{4, 2, 66, 5},
        Row{8, 0, 8, 1}, Row{8, 1, 23, 2}, Row{8, 2, 38, 3}, Row{8, 4, 68, 5}}) {
    const Encoding e{row.base, row.delta};
    INFO(e.name());
    CHECK(e.bytes() == row.bytes);
    CHECK(e.banks() == row.banks);
  }
  CHECK(kUncompressed.bytes() == 128);
  CHECK(kUncompressed.banks() == 8);
}

TEST_CASE("bdi: delta boundaries pick the fewest banks", "[bdi][core]") {
  const Codec codec;
  for (unsigned lane : {1u, 17u, 31u})
    for (uint32_t base : {0u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xdeadbeefu}) {
      INFO("lane " << lane << " base " << base);
      CHECK(codec.select(splat(base)) == Encoding{4, 0});
      CHECK(codec.select(with_delta(base, lane, 127)) == Encoding{4, 1});
      CHECK(codec.select(with_delta(base, lane, -128)) == Encoding{4, 1});
      CHECK(codec.select(with_delta(base, lane, 128)) == Encoding{4, 2});
      CHECK(codec.select(with_delta(base, lane, -129)) == Encoding{4, 2});
      CHECK(codec.select(with_delta(base, lane, 32767)) == Encoding{4, 2});
      CHECK(codec.select(with_delta(base, lane, -32768)) == Encoding{4, 2});
      CHECK(codec.select(with_delta(base, lane, 32768)) == kUncompressed);
      CHECK(codec.select(with_delta(base, lane, -32769)) == kUncompressed);
    }
  // The subtractor is 32-bit modular: INT_MAX to INT_MIN is a delta of +1.
  CHECK(codec.select(with_delta(0x7fffffffu, 5, 1)) == Encoding{4, 1});
  WarpRegister wrap = splat(0x80000000u);
  wrap.lane[9] = 0x7fffffffu;
  CHECK(codec.select(wrap) == Encoding{4, 1});
  CHECK(unpack(codec.compress(wrap)) == wrap);
  // Lane 0 is the base: an outlier there makes every other lane differ.
  WarpRegister outlier = splat(5);
  outlier.lane[0] = 0x40000000u;
  CHECK(codec.select(outlier) == kUncompressed);
}

TEST_CASE("bdi: the image layout is base then little-endian deltas then zero padding",
          "[bdi][core]") {
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = 0x12345678u + uint32_t(int32_t(i) - 16);
  const Compressed c = Codec().compress(r);
  REQUIRE(c.encoding == Encoding{4, 1});
  // lane 0 = 0x12345668 is the base
  CHECK(c.bytes[0] == 0x68);
  CHECK(c.bytes[1] == 0x56);
  CHECK(c.bytes[2] == 0x34);
  CHECK(c.bytes[3] == 0x12);
  for (unsigned i = 1; i < kWarpSize; ++i) CHECK(c.bytes[3 + i] == uint8_t(i));
  for (unsigned b = 35; b < 48; ++b) CHECK(c.bytes[b] == 0);

  WarpRegister w = splat(1000);
  w.lane[1] = 700;     // delta -300 = 0xfed4
  w.lane[31] = 33767;  // delta +32767 = 0x7fff
  const Compressed c2 = pack(w, Encoding{4, 2});
  CHECK(c2.bytes[4] == 0xd4);
  CHECK(c2.bytes[5] == 0xfe);
  CHECK(c2.bytes[64] == 0xff);
  CHECK(c2.bytes[65] == 0x7f);
  for (unsigned b = 66; b < 80; ++b) CHECK(c2.bytes[b] == 0);

  // The image sits in the first banks x 16 bytes of a register (lane b / 4).
  const WarpRegister stored = image_as_register(c);
  CHECK(stored.lane[0] == 0x12345668u);
  CHECK(stored.lane[1] == 0x04030201u);
  const Compressed back = image_from_register(stored, c.encoding);
  CHECK(back.bytes == c.bytes);
  CHECK_THROWS_AS(pack(w, Encoding{4, 1}), std::invalid_argument);
}

TEST_CASE("bdi: a million random and adversarial registers round-trip", "[bdi][core][property]") {
  const Codec codec;
  uint64_t state = 0x5eed;
  uint64_t per_class[5] = {};
  const auto t0 = std::chrono::steady_clock::now();
  for (int n = 0; n < 1000000; ++n) {
    const WarpRegister r = adversarial(state);
    const Compressed c = codec.compress(r);
    // The fast comparator path agrees with the generic sign-extension check, and
    // the choice is the first (fewest banks) that fits.
    Encoding want = kUncompressed;
    for (Encoding e : codec.choices())
      if (fits(r, e)) {
        want = e;
        break;
      }
    // The compressor's and decompressor's in-place paths: the same image, the same
    // register back.
    WarpRegister in_place = r;
    const Encoding in_place_encoding = codec.compress_in_place(in_place);
    const bool same_image = in_place_encoding == c.encoding &&
                            in_place == (c.encoding.compressed() ? image_as_register(c) : r);
    unpack_in_place(in_place, c.encoding);
    if (c.encoding != want || unpack(c) != r || !same_image || in_place != r) {
      FAIL("register " << n << " (lane 0 = " << r.lane[0] << ") encoded " << c.encoding.name()
                       << ", expected " << want.name());
    }
    ++per_class[codec.indicator_of(c.encoding)];
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("1M round trips in " << seconds << " s");
  for (unsigned k = 0; k < 4; ++k) CHECK(per_class[k] > 10000);  // every encoding exercised
}

namespace {

/// The image layout of bdi_core.h, byte by byte from the chunks: the reference the
/// codec's per-encoding fast paths must match.
std::array<uint8_t, kWarpRegisterBytes> reference_image(const WarpRegister& r, Encoding e) {
  std::array<uint8_t, kWarpRegisterBytes> out{};
  const auto byte = [&r](unsigned b) { return uint8_t(r.lane[b / 4] >> (8 * (b % 4))); };
  const auto chunk = [&](unsigned i) {
    uint64_t v = 0;
    for (unsigned k = 0; k < e.base; ++k) v |= uint64_t(byte(i * e.base + k)) << (8 * k);
    return v;
  };
  unsigned at = 0;
  const uint64_t base = chunk(0);
  for (unsigned k = 0; k < e.base; ++k) out[at++] = uint8_t(base >> (8 * k));
  for (unsigned i = 1; i < kWarpRegisterBytes / e.base; ++i) {
    const uint64_t d = chunk(i) - base;
    for (unsigned k = 0; k < e.delta; ++k) out[at++] = uint8_t(d >> (8 * k));
  }
  return out;
}

}  // namespace

TEST_CASE("bdi: pack and unpack match the byte-by-byte layout for every encoding",
          "[bdi][core][property]") {
  // Every <base, delta> the decompressor accepts, including the <4,Y> ones the codec
  // handles without a loop per byte.
  std::vector<Encoding> encodings;
  for (uint8_t base : {2, 4, 8})
    for (uint8_t delta = 0; delta < base; ++delta) encodings.push_back({base, delta});
  uint64_t state = 0xb1d;
  std::array<uint64_t, 16> packed{};
  for (int n = 0; n < 200000; ++n) {
    const WarpRegister r = adversarial(state);
    for (size_t k = 0; k < encodings.size(); ++k) {
      const Encoding e = encodings[k];
      if (!fits(r, e)) continue;
      INFO("register " << n << ", encoding " << e.name());
      const Compressed c = pack(r, e);
      REQUIRE(c.bytes == reference_image(r, e));
      Compressed image;
      image.encoding = e;
      image.bytes = reference_image(r, e);
      REQUIRE(unpack(image) == r);
      ++packed[k];
    }
  }
  for (size_t k = 0; k < encodings.size(); ++k) {
    INFO(encodings[k].name());
    CHECK(packed[k] > 0);
  }
}

TEST_CASE("bdi: every variant's choices round-trip", "[bdi][core][property]") {
  for (Variant v : {Variant::Only4_0, Variant::Only4_1, Variant::Only4_2, Variant::Original}) {
    const Codec codec(v);
    INFO(to_string(v));
    uint64_t state = 42;
    std::vector<uint64_t> used(codec.choices().size() + 1, 0);
    for (int n = 0; n < 100000; ++n) {
      const WarpRegister r = adversarial(state);
      const Compressed c = codec.compress(r);
      REQUIRE(unpack(c) == r);
      // Nothing smaller fits.
      for (Encoding e : codec.choices())
        if (e.bytes() < c.encoding.bytes()) REQUIRE_FALSE(fits(r, e));
      ++used[codec.indicator_of(c.encoding)];
    }
    for (size_t k = 0; k < used.size(); ++k) {
      INFO("indicator " << k);
      CHECK(used[k] > 0);
    }
  }
  CHECK(Codec(Variant::Warped).indicator_bits() == 2);
  CHECK(Codec(Variant::Only4_1).indicator_bits() == 1);
  CHECK(Codec(Variant::Original).indicator_bits() == 4);
  // A single <4,1> choice also stores equal lanes in three banks (seed 001 §6.6).
  CHECK(Codec(Variant::Only4_1).select(splat(7)) == Encoding{4, 1});
  CHECK(Codec(Variant::Only4_0).select(with_delta(7, 3, 1)) == kUncompressed);
  CHECK(variant_from_string("only_4_2") == Variant::Only4_2);
  CHECK_THROWS_AS(variant_from_string("4_2"), std::invalid_argument);
}

#include "modules/bdi/bdi_vectors.h"

#include <cstdio>
#include <stdexcept>

namespace warpreg::bdi {

namespace {

WarpRegister splat(uint32_t v) {
  WarpRegister r;
  r.lane.fill(v);
  return r;
}

std::string hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

}  // namespace

std::vector<Vector> boundary_vectors() {
  std::vector<Vector> v;
  const uint32_t bases[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x12345678u};
  const int64_t deltas[] = {127, -128, 128, -129, 32767, -32768, 32768, -32769};
  for (uint32_t base : bases) {
    v.push_back({"all lanes equal to " + hex32(base), splat(base)});
    for (int64_t d : deltas)
      for (unsigned lane : {1u, 31u}) {
        WarpRegister r = splat(base);
        r.lane[lane] = static_cast<uint32_t>(base + static_cast<uint32_t>(d));
        v.push_back({"base " + hex32(base) + ", delta " + std::to_string(d) + " in lane " +
                         std::to_string(lane),
                     r});
      }
  }
  // Wrap-around: the 32-bit subtractor works modulo 2^32.
  const std::pair<uint32_t, uint32_t> wraps[] = {
      {0x7fffffffu, 0x80000000u},           {0x80000000u, 0x7fffffffu},
      {0xffffffffu, 0x00000000u},           {0x00000000u, 0xffffffffu},
      {0x7fffffffu, 0x8000007eu},           {0x7fffffffu, 0x8000007fu},
      {0x80000000u, 0x7fff8000u},           {0x80000000u, 0x7fff7fffu},
      {0x7fffffffu, 0x80000000u + 0x7ffeu}, {0x7fffffffu, 0x80000000u + 0x7fffu}};
  for (auto [base, other] : wraps) {
    WarpRegister r = splat(base);
    for (unsigned lane = 1; lane < kWarpSize; lane += 2) r.lane[lane] = other;
    v.push_back({"wrap-around: base " + hex32(base) + ", odd lanes " + hex32(other), r});
  }
  // Thread-index ramps (seed 001 §3: values computed from the thread index).
  for (uint32_t step : {1u, 4u, 8u, 1024u, 1057u, 2048u})
    for (int sign : {1, -1}) {
      WarpRegister r;
      for (unsigned i = 0; i < kWarpSize; ++i)
        r.lane[i] = 0x1000u + static_cast<uint32_t>(sign) * step * i;
      v.push_back({"ramp lane i = 0x1000 " + std::string(sign > 0 ? "+ " : "- ") +
                       std::to_string(step) + " x i",
                   r});
    }
  // Chunk patterns the original BDI's <8,*> and <2,1> choices catch.
  {
    WarpRegister r;
    for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = i % 2 ? 0xdeadbeefu : 0x00001000u + i;
    v.push_back({"pairs: even lanes ramp, odd lanes constant", r});
    WarpRegister h;
    for (unsigned i = 0; i < kWarpSize; ++i) h.lane[i] = 0x00400040u + 0x00010001u * i;
    v.push_back({"half-word ramp in both halves", h});
  }
  return v;
}

Vector RandomVectors::next() {
  const int64_t edges[] = {127, -128, 128, -129, 32767, -32768, 32768, -32769, 0};
  const uint64_t kind = rng_.next() % 6;
  const uint32_t base = static_cast<uint32_t>(rng_.next());
  Vector v;
  WarpRegister& r = v.lanes;
  for (unsigned i = 0; i < kWarpSize; ++i) {
    const uint64_t x = rng_.next();
    switch (kind) {
      case 0:
        r.lane[i] = static_cast<uint32_t>(x);
        break;
      case 1:
        r.lane[i] = base;
        break;
      case 2:
        r.lane[i] = base + static_cast<uint32_t>(int32_t(x % 256) - 128);
        break;
      case 3:
        r.lane[i] = base + static_cast<uint32_t>(int32_t(x % 65536) - 32768);
        break;
      case 4:
        r.lane[i] = base + static_cast<uint32_t>(edges[x % 9]);
        break;
      default:
        r.lane[i] = base + static_cast<uint32_t>(x % 16);
        break;
    }
  }
  static const char* const labels[] = {"random: uniform",
                                       "random: equal lanes",
                                       "random: deltas in [-128, 127]",
                                       "random: deltas in [-32768, 32767]",
                                       "random: boundary deltas",
                                       "random: one outlier lane"};
  v.label = labels[kind];
  if (kind == 5) {
    // The value is drawn before the lane (the order C++17 gives `lane[f()] = g()`).
    const auto outlier = static_cast<uint32_t>(rng_.next());
    r.lane[1 + rng_.next() % 31] = outlier;
  }
  r.lane[0] = kind == 0 ? r.lane[0] : base;
  return v;
}

namespace {

constexpr uint32_t kCompressorLatency = 2;    // seed 001 Table 2
constexpr uint32_t kDecompressorLatency = 1;  // seed 001 Table 2

void write_steps(vectors::RecordSink& out, uint64_t count, uint64_t seed, Variant variant) {
  const Codec codec(variant);
  uint64_t index = 0;
  const auto emit = [&](const Vector& vec) {
    const Compressed c = codec.compress(vec.lanes);
    if (unpack(c) != vec.lanes)
      throw std::logic_error("BDI vector " + std::to_string(index) + " does not round-trip");
    WarpRegister image = image_as_register(c);
    // The image's bytes beyond its banks are zero (the core leaves them so).
    vectors::Record& r = out.next();
    r.set_text("case", vec.label);
    r.set_words("data", vec.lanes.lane.data(), kWarpSize);
    r.set("indicator", codec.indicator_of(c.encoding));
    r.set_text("encoding", c.encoding.name());
    r.set("banks", c.banks());
    r.set_words("image", image.lane.data(), kWarpSize);
    out.emit();
    ++index;
  };
  for (const Vector& vec : boundary_vectors()) emit(vec);
  RandomVectors random(seed);
  for (uint64_t n = 0; n < count; ++n) emit(random.next());
}

}  // namespace

vectors::VectorGenerator vector_generator(Variant variant) {
  const Codec codec(variant);
  const bool warped = variant == Variant::Warped;
  vectors::VectorGenerator g;
  g.name = warped ? "bdi" : "bdi-" + std::string(to_string(variant));
  g.block = "bdi-codec";
  g.description =
      warped ? "Warped-Compression BDI compressor and decompressor (<4,0>, <4,1>, <4,2>): 32 "
               "lanes -> range indicator, banks, image"
             : "the original BDI search (<4,*>, <8,*>, <2,1>, smallest image) on the same inputs "
               "(no RTL)";
  g.doc = "docs/vectors.md#bdi";
  g.count_meaning = "random registers after the fixed boundary set of " +
                    std::to_string(boundary_vectors().size());
  nlohmann::ordered_json choices = nlohmann::ordered_json::array();
  for (Encoding e : codec.choices()) choices.push_back(e.name());
  g.parameters = {{"variant", to_string(variant)},
                  {"lanes", kWarpSize},
                  {"lane_bits", 32},
                  {"bank_bytes", kBankBytes},
                  {"indicator_bits", codec.indicator_bits()},
                  {"choices", std::move(choices)},
                  {"compressor_latency", kCompressorLatency},
                  {"decompressor_latency", kDecompressorLatency}};
  g.fields = {vectors::text_field("case"),
              vectors::unsigned_field("data", 32 * kWarpSize),
              vectors::unsigned_field("indicator", codec.indicator_bits()),
              vectors::text_field("encoding"),
              vectors::unsigned_field("banks", 4),
              vectors::unsigned_field("image", 32 * kWarpSize)};
  const uint64_t fixed = boundary_vectors().size();
  g.records = [fixed](uint64_t count) { return fixed + count; };
  g.write = [variant](vectors::RecordSink& out, uint64_t count, uint64_t seed) {
    write_steps(out, count, seed, variant);
  };
  return g;
}

}  // namespace warpreg::bdi

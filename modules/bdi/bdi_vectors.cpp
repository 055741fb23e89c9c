#include "modules/bdi/bdi_vectors.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace warpreg::bdi {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

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

std::string hex_bytes(const Compressed& c) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned b = 0; b < c.banks() * kBankBytes; ++b) {
    s += digits[c.bytes[b] >> 4];
    s += digits[c.bytes[b] & 15];
  }
  return s;
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

std::vector<Vector> random_vectors(uint64_t count, uint64_t seed) {
  std::vector<Vector> v;
  v.reserve(count);
  uint64_t state = seed;
  const int64_t edges[] = {127, -128, 128, -129, 32767, -32768, 32768, -32769, 0};
  for (uint64_t n = 0; n < count; ++n) {
    const uint64_t kind = splitmix64(state) % 6;
    const uint32_t base = static_cast<uint32_t>(splitmix64(state));
    WarpRegister r;
    std::string label;
    for (unsigned i = 0; i < kWarpSize; ++i) {
      const uint64_t x = splitmix64(state);
      switch (kind) {
        case 0:
          label = "random: uniform";
          r.lane[i] = static_cast<uint32_t>(x);
          break;
        case 1:
          label = "random: equal lanes";
          r.lane[i] = base;
          break;
        case 2:
          label = "random: deltas in [-128, 127]";
          r.lane[i] = base + static_cast<uint32_t>(int32_t(x % 256) - 128);
          break;
        case 3:
          label = "random: deltas in [-32768, 32767]";
          r.lane[i] = base + static_cast<uint32_t>(int32_t(x % 65536) - 32768);
          break;
        case 4:
          label = "random: boundary deltas";
          r.lane[i] = base + static_cast<uint32_t>(edges[x % 9]);
          break;
        default:
          label = "random: one outlier lane";
          r.lane[i] = base + static_cast<uint32_t>(x % 16);
          break;
      }
    }
    if (kind == 5) r.lane[1 + splitmix64(state) % 31] = static_cast<uint32_t>(splitmix64(state));
    r.lane[0] = kind == 0 ? r.lane[0] : base;
    v.push_back({label, r});
  }
  return v;
}

uint64_t write_vectors(std::ostream& out, uint64_t count, uint64_t seed, Variant variant) {
  const Codec codec(variant);
  std::vector<Vector> all = boundary_vectors();
  const size_t fixed = all.size();
  for (Vector& r : random_vectors(count, seed)) all.push_back(std::move(r));
  nlohmann::json header = {
      {"generator", "bdi"},
      {"variant", to_string(variant)},
      {"seed", seed},
      {"boundary_vectors", fixed},
      {"random_vectors", count},
      {"format",
       "one JSON object per line: lanes = 32 hex words (lane 0 first); encoding <base,delta> "
       "or uncompressed; indicator = range-indicator code; bytes = image length; banks = "
       "16-byte banks; image = banks x 16 bytes in hex, byte 0 first (docs/blocks/bdi.md)"}};
  out << header.dump() << '\n';
  uint64_t index = 0;
  for (const Vector& vec : all) {
    const Compressed c = codec.compress(vec.lanes);
    if (unpack(c) != vec.lanes)
      throw std::logic_error("BDI vector " + std::to_string(index) + " does not round-trip");
    nlohmann::json lanes = nlohmann::json::array();
    for (uint32_t l : vec.lanes.lane) lanes.push_back(hex32(l));
    nlohmann::json line = {{"index", index++},
                           {"case", vec.label},
                           {"lanes", std::move(lanes)},
                           {"encoding", c.encoding.name()},
                           {"indicator", codec.indicator_of(c.encoding)},
                           {"bytes", c.encoding.bytes()},
                           {"banks", c.banks()},
                           {"image", hex_bytes(c)}};
    out << line.dump() << '\n';
  }
  return index;
}

}  // namespace warpreg::bdi

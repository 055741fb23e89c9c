#include "modules/bdi/bdi_core.h"

#include <climits>
#include <cstring>
#include <stdexcept>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace warpreg::bdi {

namespace {

// Byte b of a register is byte b % 4 of lane b / 4 (little endian); on a
// little-endian host that is the lanes' memory order and bytes copy in one go.
constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

uint8_t byte_of(const WarpRegister& r, unsigned b) {
  return static_cast<uint8_t>(r.lane[b / 4] >> (8 * (b % 4)));
}

void set_byte(WarpRegister& r, unsigned b, uint8_t v) {
  const unsigned shift = 8 * (b % 4);
  r.lane[b / 4] = (r.lane[b / 4] & ~(0xffu << shift)) | (uint32_t(v) << shift);
}

uint64_t width_mask(unsigned bytes) {
  return bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
}

/// Chunk i of `bytes` bytes, little endian.
uint64_t chunk(const WarpRegister& r, unsigned i, unsigned bytes) {
  switch (bytes) {
    case 4:
      return r.lane[i];
    case 8:
      return uint64_t(r.lane[2 * i]) | uint64_t(r.lane[2 * i + 1]) << 32;
    default: {
      uint64_t v = 0;
      for (unsigned k = 0; k < bytes; ++k) v |= uint64_t(byte_of(r, i * bytes + k)) << (8 * k);
      return v;
    }
  }
}

void copy_out(const WarpRegister& r, uint8_t* out, unsigned bytes) {
  if (kLittleEndianHost) {
    std::memcpy(out, r.lane.data(), bytes);
    return;
  }
  for (unsigned b = 0; b < bytes; ++b) out[b] = byte_of(r, b);
}

void copy_in(WarpRegister& r, const uint8_t* in, unsigned bytes) {
  if (kLittleEndianHost) {
    std::memcpy(r.lane.data(), in, bytes);
    return;
  }
  for (unsigned b = 0; b < bytes; ++b) set_byte(r, b, in[b]);
}

/// The lanes of a <4, delta> image, delta 0, 1 or 2, from its base `b` and its deltas
/// `d` (Warped-Compression's choices, without a loop per delta byte: the same sums).
void expand_base4(uint32_t b, const uint8_t* d, unsigned delta, WarpRegister& r) {
  r.lane[0] = b;
  switch (delta) {
    case 0:
      for (unsigned i = 1; i < kWarpSize; ++i) r.lane[i] = b;
      return;
    case 1:
      for (unsigned i = 1; i < kWarpSize; ++i)
        r.lane[i] = b + static_cast<uint32_t>(int32_t(int8_t(d[i - 1])));
      return;
    default:
      for (unsigned i = 1; i < kWarpSize; ++i) {
        const uint16_t v = uint16_t(d[2 * (i - 1)] | uint16_t(d[2 * (i - 1) + 1]) << 8);
        r.lane[i] = b + static_cast<uint32_t>(int32_t(int16_t(v)));
      }
      return;
  }
}

void set_chunk(WarpRegister& r, unsigned i, unsigned bytes, uint64_t v) {
  for (unsigned k = 0; k < bytes; ++k)
    set_byte(r, i * bytes + k, static_cast<uint8_t>(v >> (8 * k)));
}

/// The delta (chunk - base, modulo the chunk width) sign-extends from `delta` bytes.
bool delta_fits(uint64_t d, unsigned delta, unsigned base) {
  if (delta == 0) return d == 0;
  const uint64_t half = uint64_t(1) << (8 * delta - 1);
  return ((d + half) & width_mask(base)) < (half << 1);
}

uint64_t sign_extend(uint64_t v, unsigned bytes) {
  const unsigned bits = 8 * bytes;
  if (bits == 0 || bits >= 64) return v;
  const uint64_t sign = uint64_t(1) << (bits - 1);
  return (v ^ sign) - sign;
}

}  // namespace

std::string Encoding::name() const {
  if (!compressed()) return "uncompressed";
  return "<" + std::to_string(base) + "," + std::to_string(delta) + ">";
}

const char* to_string(Variant v) {
  switch (v) {
    case Variant::Warped:
      return "warped";
    case Variant::Only4_0:
      return "only_4_0";
    case Variant::Only4_1:
      return "only_4_1";
    case Variant::Only4_2:
      return "only_4_2";
    case Variant::Original:
      return "original";
  }
  return "?";
}

Variant variant_from_string(const std::string& name) {
  for (Variant v :
       {Variant::Warped, Variant::Only4_0, Variant::Only4_1, Variant::Only4_2, Variant::Original})
    if (name == to_string(v)) return v;
  throw std::invalid_argument("unknown BDI variant '" + name +
                              "' (expected warped, only_4_0, only_4_1, only_4_2 or original)");
}

Codec::Codec(Variant variant) : variant_(variant) {
  switch (variant) {
    case Variant::Warped:
      choices_ = {{4, 0}, {4, 1}, {4, 2}};
      break;
    case Variant::Only4_0:
      choices_ = {{4, 0}};
      break;
    case Variant::Only4_1:
      choices_ = {{4, 1}};
      break;
    case Variant::Only4_2:
      choices_ = {{4, 2}};
      break;
    case Variant::Original:
      choices_ = {{4, 0}, {4, 1}, {4, 2}, {8, 0}, {8, 1}, {8, 2}, {8, 4}, {2, 1}};
      break;
  }
  indicator_bits_ = 0;
  while ((1u << indicator_bits_) < choices_.size() + 1) ++indicator_bits_;
}

uint8_t Codec::indicator_of(Encoding e) const {
  if (!e.compressed()) return 0;
  for (size_t i = 0; i < choices_.size(); ++i)
    if (choices_[i] == e) return static_cast<uint8_t>(i + 1);
  throw std::invalid_argument("encoding " + e.name() + " is not a choice of variant " +
                              to_string(variant_));
}

unsigned delta_class_4(const WarpRegister& value) {
  const uint32_t base = value.lane[0];
  uint32_t any = 0, wide8 = 0, wide16 = 0;
#if defined(__SSE2__)
  // Four lanes at a time, lane 0 included (its delta is 0: no bit, no width). The
  // unsigned comparisons become signed ones with the sign bit flipped.
  const __m128i flip = _mm_set1_epi32(INT32_MIN);
  const __m128i base4 = _mm_set1_epi32(int32_t(base));
  const __m128i limit8 = _mm_set1_epi32(int32_t(0xffu ^ 0x80000000u));
  const __m128i limit16 = _mm_set1_epi32(int32_t(0xffffu ^ 0x80000000u));
  __m128i bits = _mm_setzero_si128(), wide_8 = bits, wide_16 = bits;
  for (unsigned i = 0; i < kWarpSize; i += 4) {
    const __m128i d =
        _mm_sub_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&value.lane[i])), base4);
    bits = _mm_or_si128(bits, d);
    wide_8 = _mm_or_si128(
        wide_8,
        _mm_cmpgt_epi32(_mm_xor_si128(_mm_add_epi32(d, _mm_set1_epi32(0x80)), flip), limit8));
    wide_16 = _mm_or_si128(
        wide_16,
        _mm_cmpgt_epi32(_mm_xor_si128(_mm_add_epi32(d, _mm_set1_epi32(0x8000)), flip), limit16));
  }
  any = _mm_movemask_epi8(_mm_cmpeq_epi32(bits, _mm_setzero_si128())) != 0xffff;
  wide8 = _mm_movemask_epi8(wide_8) != 0;
  wide16 = _mm_movemask_epi8(wide_16) != 0;
#else
  for (unsigned i = 1; i < kWarpSize; ++i) {
    const uint32_t d = value.lane[i] - base;
    any |= d;
    wide8 |= uint32_t(d + 0x80u >= 0x100u);
    wide16 |= uint32_t(d + 0x8000u >= 0x10000u);
  }
#endif
  return any == 0 ? 0 : !wide8 ? 1 : !wide16 ? 2 : 4;
}

bool fits(const WarpRegister& value, Encoding e) {
  if (!e.compressed()) return true;
  const unsigned chunks = kWarpRegisterBytes / e.base;
  const uint64_t base = chunk(value, 0, e.base);
  const uint64_t mask = width_mask(e.base);
  for (unsigned i = 1; i < chunks; ++i)
    if (!delta_fits((chunk(value, i, e.base) - base) & mask, e.delta, e.base)) return false;
  return true;
}

Encoding Codec::select(const WarpRegister& value) const {
  if (variant_ == Variant::Warped) {
    const unsigned cls = delta_class_4(value);
    return cls > 2 ? kUncompressed : Encoding{4, static_cast<uint8_t>(cls)};
  }
  Encoding best = kUncompressed;
  for (Encoding e : choices_)
    if (e.bytes() < best.bytes() && fits(value, e)) best = e;
  return best;
}

namespace {

Compressed pack_fitting(const WarpRegister& value, Encoding e) {
  Compressed c;
  c.encoding = e;
  if (!e.compressed()) {
    copy_out(value, c.bytes.data(), kWarpRegisterBytes);
    return c;
  }
  const uint64_t base = chunk(value, 0, e.base);
  const uint64_t mask = width_mask(e.base);
  unsigned at = 0;
  for (unsigned k = 0; k < e.base; ++k) c.bytes[at++] = static_cast<uint8_t>(base >> (8 * k));
  if (e.base == 4 && e.delta <= 2) {
    // Warped-Compression's choices, one lane per chunk: the deltas' low bytes.
    const uint32_t b = value.lane[0];
    if (e.delta == 1) {
      for (unsigned i = 1; i < kWarpSize; ++i)
        c.bytes[at++] = static_cast<uint8_t>(value.lane[i] - b);
    } else if (e.delta == 2) {
      for (unsigned i = 1; i < kWarpSize; ++i) {
        const uint32_t d = value.lane[i] - b;
        c.bytes[at++] = static_cast<uint8_t>(d);
        c.bytes[at++] = static_cast<uint8_t>(d >> 8);
      }
    }
    return c;
  }
  const unsigned chunks = kWarpRegisterBytes / e.base;
  for (unsigned i = 1; i < chunks; ++i) {
    const uint64_t d = (chunk(value, i, e.base) - base) & mask;
    for (unsigned k = 0; k < e.delta; ++k) c.bytes[at++] = static_cast<uint8_t>(d >> (8 * k));
  }
  return c;
}

}  // namespace

Compressed Codec::compress(const WarpRegister& value) const {
  return pack_fitting(value, select(value));
}

namespace {

#if defined(__SSE2__)
/// image_as_register(pack_fitting(r, <4, delta>)) for delta 0, 1 or 2 on a little-endian
/// host, written over `r` four lanes at a time: the deltas' low bytes (delta 1, masked
/// to 0..255) or low halves (delta 2, sign-extended) are packed without saturation into
/// the bytes after lane 0's delta, which the base then overwrites; the rest is zero.
void pack_base4_in_place(WarpRegister& r, unsigned delta) {
  const uint32_t b = r.lane[0];
  const __m128i base = _mm_set1_epi32(int32_t(b));
  __m128i d[kWarpSize / 4];
  for (unsigned k = 0; k < kWarpSize / 4; ++k)
    d[k] = _mm_sub_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&r.lane[4 * k])), base);
  __m128i packed[4];
  unsigned count = 0, at = 0;  // vectors to store, byte offset of lane 0's delta
  if (delta == 1) {
    const __m128i low = _mm_set1_epi32(0xff);
    __m128i halves[4];
    for (unsigned k = 0; k < 4; ++k)
      halves[k] = _mm_packs_epi32(_mm_and_si128(d[2 * k], low), _mm_and_si128(d[2 * k + 1], low));
    packed[0] = _mm_packus_epi16(halves[0], halves[1]);
    packed[1] = _mm_packus_epi16(halves[2], halves[3]);
    count = 2;
    at = 3;
  } else if (delta == 2) {
    for (unsigned k = 0; k < 4; ++k)
      packed[k] = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(d[2 * k], 16), 16),
                                  _mm_srai_epi32(_mm_slli_epi32(d[2 * k + 1], 16), 16));
    count = 4;
    at = 2;
  }
  r.clear();
  for (unsigned k = 0; k < count; ++k)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(r.bytes() + at + 16 * k), packed[k]);
  r.lane[0] = b;
}

/// The inverse of pack_base4_in_place, four lanes at a time: every delta is loaded
/// (from the bytes before lane 0's delta, whose slot the base then takes) before any
/// lane is written, sign-extended to 32 bits and added to the base.
void unpack_base4_in_place(WarpRegister& r, unsigned delta) {
  const uint32_t b = r.lane[0];
  const __m128i base = _mm_set1_epi32(int32_t(b));
  __m128i lanes[kWarpSize / 4];
  const auto widen16 = [&base](__m128i halves, __m128i* out) {
    const __m128i sign = _mm_srai_epi16(halves, 15);
    out[0] = _mm_add_epi32(_mm_unpacklo_epi16(halves, sign), base);
    out[1] = _mm_add_epi32(_mm_unpackhi_epi16(halves, sign), base);
  };
  if (delta == 0) {
    for (__m128i& v : lanes) v = base;
  } else if (delta == 1) {
    __m128i bytes[2];
    for (unsigned k = 0; k < 2; ++k)
      bytes[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r.bytes() + 3 + 16 * k));
    for (unsigned k = 0; k < 2; ++k) {
      const __m128i sign = _mm_cmpgt_epi8(_mm_setzero_si128(), bytes[k]);
      widen16(_mm_unpacklo_epi8(bytes[k], sign), &lanes[4 * k]);
      widen16(_mm_unpackhi_epi8(bytes[k], sign), &lanes[4 * k + 2]);
    }
  } else {
    __m128i halves[4];
    for (unsigned k = 0; k < 4; ++k)
      halves[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r.bytes() + 2 + 16 * k));
    for (unsigned k = 0; k < 4; ++k) widen16(halves[k], &lanes[2 * k]);
  }
  for (unsigned k = 0; k < kWarpSize / 4; ++k)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&r.lane[4 * k]), lanes[k]);
  r.lane[0] = b;
}
#endif

}  // namespace

Encoding Codec::compress_in_place(WarpRegister& value) const {
  const Encoding e = select(value);
  if (!e.compressed()) return e;
#if defined(__SSE2__)
  if (kLittleEndianHost && e.base == 4 && e.delta <= 2) {
    pack_base4_in_place(value, e.delta);
    return e;
  }
#endif
  value = image_as_register(pack_fitting(value, e));
  return e;
}

void unpack_in_place(WarpRegister& image, Encoding e) {
  if (kLittleEndianHost && e.base == 4 && e.delta <= 2) {
#if defined(__SSE2__)
    unpack_base4_in_place(image, e.delta);
#else
    // The deltas are copied out first: lane i's bytes hold later lanes' deltas.
    uint8_t deltas[2 * (kWarpSize - 1)];
    std::memcpy(deltas, image.bytes() + 4, e.delta * (kWarpSize - 1));
    expand_base4(image.lane[0], deltas, e.delta, image);
#endif
    return;
  }
  if (e.compressed()) image = unpack(image_from_register(image, e));
}

Compressed pack(const WarpRegister& value, Encoding e) {
  if (!fits(value, e))
    throw std::invalid_argument("register does not fit BDI encoding " + e.name());
  return pack_fitting(value, e);
}

WarpRegister unpack(const Compressed& c) {
  const Encoding e = c.encoding;
  WarpRegister r;
  if (!e.compressed()) {
    copy_in(r, c.bytes.data(), kWarpRegisterBytes);
    return r;
  }
  unsigned at = 0;
  uint64_t base = 0;
  for (unsigned k = 0; k < e.base; ++k) base |= uint64_t(c.bytes[at++]) << (8 * k);
  const uint64_t mask = width_mask(e.base);
  const unsigned chunks = kWarpRegisterBytes / e.base;
  if (e.base == 4) {
    const uint32_t b = static_cast<uint32_t>(base);
    if (e.delta <= 2) {
      expand_base4(b, c.bytes.data() + at, e.delta, r);
      return r;
    }
    r.lane[0] = b;
    for (unsigned i = 1; i < chunks; ++i) {
      uint64_t d = 0;
      for (unsigned k = 0; k < e.delta; ++k) d |= uint64_t(c.bytes[at++]) << (8 * k);
      r.lane[i] = static_cast<uint32_t>(base + sign_extend(d, e.delta));
    }
    return r;
  }
  set_chunk(r, 0, e.base, base);
  for (unsigned i = 1; i < chunks; ++i) {
    uint64_t d = 0;
    for (unsigned k = 0; k < e.delta; ++k) d |= uint64_t(c.bytes[at++]) << (8 * k);
    set_chunk(r, i, e.base, (base + sign_extend(d, e.delta)) & mask);
  }
  return r;
}

WarpRegister image_as_register(const Compressed& c) {
  WarpRegister r;
  copy_in(r, c.bytes.data(), kWarpRegisterBytes);
  return r;
}

Compressed image_from_register(const WarpRegister& stored, Encoding e) {
  Compressed c;
  c.encoding = e;
  copy_out(stored, c.bytes.data(), e.banks() * kBankBytes);
  return c;
}

}  // namespace warpreg::bdi

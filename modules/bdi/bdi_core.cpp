#include "modules/bdi/bdi_core.h"

#include <cstring>
#include <stdexcept>

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
  for (unsigned i = 1; i < kWarpSize; ++i) {
    const uint32_t d = value.lane[i] - base;
    any |= d;
    wide8 |= uint32_t(d + 0x80u >= 0x100u);
    wide16 |= uint32_t(d + 0x8000u >= 0x10000u);
  }
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
    r.lane[0] = b;
    // Warped-Compression's choices without a loop per delta byte (the same sums).
    const uint8_t* d = c.bytes.data() + at;
    switch (e.delta) {
      case 0:
        for (unsigned i = 1; i < kWarpSize; ++i) r.lane[i] = b;
        return r;
      case 1:
        for (unsigned i = 1; i < kWarpSize; ++i)
          r.lane[i] = b + static_cast<uint32_t>(int32_t(int8_t(d[i - 1])));
        return r;
      case 2:
        for (unsigned i = 1; i < kWarpSize; ++i) {
          const uint16_t v = uint16_t(d[2 * (i - 1)] | uint16_t(d[2 * (i - 1) + 1]) << 8);
          r.lane[i] = b + static_cast<uint32_t>(int32_t(int16_t(v)));
        }
        return r;
      default:
        break;
    }
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

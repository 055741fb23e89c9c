#pragma once
// Base-delta-immediate (BDI) compression of one 128-byte warp register, bit exact
// (seed 001 §4 and §5.1, Figure 7). The register is cut into chunks of `base`
// bytes; the first chunk is the base; every other chunk is stored as its
// difference to the base (modulo 2^(8 x base)) in `delta` bytes when the
// difference sign-extends from `delta` bytes back to the chunk. The compressed
// image (docs/blocks/bdi.md) is packed into 16-byte bank chunks:
//   bytes [0, base)                          the base, little endian
//   bytes [base + (i-1) x delta, ...)        the delta of chunk i (i = 1 .. n-1),
//                                            little endian two's complement
//   the rest of the last 16-byte chunk       zero
// The decompressor is the exact inverse: chunk i = base + sign_extend(delta_i).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/warp_register.h"

namespace warpreg::bdi {

constexpr unsigned kBankBytes = 16;  ///< one register bank entry (128 bit)
constexpr unsigned kUncompressedBanks = kWarpRegisterBytes / kBankBytes;

/// A <base, delta> choice in bytes; base 0 means "stored uncompressed".
struct Encoding {
  uint8_t base = 0;
  uint8_t delta = 0;

  bool compressed() const { return base != 0; }
  /// Bytes of the compressed image: base + delta x (128 / base - 1) (seed 001 eq. 1).
  unsigned bytes() const {
    return compressed() ? base + delta * (kWarpRegisterBytes / base - 1) : kWarpRegisterBytes;
  }
  /// 16-byte banks the image occupies (seed 001 Table 1).
  unsigned banks() const { return (bytes() + kBankBytes - 1) / kBankBytes; }
  /// "<4,1>" or "uncompressed".
  std::string name() const;
  friend bool operator==(Encoding a, Encoding b) { return a.base == b.base && a.delta == b.delta; }
  friend bool operator!=(Encoding a, Encoding b) { return !(a == b); }
};

constexpr Encoding kUncompressed{0, 0};

/// Which <base, delta> choices a compressor tries (seed 001 §4, §6.6).
enum class Variant : uint8_t {
  Warped,    ///< <4,0>, <4,1>, <4,2>: the fewest banks (the paper's default)
  Only4_0,   ///< <4,0> only (scalarisation, Figures 15-16)
  Only4_1,   ///< <4,1> only
  Only4_2,   ///< <4,2> only
  Original,  ///< original BDI: <4,0..2>, <8,0..4>, <2,1>; the smallest image (Figure 5)
};
/// "warped", "only_4_0", "only_4_1", "only_4_2", "original".
const char* to_string(Variant v);
/// Throws std::invalid_argument naming the accepted names.
Variant variant_from_string(const std::string& name);

/// A compressed image: `encoding.bytes()` meaningful bytes, zero to the 16-byte boundary.
struct Compressed {
  Encoding encoding;
  std::array<uint8_t, kWarpRegisterBytes> bytes{};
  unsigned banks() const { return encoding.banks(); }
};

class Codec {
 public:
  explicit Codec(Variant variant = Variant::Warped);

  Variant variant() const { return variant_; }
  /// The choices in the order the range indicator numbers them (code = index + 1;
  /// code 0 = uncompressed).
  const std::vector<Encoding>& choices() const { return choices_; }
  /// Bits of the range indicator: enough for every choice plus "uncompressed".
  unsigned indicator_bits() const { return indicator_bits_; }
  uint8_t indicator_of(Encoding e) const;
  Encoding encoding_of(uint8_t indicator) const {
    return indicator == 0 ? kUncompressed : choices_[indicator - 1u];
  }

  /// The encoding the compressor picks for `value` (kUncompressed when none fits).
  Encoding select(const WarpRegister& value) const;
  /// select() plus packing; an uncompressed result carries the 128 bytes as they are.
  Compressed compress(const WarpRegister& value) const;
  /// The compressor's work in place: `value` becomes image_as_register(compress(value))
  /// when compressed (unchanged otherwise); returns the encoding.
  Encoding compress_in_place(WarpRegister& value) const;

 private:
  Variant variant_;
  std::vector<Encoding> choices_;
  unsigned indicator_bits_;
};

/// True when every chunk's delta to the base sign-extends from `e.delta` bytes.
bool fits(const WarpRegister& value, Encoding e);
/// Packs `value` with `e` (which must fit, else std::invalid_argument).
Compressed pack(const WarpRegister& value, Encoding e);
/// The exact inverse of pack.
WarpRegister unpack(const Compressed& c);

/// unpack(image_from_register(image, e)) written back into `image`: the decompressor's
/// work in place, without building the image and the register as copies.
void unpack_in_place(WarpRegister& image, Encoding e);

/// Smallest delta class (0, 1, 2 bytes, or 4 = none) of the <4,Y> choices for
/// `value`: the sign-extension comparators of seed 001 Figure 7 in one pass.
unsigned delta_class_4(const WarpRegister& value);

/// The image as a register: byte b of the image is byte b of the returned register
/// (lane b / 4, little endian), so the first banks() lane slices of 16 bytes hold it.
WarpRegister image_as_register(const Compressed& c);
/// The inverse of image_as_register for an image with encoding `e`.
Compressed image_from_register(const WarpRegister& stored, Encoding e);

}  // namespace warpreg::bdi

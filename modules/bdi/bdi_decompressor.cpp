#include "modules/bdi/bdi_decompressor.h"

namespace warpreg {

namespace {

struct BdiDecompressorStats : BdiUnitPoolStats {
  BdiDecompressorStats() : BdiUnitPoolStats("wc.bdi_decompressor") {}
};
WARPREG_REGISTER_STATS(BdiDecompressorStats);

const BdiUnitPool::Kind kDecompressor{
    "decompressions",
    "decompressions of one warp register (reads of compressed registers, dummy MOVs)",
    "decompressor_activation", "decompressor_leakage"};

}  // namespace

BdiDecompressor::BdiDecompressor(sc_core::sc_module_name name, const DesignContext& context)
    : BdiUnitPool(name, context, kDecompressor,
                  BdiDecompressorParams(&context.params).decompressors,
                  BdiDecompressorParams(&context.params).decompress_latency),
      params_(&context.params) {}

bool BdiDecompressor::accepts(const BdiImage& image) const {
  // BDI chunks are 2, 4 or 8 bytes with a narrower delta; anything else is no image.
  const bdi::Encoding e = image.encoding;
  if (!e.compressed()) return e.delta == 0;
  return (e.base == 2 || e.base == 4 || e.base == 8) && e.delta < e.base;
}

void BdiDecompressor::operate(WarpRegister& data, BdiImage& image) {
  bdi::unpack_in_place(data, image.encoding);
}

nlohmann::json BdiDecompressor::organisation() const {
  return {{"input", "an image of any BDI encoding (named by the transaction)"},
          {"output", "the 128-byte warp register"}};
}

}  // namespace warpreg

#include "modules/bdi/bdi_compressor.h"

namespace warpreg {

namespace {

struct BdiCompressorStats : BdiUnitPoolStats {
  BdiCompressorStats() : BdiUnitPoolStats("wc.bdi_compressor") {}
};
WARPREG_REGISTER_STATS(BdiCompressorStats);

const BdiUnitPool::Kind kCompressor{"compressions",
                                    "compressions of one warp register (every non-divergent "
                                    "register write)",
                                    "compressor_activation", "compressor_leakage"};

}  // namespace

BdiCompressor::BdiCompressor(sc_core::sc_module_name name, const DesignContext& context)
    : BdiUnitPool(name, context, kCompressor, BdiCompressorParams(&context.params).compressors,
                  BdiCompressorParams(&context.params).compress_latency),
      params_(&context.params),
      codec_(params_.variant) {}

void BdiCompressor::operate(WarpRegister& data, BdiImage& image) {
  image.encoding = codec_.compress_in_place(data);
}

nlohmann::json BdiCompressor::organisation() const {
  nlohmann::json choices = nlohmann::json::array();
  for (const bdi::Encoding e : codec_.choices()) choices.push_back(e.name());
  return {{"variant", params_.variant.text()},
          {"choices", choices},
          {"selection", codec_.variant() == bdi::Variant::Original
                            ? "the smallest image of the choices that fit"
                            : "the first choice that fits (the fewest 16-byte banks)"}};
}

}  // namespace warpreg

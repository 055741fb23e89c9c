#pragma once
// Warped-Compression's compressor units (seed 001 §5.1, Figure 7): a pool of
// wc.compressors pipelined BDI compressors, each taking wc.compress_latency cycles,
// behind a TLM target (the codec protocol of bdi_unit_pool.h): a 128-byte register
// goes in, its image and encoding come back. The codec core is bdi::Codec.
#include "modules/bdi/bdi_unit_pool.h"

namespace warpreg {

/// The compressor pool's parameters (wc.*).
struct BdiCompressorParams : ParamSet {
  explicit BdiCompressorParams(const Params* values = nullptr) : ParamSet("wc", values) {}
  Choice<bdi::Variant> variant{
      this,
      "variant",
      bdi::Variant::Warped,
      {{"warped", bdi::Variant::Warped},
       {"only_4_0", bdi::Variant::Only4_0},
       {"only_4_1", bdi::Variant::Only4_1},
       {"only_4_2", bdi::Variant::Only4_2},
       {"original", bdi::Variant::Original}},
      "BDI <base,delta> choices the compressor tries: warped = <4,0>, <4,1>, <4,2> (the fewest "
      "16-byte banks: 1, 3, 5); only_4_* = that single choice (Figures 15-16); original = the "
      "original BDI search over <4,0..2>, <8,0>, <8,1>, <8,2>, <8,4> and <2,1>, picking the "
      "smallest image (Figure 5; its range indicator needs 4 bits).",
      "seed 001 §4 ('we selected <4,0>, <4,1>, <4,2> as the three fixed choices'), §6.6"};
  Param<uint32_t> compressors{this,
                              "compressors",
                              2,
                              {1, 64},
                              "units",
                              "Compression units per SM; each is pipelined and accepts one warp "
                              "register per cycle.",
                              "seed 001 Table 2: '# Compressors 2'; §5.1"};
  Param<uint32_t> compress_latency{
      this,
      "compress_latency",
      2,
      {0, 64},
      "cycles",
      "Cycles a compression adds between the execution unit and the bank write (non-divergent "
      "writes).",
      "seed 001 Table 2: 'Compression Latency 2 Cycles (varied)'; Figure 20"};
};

class BdiCompressor : public BdiUnitPool {
 public:
  /// Throws TechError naming the block when the technology lacks compressor_activation
  /// or compressor_leakage.
  BdiCompressor(sc_core::sc_module_name name, const DesignContext& context);

  const BdiCompressorParams& params() const { return params_; }
  /// The encodings the units try and how the range indicator numbers them.
  const bdi::Codec& codec() const { return codec_; }

 private:
  void operate(WarpRegister& data, BdiImage& image) override;
  nlohmann::json organisation() const override;
  nlohmann::json parameters() const override { return params_.to_json(); }

  const BdiCompressorParams params_;
  const bdi::Codec codec_;
};

}  // namespace warpreg

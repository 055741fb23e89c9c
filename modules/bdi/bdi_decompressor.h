#pragma once
// Warped-Compression's decompressor units (seed 001 §5, Figure 1): a pool of
// wc.decompressors pipelined BDI decompressors between the banks and the operand
// collectors, each taking wc.decompress_latency cycles, behind a TLM target (the codec
// protocol of bdi_unit_pool.h): an image and its encoding go in, the 128-byte register
// comes back. The codec core is bdi::unpack.
#include "modules/bdi/bdi_unit_pool.h"

namespace warpreg {

/// The decompressor pool's parameters (wc.*).
struct BdiDecompressorParams : ParamSet {
  explicit BdiDecompressorParams(const Params* values = nullptr) : ParamSet("wc", values) {}
  Param<uint32_t> decompressors{this,
                                "decompressors",
                                4,
                                {1, 64},
                                "units",
                                "Decompression units per SM; each is pipelined and accepts one "
                                "warp register per cycle.",
                                "seed 001 Table 2: '# Decompressors 4'; §5.1"};
  Param<uint32_t> decompress_latency{
      this,
      "decompress_latency",
      1,
      {0, 64},
      "cycles",
      "Cycles a decompression adds between the bank read of a compressed register and the "
      "operand collector.",
      "seed 001 Table 2: 'Decompression Latency 1 Cycle (varied)'; Figure 21"};
};

class BdiDecompressor : public BdiUnitPool {
 public:
  /// Throws TechError naming the block when the technology lacks decompressor_activation
  /// or decompressor_leakage.
  BdiDecompressor(sc_core::sc_module_name name, const DesignContext& context);

  const BdiDecompressorParams& params() const { return params_; }

 private:
  bool accepts(const BdiImage& image) const override;
  void operate(WarpRegister& data, BdiImage& image) override;
  nlohmann::json organisation() const override;
  nlohmann::json parameters() const override { return params_.to_json(); }

  const BdiDecompressorParams params_;
};

}  // namespace warpreg

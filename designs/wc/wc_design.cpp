// Warped-Compression (seed 001) as a registered design: the wc stage (range indicators,
// dummy MOVs, bank gating) in the codec slot, with its compressor and decompressor
// blocks (wc.bdi_compressor, wc.bdi_decompressor) as children.
#include "designs/design_registry.h"
#include "designs/wc/wc_stage.h"

namespace warpreg {

void warpreg_register_design_wc(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "wc",
      "Warped-Compression: BDI compressors and decompressors, range indicators, dummy MOVs, "
      "bank gating",
      "seed 001 (Lee et al., ISCA'15)",
      {"register contents (compressed images in the banks)"},
      [](std::vector<ParamSpec>& out) {
        BdiCompressorParams().declare(out);
        BdiDecompressorParams().declare(out);
        BdiUnitEnergyParams().declare(out);
        WcStageParams().declare(out);
      },
      [](DesignAssembly& assembly) {
        assembly.add_stage<WcStage>(PathSlot::Codec, "wc", assembly.context());
      },
      {"bdi"}});
}

}  // namespace warpreg

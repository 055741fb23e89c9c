// Warped-Compression (seed 001) as a registered design.
#include "designs/design_registry.h"
#include "designs/wc/wc_stage.h"

namespace warpreg {

void declare_bdi_params(std::vector<ParamSpec>& out);

void warpreg_register_design_wc(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "wc",
      "Warped-Compression: BDI compressors and decompressors, range indicators, dummy MOVs, "
      "bank gating",
      "seed 001 (Lee et al., ISCA'15)",
      {"register contents (compressed images in the banks)"},
      declare_bdi_params,
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        assembly.add_stage<WcStage>(PathSlot::Codec, "wc", WcStageConfig::from(c.params), c.tech,
                                    c.clock);
      },
      {"bdi"}});
}

}  // namespace warpreg

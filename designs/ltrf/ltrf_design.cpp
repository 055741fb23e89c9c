// LTRF (seed 004) as a registered design: its stage in the cache slot, and the main
// register-file technology it makes of the SM's register file.
#include "designs/design_registry.h"
#include "designs/ltrf/ltrf_stage.h"

namespace warpreg {

void warpreg_register_design_ltrf(DesignRegistry& registry) {
  DesignSpec spec{
      "ltrf",
      "LTRF: address allocation unit, warp control block, register-file cache, slow main "
      "register file, PREFETCH",
      "seed 004 (Sadrosadati et al., ASPLOS'18)",
      // The warp control blocks name registers by (warp, architected register) and the
      // PREFETCH fills a working set by those names: no translation may come first.
      {"register names (architected -> physical mapping)"},
      [](std::vector<ParamSpec>& out) {
        LtrfParams().declare(out);
        MainRfParams().declare(out);
        RegisterFileCacheParams().declare(out);
        AddressAllocationParams().declare(out);
      },
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        assembly.add_stage<LtrfStage>(PathSlot::Cache, "ltrf", LtrfConfig::from(c), c);
      },
      {"aau"}};
  spec.regfile_technology = [](const Params& params) {
    return main_rf_regfile_technology(MainRfParams(&params));
  };
  registry.add(std::move(spec));
}

}  // namespace warpreg

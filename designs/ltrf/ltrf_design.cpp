// LTRF (seed 004) as a registered design.
#include "designs/design_registry.h"
#include "designs/ltrf/ltrf_stage.h"

namespace warpreg {

void declare_ltrf_params(std::vector<ParamSpec>& out);

void warpreg_register_design_ltrf(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "ltrf",
      "LTRF: address allocation unit, warp control block, register-file cache, slow main "
      "register file, PREFETCH",
      "seed 004 (Sadrosadati et al., ASPLOS'18)",
      {"register names (architected -> physical mapping)"},
      declare_ltrf_params,
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        assembly.add_stage<LtrfStage>(PathSlot::Cache, "ltrf", LtrfConfig::from(c.params, c), c);
      },
      {"aau"}});
}

}  // namespace warpreg

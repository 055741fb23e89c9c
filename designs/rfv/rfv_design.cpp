// GPU register file virtualization (seed 000) as a registered design.
#include "designs/design_registry.h"
#include "designs/rfv/rfv_stage.h"

namespace warpreg {

void warpreg_register_design_rfv(DesignRegistry& registry) {
  registry.add(
      DesignSpec{"rfv",
                 "GPU register file virtualization: renaming table, release flag cache, register "
                 "balance throttle, sub-array gating",
                 "seed 000 (Jeon et al., MICRO'15)",
                 {"register names (architected -> physical mapping)"},
                 [](std::vector<ParamSpec>& out) {
                   RfvParams().declare(out);
                   RenamingTableParams().declare(out);
                   ReleaseFlagCacheParams().declare(out);
                 },
                 [](DesignAssembly& assembly) {
                   assembly.add_stage<RfvStage>(PathSlot::Translation, "rfv", assembly.context());
                 },
                 {"rename-table", "release-flag-cache"}});
}

}  // namespace warpreg

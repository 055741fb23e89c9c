// RegMutex (seed 003) as a registered design.
#include "designs/design_registry.h"
#include "designs/regmutex/regmutex_stage.h"

namespace warpreg {

void warpreg_register_design_regmutex(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "regmutex",
      "RegMutex: shared-register-pool allocator, base/extended mapping, paired warps, OWF",
      "seed 003 (Khorasani et al., RegMutex)",
      {"register names (architected -> physical mapping)"},
      [](std::vector<ParamSpec>& out) { RegMutexParams().declare(out); },
      [](DesignAssembly& assembly) {
        assembly.add_stage<RegMutexStage>(PathSlot::Translation, "regmutex", assembly.context());
      },
      {"regmutex"}});
}

}  // namespace warpreg

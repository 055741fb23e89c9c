// RegMutex (seed 003) as a registered design.
#include "designs/design_registry.h"
#include "designs/regmutex/regmutex_stage.h"

namespace warpreg {

void declare_regmutex_params(std::vector<ParamSpec>& out);

void warpreg_register_design_regmutex(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "regmutex",
      "RegMutex: shared-register-pool allocator, base/extended mapping, paired warps, OWF",
      "seed 003 (Khorasani et al., RegMutex)",
      {"register names (architected -> physical mapping)"},
      declare_regmutex_params,
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        assembly.add_stage<RegMutexStage>(PathSlot::Translation, "regmutex",
                                          RegMutexConfig::from(c.params), c);
      },
      {"regmutex"}});
}

}  // namespace warpreg

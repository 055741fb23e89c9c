// The Warped Register File (seed 002) as two registered designs, TRIC and COMA, that
// run alone or together.
#include <string>

#include "designs/design_registry.h"
#include "modules/wrf/coma_module.h"
#include "modules/wrf/tric_module.h"

namespace warpreg {

void declare_wrf_params(std::vector<ParamSpec>& out);

namespace {

// The WRF declarations whose names start with `prefix`.
ParamDeclarations wrf_params_named(std::string prefix) {
  return [prefix](std::vector<ParamSpec>& out) {
    std::vector<ParamSpec> all;
    declare_wrf_params(all);
    for (ParamSpec& spec : all)
      if (spec.name.rfind(prefix, 0) == 0) out.push_back(std::move(spec));
  };
}

// TRIC wakes a register's entry for COMA's accesses too: a COMA stage built after TRIC
// is introduced to it.
TricModule* find_tric(DesignAssembly& assembly) {
  for (auto& placed : assembly.placed())
    if (auto* tric = dynamic_cast<TricModule*>(placed.stage.get())) return tric;
  return nullptr;
}

}  // namespace

void warpreg_register_design_wrf(DesignRegistry& registry) {
  registry.add(DesignSpec{
      "tric",
      "Warped Register File, TRIC: tri-modal (ON / DROWSY / OFF) register entries woken at "
      "collector assignment",
      "seed 002 §4 (Abdel-Majeed and Annavaram, HPCA'13)",
      {"register-entry power states (drowsy / off)"},
      wrf_params_named("tric."),
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        assembly.add_stage<TricModule>(PathSlot::Power, "tric", c.params, c.tech, c.clock);
      },
      {"tric"}});
  registry.add(DesignSpec{
      "coma",
      "Warped Register File, COMA: active-mask table gating the divided word line",
      "seed 002 §5 (Abdel-Majeed and Annavaram, HPCA'13)",
      {},
      wrf_params_named("coma."),
      [](DesignAssembly& assembly) {
        const DesignContext& c = assembly.context();
        TricModule* tric = find_tric(assembly);
        auto& coma =
            assembly.add_stage<ComaModule>(PathSlot::Power, "coma", c.params, c.tech, c.clock);
        if (tric) tric->attach_coma(&coma);
      },
      {"coma"}});
}

}  // namespace warpreg

// The Warped Register File (seed 002) as two registered designs, TRIC and COMA, that
// run alone or together.
#include "designs/design_registry.h"
#include "modules/wrf/coma_module.h"
#include "modules/wrf/tric_module.h"

namespace warpreg {

namespace {

template <class Stage>
Stage* find_stage(DesignAssembly& assembly) {
  for (auto& placed : assembly.placed())
    if (auto* stage = dynamic_cast<Stage*>(placed.stage.get())) return stage;
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
      [](std::vector<ParamSpec>& out) { TricParams().declare(out); },
      [](DesignAssembly& assembly) {
        auto& tric = assembly.add_stage<TricModule>(PathSlot::Power, "tric", assembly.context());
        // With COMA on the same path, TRIC weights both savings into the paper's total.
        tric.attach_coma(find_stage<ComaModule>(assembly));
      },
      {"tric"}});
  registry.add(DesignSpec{
      "coma",
      "Warped Register File, COMA: active-mask table gating the divided word line",
      "seed 002 §5 (Abdel-Majeed and Annavaram, HPCA'13)",
      {},
      [](std::vector<ParamSpec>& out) { ComaParams().declare(out); },
      [](DesignAssembly& assembly) {
        auto& coma = assembly.add_stage<ComaModule>(PathSlot::Power, "coma", assembly.context());
        if (TricModule* tric = find_stage<TricModule>(assembly)) tric->attach_coma(&coma);
      },
      {"coma"}});
}

}  // namespace warpreg

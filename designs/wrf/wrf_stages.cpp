#include "designs/wrf/wrf_stages.h"

#include "common/cycle_clock.h"
#include "modules/wrf/coma_module.h"
#include "modules/wrf/tric_module.h"
#include "power/energy.h"

namespace warpreg {

void add_wrf_stages(const Params& params, OperandStages& stages) {
  const bool tric = params.flag("tric.enabled");
  const bool coma = params.flag("coma.enabled");
  if (!tric && !coma) return;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock(params.real("sim.clock_mhz"));
  TricModule* tric_stage = nullptr;
  if (tric) {
    auto stage = std::make_unique<TricModule>("tric", params, tech, clock);
    tric_stage = stage.get();
    stages.push_back(std::move(stage));
  }
  if (coma) {
    auto stage = std::make_unique<ComaModule>("coma", params, tech, clock);
    if (tric_stage) tric_stage->attach_coma(stage.get());
    stages.push_back(std::move(stage));
  }
}

}  // namespace warpreg

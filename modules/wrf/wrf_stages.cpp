#include "modules/wrf/wrf_stages.h"

#include "modules/common/cycle_clock.h"
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
  if (tric) stages.push_back(std::make_unique<TricModule>("tric", params, tech, clock));
  if (coma)
    stages.push_back(std::make_unique<ComaModule>("coma", params, tech, clock.ns_per_cycle()));
}

}  // namespace warpreg

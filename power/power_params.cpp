// Parameters of the energy model: which technology table supplies the coefficients
// (power/tech/NAME.json, docs/power.md) and the geometric and sensitivity knobs no
// table can know.
#include "power/power_params.h"

namespace warpreg {

// energy.cpp refers to it, so that every program with an energy model links these.
extern const ParamRegistrar kPowerParams;
const ParamRegistrar kPowerParams([](std::vector<ParamSpec>& out) { PowerParams().declare(out); });

}  // namespace warpreg

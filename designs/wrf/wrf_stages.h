#pragma once
// The Warped Register File's operand-path stages (seed 002): TRIC then COMA,
// as the preset enables them.
#include "platforms/sm/platform.h"

namespace warpreg {

/// Appends the enabled WRF stages (tric.enabled, coma.enabled) to `stages`.
void add_wrf_stages(const Params& params, OperandStages& stages);

}  // namespace warpreg

#include "stimuli/driver/synthetic_workload.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/import/accelsim_trace.h"

namespace warpreg {

std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params) {
  if (name == "synthetic")
    return std::make_unique<SyntheticWorkload>(SyntheticConfig::from_params(params));
  if (is_accelsim_trace_name(name)) return open_accelsim_trace(name, params);
  return std::make_unique<TraceWorkload>(name);
}

}  // namespace warpreg

#include "stimuli/driver/synthetic_workload.h"
#include "stimuli/driver/trace_workload.h"

namespace warpreg {

std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params) {
  if (name == "synthetic")
    return std::make_unique<SyntheticWorkload>(SyntheticConfig::from_params(params));
  return std::make_unique<TraceWorkload>(name);
}

}  // namespace warpreg

#include "stimuli/driver/open_workload.h"

#include <filesystem>

#include "common/params.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/driver/spilling_workload.h"
#include "stimuli/driver/synthetic_workload.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/import/nvdisasm_dot.h"

namespace warpreg {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// "FILE.dot" or "FILE.dot:FUNCTION": an nvdisasm CFG run with the dot.* launch.
std::unique_ptr<Workload> open_dot_kernel(const std::string& name, const Params& params) {
  const size_t dot = name.rfind(".dot");
  const std::string path = name.substr(0, dot + 4);
  std::string function;
  if (dot + 4 < name.size()) function = name.substr(dot + 5);
  std::vector<Kernel> kernels = read_nvdisasm_dot_functions(path);
  size_t pick = 0;
  if (!function.empty()) {
    pick = kernels.size();
    std::string names;
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (kernels[i].name == function) pick = i;
      names += (i ? ", " : "") + kernels[i].name;
    }
    if (pick == kernels.size())
      throw WorkloadError(path + ": no function '" + function + "' (the file has: " + names + ")");
  }
  Kernel kernel = std::move(kernels[pick]);
  KernelRunConfig config;
  config.seed = static_cast<uint64_t>(params.integer("sim.seed"));
  config.shape.name = kernel.name;
  config.shape.ctas = static_cast<uint32_t>(params.integer("dot.ctas"));
  config.shape.threads_per_cta = static_cast<uint32_t>(params.integer("dot.threads_per_cta"));
  config.shape.regs_per_thread = std::max<uint32_t>(1, kernel.regs_used());
  config.default_trip_count = static_cast<uint32_t>(params.integer("dot.trip_count"));
  config.trip_spread = params.real("dot.trip_spread");
  config.divergence = params.real("dot.divergence");
  config.taken = params.real("dot.taken");
  config.early_exit = params.real("dot.early_exit");
  config.max_insts_per_warp = static_cast<uint64_t>(params.integer("kernel.max_insts_per_warp"));
  const std::string description = "kernel " + path + ":" + kernel.name;
  return std::make_unique<KernelWorkload>(std::move(kernel), std::move(config), description);
}

}  // namespace

static std::unique_ptr<Workload> open_workload_as_given(const std::string& name,
                                                        const Params& params) {
  if (name == "synthetic")
    return std::make_unique<SyntheticWorkload>(SyntheticConfig::from_params(params));
  if (is_accelsim_trace_name(name)) return open_accelsim_trace(name, params);
  if (ends_with(name, ".json")) return make_profile_workload(read_profile(name), params);
  if (ends_with(name, ".dot") || name.find(".dot:") != std::string::npos)
    return open_dot_kernel(name, params);
  // A bare name is a shipped profile when one exists; anything else is a trace file.
  if (name.find('/') == std::string::npos && !std::filesystem::exists(name)) {
    const std::string path = shipped_profile_path(name);
    if (std::filesystem::exists(path)) return make_profile_workload(read_profile(path), params);
    throw WorkloadError("unknown workload '" + name +
                        "': not 'synthetic', an existing file, or one of the " +
                        std::to_string(shipped_profiles().size()) + " shipped profiles in " +
                        shipped_profile_dir());
  }
  return std::make_unique<TraceWorkload>(name);
}

std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params) {
  return apply_register_limit(open_workload_as_given(name, params), params);
}

// The stimulus parameters (stimuli_params.cpp) join the catalogue of every program that opens a
// workload.
extern const ParamRegistrar kStimuliParams;
extern const void* const kStimuliParams_linked;
const void* const kStimuliParams_linked = &kStimuliParams;

}  // namespace warpreg

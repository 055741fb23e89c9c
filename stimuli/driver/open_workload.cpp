#include "stimuli/driver/open_workload.h"

#include <algorithm>
#include <filesystem>

#include "common/input_check.h"
#include "common/json_input.h"
#include "common/params.h"
#include "stimuli/benchmarks/benchmark_table.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/driver/spilling_workload.h"
#include "stimuli/driver/synthetic_workload.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/import/application.h"
#include "stimuli/import/input_name.h"

namespace warpreg {

namespace {

/// A static kernel executed by the kernel driver with the dot.* execution model.
/// `regs_per_thread`: the launch's registers per thread when it gives more than the
/// kernel names (a paper's count), else 0.
/// `row`: the benchmark row the kernel runs for ("" for none), whose address mix it takes.
std::unique_ptr<Workload> run_static_kernel(Kernel kernel, KernelShape shape,
                                            const std::string& description, const Params& params,
                                            uint32_t regs_per_thread = 0,
                                            const std::string& row = "") {
  shape.name = kernel.name;
  shape.regs_per_thread = std::max<uint32_t>({1, kernel.regs_used(), regs_per_thread});
  KernelRunConfig config = static_kernel_run_config(params, std::move(shape));
  config.address_mix = resolve_address_mix(params.text("kernel.address_mix"), row);
  return std::make_unique<KernelWorkload>(std::move(kernel), std::move(config), description);
}

KernelShape launch(const Params& params, const char* prefix) {
  KernelShape shape;
  shape.ctas = static_cast<uint32_t>(params.integer(std::string(prefix) + ".ctas"));
  shape.threads_per_cta =
      static_cast<uint32_t>(params.integer(std::string(prefix) + ".threads_per_cta"));
  return shape;
}

/// A kernel of an nvdisasm CFG ("FILE.dot[:FUNCTION]", the dot.* launch) or of a
/// cuobjdump listing ("FILE[:sm_NN][:FUNCTION]", the cuobjdump.* launch): the one the
/// selector names, or the file's first.
std::unique_ptr<Workload> open_file_kernel(const InputName& input, const char* launch_prefix,
                                           const Params& params) {
  std::vector<StaticKernelEntry> kernels = read_static_kernels(
      input.path, input.selector, static_cast<uint64_t>(params.integer("sim.seed")));
  StaticKernelEntry& first = kernels.front();
  const std::string description = "kernel " + input.path + ":" + first.selector;
  return run_static_kernel(std::move(first.kernel), launch(params, launch_prefix), description,
                           params);
}

void no_selector(const InputName& input, const char* what) {
  if (!input.selector.empty())
    throw WorkloadError(input.path + ": " + what + " takes no ':" + input.selector +
                        "' (only .dot files and cuobjdump listings hold several functions)");
}

std::unique_ptr<Workload> open_workload_as_given(const std::string& name, const Params& params);

/// A kernelslist.g of one launch runs that launch; longer applications need a runner
/// that runs kernels one after the other (read_application, application.h).
std::unique_ptr<Workload> open_single_launch(const InputName& input, const Params& params) {
  no_selector(input, "a kernelslist.g");
  const Application app = read_kernels_list(input.path);
  if (app.launches.size() != 1)
    throw WorkloadError(input.path + ": an application of " + std::to_string(app.launches.size()) +
                        " kernel launches; `run` simulates one kernel: name one of its traces "
                        "(the first is " +
                        app.launches.front().workload + ")");
  return open_workload_as_given(app.launches.front().workload, params);
}

/// "real:ID[#K]": a row's real kernel with the paper's launch (benchmark_table.h), unless
/// cuobjdump.ctas / cuobjdump.threads_per_cta are set; its profile when it has none.
std::unique_ptr<Workload> open_benchmark(const std::string& name, const Params& params) {
  const BenchmarkKernel bench = benchmark_kernel(name);
  if (bench.workload.rfind("profile:", 0) == 0)
    return open_workload_as_given(bench.workload.substr(8), params);
  const std::optional<InputName> input = split_input_name(bench.workload);
  if (!input) throw WorkloadError(name + ": its kernel " + bench.workload + " is missing");
  std::vector<StaticKernelEntry> kernels = read_static_kernels(
      input->path, input->selector, static_cast<uint64_t>(params.integer("sim.seed")));
  KernelShape shape = launch(params, "cuobjdump");
  if (bench.ctas != 0 && params.origin("cuobjdump.ctas") == "default") shape.ctas = bench.ctas;
  if (bench.threads_per_cta != 0 && params.origin("cuobjdump.threads_per_cta") == "default")
    shape.threads_per_cta = bench.threads_per_cta;
  return run_static_kernel(std::move(kernels.front().kernel), shape,
                           name + " (" + bench.workload + ")", params, bench.regs_per_thread,
                           bench.row);
}

std::unique_ptr<Workload> open_workload_as_given(const std::string& name, const Params& params) {
  if (name == "synthetic")
    return std::make_unique<SyntheticWorkload>(SyntheticConfig::from_params(params));
  if (is_benchmark_name(name)) return open_benchmark(name, params);
  const std::optional<InputName> input = split_input_name(name);
  if (!input) {
    // A bare name is a shipped profile; anything else names a missing file.
    if (name.find('/') != std::string::npos || name.find('.') != std::string::npos)
      throw WorkloadError(excerpt_path(name) + ": cannot open " +
                          input_format_name(detect_input_format(name)) + ": no such file");
    const std::string path = shipped_profile_path(name);
    if (path_exists(path)) return make_profile_workload(read_profile(path), params);
    throw WorkloadError("unknown workload '" + excerpt(name) +
                        "': not 'synthetic', an existing file, or one of the " +
                        std::to_string(shipped_profiles().size()) + " shipped profiles in " +
                        shipped_profile_dir());
  }
  switch (detect_input_format(input->path)) {
    case InputFormat::NvdisasmDot:
      return open_file_kernel(*input, "dot", params);
    case InputFormat::Cuobjdump:
      return open_file_kernel(*input, "cuobjdump", params);
    case InputFormat::AccelSimTrace:
      no_selector(*input, "an Accel-Sim trace");
      return open_accelsim_trace(input->path, params);
    case InputFormat::KernelsList:
      return open_single_launch(*input, params);
    case InputFormat::Profile:
      no_selector(*input, "a profile");
      return make_profile_workload(read_profile(input->path), params);
    case InputFormat::WarpregTrace:
      break;
  }
  no_selector(*input, "a warpreg trace");
  return std::make_unique<TraceWorkload>(input->path);
}

}  // namespace

std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params) {
  return apply_register_limit(open_workload_as_given(name, params), params);
}

// The stimulus parameters (stimuli_params.cpp) join the catalogue of every program that opens a
// workload.
extern const ParamRegistrar kStimuliParams;
extern const void* const kStimuliParams_linked;
const void* const kStimuliParams_linked = &kStimuliParams;

}  // namespace warpreg

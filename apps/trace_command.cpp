// warpreg trace: writes a workload's dynamic warp instructions as a warpreg text
// trace (docs/trace-format.md) and summarises it, with the value-similarity bins
// of Warped-Compression (seed 001 §3, Figure 2).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "apps/cli.h"
#include "common/output_file.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/driver/value_model.h"

namespace warpreg::cli {

namespace {

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%5.1f %%", 100 * share);
  return text;
}

}  // namespace

po::options_description trace_options() {
  po::options_description desc("Options of 'warpreg trace'", kHelpWidth, kHelpWidth / 2);
  add_preset_option(desc);
  desc.add_options()("profile", po::value<std::string>()->value_name("P"),
                     "A shipped profile name (stimuli/profiles/P.json) or a profile .json path.")(
      "workload,w", po::value<std::string>()->value_name("W"),
      "Any workload 'warpreg run' accepts (instead of --profile).")(
      "out,o", po::value<std::string>()->value_name("FILE"), "The trace file to write.");
  add_set_option(desc);
  return desc;
}

int trace_command(const po::variables_map& vm) {
  if (vm.count("profile") == vm.count("workload"))
    throw UsageError("give exactly one of --profile and --workload");
  if (!vm.count("out")) throw UsageError("--out FILE is required");
  const std::string name =
      vm.count("profile") ? vm["profile"].as<std::string>() : vm["workload"].as<std::string>();
  const std::string out_path = vm["out"].as<std::string>();
  const Params params = load_params(vm);
  auto workload = open_workload(name, params);

  OutputFile out(out_path);
  write_trace(*workload, out.stream());
  out.commit();

  // Instructions and divergence, then the similarity bins of every register write.
  const KernelShape& shape = workload->shape();
  uint64_t instructions = 0, divergent = 0, warps = 0;
  for (uint32_t cta = 0; cta < shape.ctas; ++cta)
    for (uint32_t warp = 0; warp < shape.warps_per_cta(); ++warp, ++warps) {
      const uint32_t threads = std::min(kWarpSize, shape.threads_per_cta - warp * kWarpSize);
      const LaneMask full = threads >= kWarpSize ? kFullMask : (LaneMask{1} << threads) - 1;
      visit_stream(workload->load_warp(0, cta, warp), [&](const WarpInst& inst, uint32_t) {
        ++instructions;
        if (inst.active != full) ++divergent;
      });
    }
  const SimilarityHistogram bins = measure_similarity(*workload);

  std::cout << "trace written to " << out_path << "\n"
            << "  workload      " << workload->describe() << "\n"
            << "  warps         " << warps << " (" << shape.ctas << " CTAs x "
            << shape.warps_per_cta() << "), " << shape.regs_per_thread << " registers per thread\n"
            << "  instructions  " << instructions << " (" << (warps ? instructions / warps : 0)
            << " per warp), "
            << percent(instructions ? double(divergent) / double(instructions) : 0)
            << " with a partial active mask\n"
            << "  register writes: " << bins.converged_total() << " converged, "
            << bins.divergent_total() << " divergent\n"
            << "  similarity bin (seed 001 §3)   zero     128     32K   random\n";
  auto row = [&](const char* label, auto share_of) {
    std::cout << "  " << label;
    for (unsigned b = 0; b < kSimilarityBinCount; ++b)
      std::cout << " " << percent(share_of(static_cast<SimilarityBin>(b)));
    std::cout << "\n";
  };
  row("converged writes          ", [&](SimilarityBin b) { return bins.converged_share(b); });
  row("divergent writes          ", [&](SimilarityBin b) { return bins.divergent_share(b); });
  std::cout << "  paper (Fig. 2, average): random 21 % of converged and 57 % of divergent writes\n";
  return kExitOk;
}

}  // namespace warpreg::cli

#pragma once
// Benchmark profiles (stimuli/profiles/*.json): a launch shape, the shape of a
// generated kernel (loop nests with trip counts, divergent if-regions, memory
// and SFU fractions, registers, barriers) and a value mix. A profile becomes a
// static Kernel that KernelWorkload executes. Format: docs/stimuli-driver.md.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "modules/interfaces/workload.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/value_model.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

class Params;

struct Profile {
  std::string file;  ///< where it was read from (for messages)
  std::string name;
  std::string description;
  std::string source;                     ///< the paper row it follows
  std::vector<std::string> paper_fields;  ///< dotted keys taken from the paper
  std::vector<std::string> assumed_fields;
  std::vector<std::string> measured_fields;  ///< dotted keys measured on real kernels
  std::string measured_from;                 ///< those kernels (FILE:FUNCTION, ...)

  // launch
  uint32_t ctas = 1;
  uint32_t threads_per_cta = 256;
  uint32_t concurrent_ctas = 0;     ///< 0: whatever the SM's limits allow
  int64_t shared_mem_per_cta = -1;  ///< -1: derived from concurrent_ctas

  // kernel
  uint32_t regs_per_thread = 16;
  uint32_t block_insts = 12;  ///< instructions per straight-line chunk
  /// Loop nests in program order, each its trip counts (body iterations per
  /// entry) from the outermost loop inwards.
  std::vector<std::vector<uint32_t>> loops;
  double trip_spread = 0;        ///< per-lane spread of trip counts (KernelRunConfig::trip_spread)
  uint32_t if_regions = 1;       ///< if-then-else regions (in the innermost loop bodies)
  double divergence = 0.2;       ///< share of dynamic data-dependent branches that split lanes
  double memory_fraction = 0.2;  ///< loads and stores among generated instructions
  double store_share = 0.25;     ///< stores among the memory instructions
  double sfu_fraction = 0.05;
  uint32_t barriers = 0;  ///< CTA barriers in converged code
  /// How generated code uses its registers. Uniform: every register is set on entry and
  /// sources are a recent write or any register, so nearly all stay live. Corpus:
  /// long-lived registers plus temporaries read soon after their write, a pressure burst
  /// before each loop nest, nothing carried across if-arms or back edges; calibrated so
  /// dead fractions and live ranges match the real kernels (docs/stimuli.md).
  enum class Liveness { Uniform, Corpus };
  Liveness liveness = Liveness::Uniform;
  /// Corpus liveness: the share of registers that hold values across the kernel (the
  /// thread index, parameters, addresses, counters, accumulators).
  double long_lived = 0.4;

  ValueMix values;
};

/// Reads and checks a profile. Throws WorkloadError("FILE:LINE: KEY: message")
/// for bad JSON, an unknown key, a wrong type or an out-of-range value.
Profile read_profile(const std::string& path);
Profile parse_profile(const std::string& text, const std::string& file);

/// Where the shipped profiles live: data_dir()/stimuli/profiles.
std::string shipped_profile_dir();
/// The path of shipped profile NAME: shipped_profile_dir()/NAME.json.
std::string shipped_profile_path(const std::string& name);
/// Names of the shipped profiles, sorted.
std::vector<std::string> shipped_profiles();

/// The static kernel a profile describes, deterministic for a seed; `trip_counts`
/// receives the back edges per entry of each loop (by header block id).
Kernel generate_profile_kernel(const Profile& profile, uint64_t seed,
                               std::map<uint32_t, uint32_t>& trip_counts, double trip_scale = 1.0);

/// The generated kernel and how the kernel driver runs it: what make_profile_workload
/// executes (also what `warpreg compile PROFILE` analyses).
struct ProfileKernel {
  Kernel kernel;
  KernelRunConfig config;
};
ProfileKernel build_profile_kernel(const Profile& profile, const Params& params);

/// The profile's workload: its generated kernel executed by KernelWorkload, with
/// sim.seed, the profile.* overrides and kernel.max_insts_per_warp applied.
std::unique_ptr<Workload> make_profile_workload(const Profile& profile, const Params& params);

}  // namespace warpreg

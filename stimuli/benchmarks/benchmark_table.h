#pragma once
// The papers' workload tables (stimuli/benchmarks/benchmarks.json): each row of RFV's,
// WRF's and RegMutex's tables and LTRF's two classes, with the launch shape the paper
// gives (and the source of every number), its profile, and the real kernels of
// ../shared/data/cuobjdump that run the same benchmark program. docs/stimuli.md,
// "The benchmark table".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "modules/memory/address_model.h"

namespace warpreg {

struct BenchmarkRow {
  std::string id;       ///< "rfv-hotspot": the paper's prefix and the row, as the profile
  std::string paper;    ///< "seed 000 (RFV, MICRO'15) Table 1 'Workloads'"
  std::string row;      ///< "HotSpot"
  std::string profile;  ///< the shipped profile of the row
  /// Real kernels, "cuobjdump/PATH:sm_NN:FUNCTION" under the shared data folder; the
  /// first is the row's main kernel. Empty: the corpus has no listing of the program.
  std::vector<std::string> kernels;
  uint32_t ctas = 0;             ///< 0: not given
  uint32_t threads_per_cta = 0;  ///< 0: not given
  uint32_t regs_per_thread = 0;  ///< the paper's registers per thread, 0: not given
  uint32_t concurrent_ctas = 0;  ///< 0: not given
  /// Where each number comes from, by field name ("paper", "assumed: ...").
  std::map<std::string, std::string> sources;
  std::string note;  ///< how the kernels were matched, or why there is none
};

/// The shipped table: data_dir()/stimuli/benchmarks/benchmarks.json.
std::string benchmark_table_path();
/// Where the table's kernel paths start: $WARPREG_SHARED_DATA, else data_dir()/../shared/data
/// (beside the source tree; PREFIX/share/shared/data for an installation).
std::string shared_data_dir();
/// Reads and checks a table (WorkloadError "FILE: rows[N].KEY: message").
std::vector<BenchmarkRow> read_benchmark_table(const std::string& path);

/// "real:ID" or "real:ID#K" (the K-th kernel of the row, from 1).
bool is_benchmark_name(const std::string& name);

/// What "real:ID[#K]" runs: a cuobjdump workload name with the row's launch, or
/// "profile:NAME" when the row has no real kernel.
struct BenchmarkKernel {
  std::string row;  ///< the row's id (whose address mix the kernel takes)
  std::string workload;
  uint32_t ctas = 0;             ///< 0: the cuobjdump.ctas parameter
  uint32_t threads_per_cta = 0;  ///< 0: the cuobjdump.threads_per_cta parameter
  uint32_t regs_per_thread = 0;  ///< the paper's, 0 when the paper gives none
};
BenchmarkKernel benchmark_kernel(const std::string& name);

/// The shipped address mixes: data_dir()/stimuli/benchmarks/address_mixes.json.
std::string address_mix_table_path();
/// The address mix of benchmark row `row` (its profile or its real kernel), from the
/// table at `path`; none when no mix lists the row. Throws WorkloadError naming the file
/// and field for a malformed table.
std::optional<memory::AddressMix> benchmark_address_mix(const std::string& row,
                                                        const std::string& path);
/// What kernel.address_mix = `setting` gives a workload of benchmark row `row` ("" for
/// a kernel of no row): "none" nothing, "benchmark" the row's mix in the shipped table,
/// anything else a mix's JSON file. Throws WorkloadError naming the file and field.
std::optional<memory::AddressMix> resolve_address_mix(const std::string& setting,
                                                      const std::string& row);

}  // namespace warpreg

#pragma once
// The SM platform: elaborates every block a preset asks for, binds their TLM
// sockets, runs the workload and returns the statistics. One per process.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/cycle_clock.h"
#include "common/errors.h"
#include "common/params.h"
#include "common/stat_set.h"
#include "designs/design_registry.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/workload.h"
#include "modules/regfile/storage_power_map.h"
#include "platforms/sm/sm_core.h"
#include "power/energy.h"

namespace warpreg {

using OperandStages = std::vector<std::unique_ptr<OperandStage>>;

struct RunSettings {
  std::string vcd_path;        ///< write a waveform of bank activity and power states when set
  bool trace_signals = false;  ///< the waveform also shows the SM's warp/scheduler signals
  std::string samples_path;    ///< write a time series (samples.csv) when set
  uint64_t sample_cycles = 0;  ///< its interval
  bool progress = false;       ///< print a progress line on stderr (runs longer than a few seconds)
  /// Builds extra operand-path stages from what the platform's blocks see (parameters,
  /// clock, technology, machine), placed in order at extra_placement: a hook for user
  /// blocks, experiments and test benches. A stage that is also a ReportingBlock appears
  /// in stats.json's blocks, one that is also an IssueHook joins the issue stage.
  std::function<OperandStages(const DesignContext&)> extra_stages;
  /// Where extra_stages go: by default after every design's stages, before the banks;
  /// Placement::after("rfv"), Placement::before("wc") ... (designs/design_registry.h).
  Placement extra_placement = Placement::before("regfile");
};

class SmPlatformImpl;

class SmPlatform {
 public:
  /// Elaborates the platform. Throws ParamError or ConfigError with a message naming the option.
  SmPlatform(const Params& params, std::unique_ptr<Workload> workload, RunSettings settings = {});
  ~SmPlatform();

  /// Runs the workload to completion (sc_start) and returns stats.json's content
  /// (docs/stats.md). "status" is "ok", "integrity_mismatch", "watchdog" or
  /// "max_cycles"; anything but "ok" also fills "error" with a readable report.
  nlohmann::json run();

  /// The hardware reference view: every instantiated block with its storage in
  /// bits per structure, ports, latencies and parameters.
  nlohmann::json describe() const;

  /// The statistics block `block` (its stats.json key) declares; nullptr for an unknown
  /// block or one that reports energy only.
  const StatSet* block_statistics(const std::string& block) const;

 private:
  std::unique_ptr<SmPlatformImpl> impl_;
};

/// What a design's blocks see on the platform, without the platform: for test benches
/// and user programs that drive one design's stage from their own TLM initiator. It
/// derives the machine, occupancy and register-file geometry from the parameters as
/// SmPlatform does.
class DesignBench {
 public:
  /// Throws ParamError / ConfigError naming the option.
  DesignBench(const Params& params, Workload& workload);
  const DesignContext& context() const { return context_; }
  /// The cells' power states as the design's controllers set them.
  const StoragePowerMap& power_map() const { return power_map_; }

 private:
  power::TechTable tech_;
  CycleClock clock_;
  MachineShape machine_;
  Occupancy occupancy_;
  RegFileGeometry regfile_;
  std::string workload_description_;
  StoragePowerMap power_map_;
  DesignContext context_;
};

}  // namespace warpreg

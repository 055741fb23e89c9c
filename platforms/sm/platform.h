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
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/workload.h"
#include "platforms/sm/sm_core.h"
#include "power/energy.h"

namespace warpreg {

using OperandStages = std::vector<std::unique_ptr<OperandStage>>;

struct RunSettings {
  std::string vcd_path;   ///< write a waveform of bank activity and power states when set
  bool progress = false;  ///< print a progress line on stderr (runs longer than a few seconds)
  /// Builds extra operand-path stages, inserted in order after the design's own
  /// stages and before the banks: a hook for experiments and test benches. A stage
  /// that is also a ReportingBlock appears in stats.json's blocks.
  std::function<OperandStages()> extra_stages;
};

/// What a design's stages may need when they are built: the parameters, the
/// technology table and clock, the workload (its static code for compiler
/// metadata), and the SM as elaborated (limits, occupancy of this kernel).
struct DesignContext {
  const Params& params;
  const power::TechTable& tech;
  const CycleClock& clock;
  Workload& workload;
  const SmConfig& sm;
  const Occupancy& occupancy;
};

/// The operand-path stages a preset asks for (name translation, codec, power
/// control), in path order from the crossbar towards the banks. A design adds its
/// stage here; the SM, crossbar and banks do not change. A stage that is also an
/// IssueHook (platforms/sm/issue_hook.h) is registered with the SM's issue stage.
OperandStages make_design_stages(const DesignContext& context);

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

 private:
  std::unique_ptr<SmPlatformImpl> impl_;
};

}  // namespace warpreg

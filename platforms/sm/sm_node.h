#pragma once
// One SM with everything that is its own: the SM module (issue, collectors, load/store
// unit), the crossbar, the designs' operand-path stages, the register file, the shadow
// register file that checks every operand and, with a memory system, its L1 data cache.
// SmPlatform builds one at the top of the hierarchy; the GPU platform one inside each
// "smN" module, which gives its blocks hierarchical names.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/cycle_clock.h"
#include "common/params.h"
#include "designs/design_registry.h"
#include "modules/memory/l1_cache.h"
#include "modules/memory/port_merger.h"
#include "modules/operand_path/crossbar.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/platform.h"
#include "platforms/sm/shadow_register_file.h"
#include "platforms/sm/sm_module.h"
#include "power/energy.h"

namespace warpreg {

/// The load/store unit of SM `sm` of `sms` (mem.model = memory_system).
LoadStoreConfig load_store_config(const Params& params, uint32_t sm, uint32_t sms);
/// What the designs see of the SM's machine.
MachineShape machine_shape(const SmConfig& config);
/// Adds the workload's notes (capped warps, dropped operands) to stats.json: "stimulus",
/// and the status capped_warps when a capped warp makes the run not the kernel asked for.
void add_stimulus_notes(nlohmann::json& stats, const WorkloadNotes& notes);
/// Adds average_power_w (W over `ns` of simulated time) to every block of stats.json's
/// "blocks" and, from "energy_pj", to the whole run.
void add_average_power(nlohmann::json& stats, double ns);
/// The energy (dynamic + leakage, pJ) of a {BLOCK: stats} object.
double energy_of_blocks(const nlohmann::json& blocks);

class SmNode {
 public:
  /// `sm` of `sms`: the local-memory layout and the workload's warp-slot buffers depend
  /// on it. Throws ParamError / ConfigError naming the option.
  /// `parent`: the module the node's blocks are children of ("sm3" on the GPU, "" at the
  /// top); its name is left out of the blocks' keys in stats.json and describe, so that
  /// every SM reports "rfv.renaming_table" as the single SM does.
  SmNode(const Params& params, const std::vector<const DesignSpec*>& designs, Workload& workload,
         const power::TechTable& tech, const CycleClock& clock, uint32_t sm, uint32_t sms,
         const RunSettings& settings, const std::string& parent = "");

  SmModule& sm() { return sm_; }
  const SmModule& sm() const { return sm_; }
  RegisterFileModule& regfile() { return regfile_; }
  memory::L1Cache* l1() { return l1_.get(); }
  memory::L1Cache* l1c() { return l1c_.get(); }
  /// Where the SM's caches leave for the interconnect (nullptr without a memory system):
  /// bind its `out` to the interconnect's sm_side.
  memory::PortMerger* memory_port() { return memory_port_.get(); }
  const ShadowRegisterFile& shadow() const { return shadow_; }
  const std::vector<ReportingBlock*>& blocks() const { return blocks_; }

  /// The SM's part of stats.json up to `cycles` (the platform's end): status, cycles,
  /// instructions, IPC, occupancy, memory, register-file counters, integrity, blocks and
  /// energy. `end` is the platform's end in SystemC time (the L1 counts in its own clock).
  nlohmann::json stats(uint64_t cycles);
  nlohmann::json describe_blocks() const;
  nlohmann::json operand_path() const;
  const StatSet* block_statistics(const std::string& name) const;

 private:
  void build_designs(const Params& params, const std::vector<const DesignSpec*>& designs,
                     Workload& workload, const power::TechTable& tech, const CycleClock& clock,
                     const RunSettings& settings);
  void add_reporting_blocks(sc_core::sc_object& object);
  void check_register_file_fits() const;
  /// A block's key: its name without the parent's.
  std::string key_of(const ReportingBlock& block) const;

  const CycleClock& clock_;
  std::string parent_prefix_;  ///< "sm3." or ""
  SmConfig config_;
  ShadowRegisterFile shadow_;
  RegisterFileModule regfile_;
  Crossbar crossbar_;
  std::optional<LoadStoreConfig> load_store_;  ///< mem.model = memory_system
  SmModule sm_;
  std::unique_ptr<memory::L1Cache> l1_;
  std::unique_ptr<memory::L1Cache> l1c_;  ///< the constant cache
  std::unique_ptr<memory::PortMerger> memory_port_;
  OperandStages stages_;
  std::vector<ReportingBlock*> blocks_;
  MachineShape machine_;
  std::string workload_description_;
};

}  // namespace warpreg

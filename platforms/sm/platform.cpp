#include "platforms/sm/platform.h"

#include <vector>

#include "designs/design_registry.h"
#include "modules/memory/memory_system.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/memory_params.h"
#include "platforms/sm/sm_node.h"
#include "platforms/sm/sm_params.h"
#include "power/energy.h"
#include "power/power_params.h"

namespace warpreg {

class SmPlatformImpl {
 public:
  SmPlatformImpl(const Params& params, std::unique_ptr<Workload> workload, RunSettings settings)
      : params_(params),
        designs_(DesignRegistry::instance().resolve(params.designs())),
        settings_(std::move(settings)),
        workload_(std::move(workload)),
        tech_(power::TechTable::load(PowerParams(&params).tech)),
        clock_(SimParams(&params).clock_mhz),
        node_(params, designs_, *workload_, tech_, clock_, 0, 1, settings_) {
    if (node_.l1()) {
      memory_ = std::make_unique<memory::MemorySystem>(
          "memory", memory_system_config(params_, 1, memory_tech(tech_)));
      node_.l1()->mem_side.bind(memory_->sm_side);
    }
    node_.sm().set_progress(settings_.progress);
    if (!settings_.vcd_path.empty()) open_waveform();
  }

  ~SmPlatformImpl() {
    if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
  }

  nlohmann::json run() {
    sc_core::sc_start();
    const uint64_t cycles = node_.sm().end_cycle();
    nlohmann::json stats = node_.stats(cycles);
    stats["schema_version"] = 1;
    stats["preset"] = params_.preset();
    stats["designs"] = params_.designs();
    stats["workload"] = workload_->describe();
    if (memory_) {
      stats["memory"]["blocks"].update(memory_->stats_at(clock_.cycles(cycles)));
      stats["energy_pj"]["memory_system"] = energy_of_blocks(stats["memory"]["blocks"]);
    }
    stats["technology"] = tech_.name();
    stats["params"] = params_.to_json();
    return stats;
  }

  const StatSet* block_statistics(const std::string& name) const {
    return node_.block_statistics(name);
  }

  nlohmann::json describe() const {
    nlohmann::json blocks = node_.describe_blocks();
    if (memory_) blocks.update(memory_->describe());
    return {
        {"preset", params_.preset()},           {"designs", params_.designs()},
        {"technology", tech_.name()},           {"clock_mhz", SimParams(&params_).clock_mhz.get()},
        {"operand_path", node_.operand_path()}, {"blocks", std::move(blocks)},
        {"params", params_.to_json()}};
  }

 private:
  void open_waveform() {
    std::string base = settings_.vcd_path;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
      base.resize(base.size() - 4);
    // SystemC reports the timescale as an info message; a waveform needs no announcement.
    const sc_core::sc_actions info =
        sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    vcd_ = sc_core::sc_create_vcd_trace_file(base.c_str());
    if (!vcd_) throw ConfigError("cannot create waveform file " + settings_.vcd_path);
    // VCD timescales must be powers of ten: the waveform is in ps; one cycle is one period.
    vcd_->set_time_unit(1, sc_core::SC_PS);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, info);
    node_.regfile().enable_trace(vcd_);
    node_.sm().set_cycle_hook([this](uint64_t cycle) { node_.regfile().trace_cycle(cycle); });
  }

  Params params_;
  std::vector<const DesignSpec*> designs_;  ///< resolved before any module is built
  RunSettings settings_;
  std::unique_ptr<Workload> workload_;
  power::TechTable tech_;
  CycleClock clock_;
  SmNode node_;
  std::unique_ptr<memory::MemorySystem> memory_;
  sc_core::sc_trace_file* vcd_ = nullptr;
};

SmPlatform::SmPlatform(const Params& params, std::unique_ptr<Workload> workload,
                       RunSettings settings)
    : impl_(std::make_unique<SmPlatformImpl>(params, std::move(workload), std::move(settings))) {}

SmPlatform::~SmPlatform() = default;

nlohmann::json SmPlatform::run() { return impl_->run(); }

nlohmann::json SmPlatform::describe() const { return impl_->describe(); }

const StatSet* SmPlatform::block_statistics(const std::string& block) const {
  return impl_->block_statistics(block);
}

// The SM's parameters (sm_params.cpp) join the catalogue of every program with an SM.
extern const ParamRegistrar kPlatformParams;
extern const void* const kPlatformParams_linked;
const void* const kPlatformParams_linked = &kPlatformParams;

DesignBench::DesignBench(const Params& params, Workload& workload)
    : tech_(power::TechTable::load(PowerParams(&params).tech)),
      clock_(SimParams(&params).clock_mhz),
      regfile_(RegisterFileModule::config_from(
          params,
          regfile_technology_of(DesignRegistry::instance().resolve(params.designs()), params))),
      workload_description_(workload.describe()),
      power_map_(regfile_.physical_registers(), regfile_.lane_slices, regfile_.banks),
      context_{params,   tech_,      clock_,   workload.shape(),    workload_description_,
               machine_, occupancy_, regfile_, workload.metadata(), power_map_} {
  machine_ = machine_shape(SmConfig::from(params));
  occupancy_ = compute_occupancy(machine_.limits, workload.shape());
}

}  // namespace warpreg

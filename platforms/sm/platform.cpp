#include "platforms/sm/platform.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "designs/design_registry.h"
#include "modules/interfaces/waveform.h"
#include "modules/memory/memory_system.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/memory_params.h"
#include "platforms/sm/sampler.h"
#include "platforms/sm/sm_node.h"
#include "platforms/sm/sm_params.h"
#include "power/energy.h"
#include "power/power_params.h"

namespace warpreg {

namespace {

/// Refuses a waveform path SystemC could not open, before anything is elaborated: SystemC
/// only reports it once the simulation starts, and its trace file then fails on close.
RunSettings checked(RunSettings settings) {
  if (settings.vcd_path.empty()) return settings;
  namespace fs = std::filesystem;
  const fs::path file = Waveform::file_of(settings.vcd_path);
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const std::string what = "cannot create waveform file " + file.string() + ": ";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw ConfigError(what + "directory " + dir.string() +
                      (fs::exists(dir, ec) ? " is not a directory" : " does not exist"));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(what + "directory " + dir.string() + " is not writable");
  const fs::file_status status = fs::status(file, ec);
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw ConfigError(what + "it exists and is not a regular file");
  if (fs::exists(status) && ::access(file.c_str(), W_OK) != 0)
    throw ConfigError(what + "it exists and is not writable");
  return settings;
}

}  // namespace

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
      node_.memory_port()->out.bind(memory_->sm_side);
    }
    node_.sm().set_progress(settings_.progress);
    if (!settings_.vcd_path.empty()) open_waveform();
    if (!settings_.samples_path.empty()) open_samples();
  }

  nlohmann::json run() {
    sc_core::sc_start();
    const uint64_t cycles = node_.sm().end_cycle();
    if (sampler_) sampler_->finish(cycles);
    nlohmann::json stats = node_.stats(cycles);
    add_stimulus_notes(stats, workload_->notes());
    stats["schema_version"] = 1;
    stats["preset"] = params_.preset();
    stats["designs"] = params_.designs();
    stats["workload"] = workload_->describe();
    if (memory_) {
      stats["memory"]["blocks"].update(memory_->stats_at(clock_.cycles(cycles)));
      stats["energy_pj"]["memory_system"] = energy_of_blocks(stats["memory"]["blocks"]);
    }
    add_average_power(stats, double(cycles) * clock_.ns_per_cycle());
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
    SmModule& sm = node_.sm();
    RegisterFileModule& regfile = node_.regfile();
    wave_ = std::make_unique<Waveform>(settings_.vcd_path);
    if (settings_.trace_signals) sm.add_signals(*wave_);
    regfile.add_signals(*wave_);
    for (ReportingBlock* b : node_.blocks())
      if (auto* traced = dynamic_cast<TracedBlock*>(b); traced && b != &regfile && b != &sm)
        traced->add_signals(*wave_);
    sm.set_cycle_hook([this](uint64_t cycle) { wave_->sample(cycle); });
  }

  void open_samples() {
    std::vector<const ReportingBlock*> blocks(node_.blocks().begin(), node_.blocks().end());
    sampler_ = std::make_unique<Sampler>(settings_.samples_path, settings_.sample_cycles,
                                         clock_.ns_per_cycle(), node_.sm().core(), node_.regfile(),
                                         std::move(blocks));
    node_.sm().set_step_observer([this](uint64_t now) { sampler_->observe(now); });
  }

  Params params_;
  std::vector<const DesignSpec*> designs_;  ///< resolved before any module is built
  RunSettings settings_;
  std::unique_ptr<Workload> workload_;
  power::TechTable tech_;
  CycleClock clock_;
  SmNode node_;
  std::unique_ptr<memory::MemorySystem> memory_;
  std::unique_ptr<Waveform> wave_;
  std::unique_ptr<Sampler> sampler_;
};

SmPlatform::SmPlatform(const Params& params, std::unique_ptr<Workload> workload,
                       RunSettings settings)
    : impl_(std::make_unique<SmPlatformImpl>(params, std::move(workload),
                                             checked(std::move(settings)))) {}

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

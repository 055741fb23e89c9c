#include "platforms/sm/platform.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "designs/design_registry.h"
#include "modules/operand_path/crossbar.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/sm_module.h"
#include "platforms/sm/sm_params.h"
#include "power/energy.h"
#include "power/power_params.h"

namespace warpreg {

namespace {

/// The file SystemC writes for a waveform path: it appends ".vcd" to the base name.
std::string waveform_base(const std::string& vcd_path) {
  std::string base = vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  return base;
}

/// Refuses a waveform path SystemC could not open, before anything is elaborated: SystemC
/// only reports it once the simulation starts, and its trace file then fails on close.
RunSettings checked(RunSettings settings) {
  if (settings.vcd_path.empty()) return settings;
  namespace fs = std::filesystem;
  const fs::path file = waveform_base(settings.vcd_path) + ".vcd";
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

uint32_t total_collectors(const SmConfig& config) {
  uint32_t units = 0;
  for (const uint32_t n : config.collectors) units += n;
  return units;
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
        config_(SmConfig::from(params)),
        shadow_(config_.limits.max_warps, kMaxArchRegisters + 1),
        regfile_("regfile", params, tech_, clock_, regfile_technology_of(designs_, params)),
        crossbar_("crossbar", params, tech_, clock_.ns_per_cycle()),
        sm_("sm", config_, *workload_, shadow_, tech_, clock_, SimParams(&params).quantum_cycles,
            SimParams(&params).max_cycles) {
    // The operand path: SM collectors -> crossbar -> design stages -> extra stages -> banks.
    build_designs();
    if (settings_.extra_stages)
      for (auto& stage : settings_.extra_stages()) stages_.push_back(std::move(stage));
    sm_.rf_socket.bind(crossbar_.target);
    OperandStage* last = &crossbar_;
    for (auto& stage : stages_) {
      last->initiator.bind(stage->target);
      last = stage.get();
    }
    last->initiator.bind(regfile_.socket);
    blocks_ = {&regfile_, &crossbar_, &sm_};
    for (auto& stage : stages_) {
      if (stage->wants_collector_wakes()) sm_.core().announce_collectors(true);
      add_reporting_blocks(*stage);
      if (auto* hook = dynamic_cast<IssueHook*>(stage.get())) {
        sm_.core().add_issue_hook(hook);
        if (const Occupancy* occ = hook->resident_occupancy()) sm_.core().override_occupancy(*occ);
      }
    }
    check_register_file_fits();
    sm_.set_progress(settings_.progress);
    if (!settings_.vcd_path.empty()) open_waveform();
  }

  ~SmPlatformImpl() {
    if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
  }

  nlohmann::json run() {
    sc_core::sc_start();
    const SmCore& core = sm_.core();
    const SmCore::Counters& c = core.counters();
    const uint64_t cycles = sm_.end_cycle();
    nlohmann::json stats;
    stats["schema_version"] = 1;
    stats["preset"] = params_.preset();
    stats["designs"] = params_.designs();
    stats["workload"] = workload_->describe();
    stats["kernel"] = {{"name", core.kernel().name},
                       {"ctas", core.kernel().ctas},
                       {"threads_per_cta", core.kernel().threads_per_cta},
                       {"regs_per_thread", core.kernel().regs_per_thread},
                       {"shared_mem_per_cta", core.kernel().shared_mem_per_cta}};
    std::string status = "ok";
    if (core.failed())
      status = core.failure_kind();
    else if (sm_.hit_max_cycles())
      status = "max_cycles";
    // A stream the workload cut short is not the kernel the user asked for.
    const WorkloadNotes notes = workload_->notes();
    if (status == "ok" && !notes.capped_failure.empty()) status = "capped_warps";
    stats["status"] = status;
    if (core.failed())
      stats["error"] = core.failure();
    else if (sm_.hit_max_cycles())
      stats["error"] =
          "stopped at sim.max_cycles = " + std::to_string(cycles) + " before the kernel finished";
    else if (status == "capped_warps")
      stats["error"] = notes.capped_failure;
    stats["stimulus"] = {{"capped_warps", notes.capped_warps},
                         {"dropped_operands", notes.dropped_operands}};
    if (!notes.dropped_warning.empty()) stats["stimulus"]["warning"] = notes.dropped_warning;
    stats["cycles"] = cycles;
    stats["warp_instructions"] = c.warp_instructions;
    stats["metadata_instructions"] = c.metadata_instructions;
    stats["issue_hook_waits"] = c.hook_waits;
    stats["thread_instructions"] = c.thread_instructions;
    stats["ipc"] = cycles ? double(c.warp_instructions) / double(cycles) : 0.0;
    nlohmann::json by_class = nlohmann::json::object();
    for (unsigned i = 0; i < kInstClassCount; ++i)
      by_class[std::string(to_string(static_cast<InstClass>(i)))] = c.by_class[i];
    stats["instructions_by_class"] = by_class;
    stats["occupancy"] = {{"ctas", core.occupancy().ctas},
                          {"warps", core.occupancy().warps()},
                          {"regs_per_thread", core.occupancy().regs_per_thread},
                          {"limiter", core.occupancy().limiter}};
    stats["memory"] = {{"loads", c.loads}, {"load_hits", c.load_hits}, {"stores", c.stores}};
    const RegFileCore::Counters& rf = regfile_.core().counters();
    stats["rf"] = {{"reads", rf.reads},
                   {"writes", rf.writes},
                   {"bank_conflicts", rf.conflicted_reads},
                   {"conflict_cycles", rf.conflict_cycles}};
    stats["integrity"] = {{"checked_reads", shadow_.checked_reads()},
                          {"mismatches", shadow_.mismatches()}};
    double dynamic = 0, leakage = 0, register_file = 0;
    nlohmann::json blocks = nlohmann::json::object();
    for (ReportingBlock* b : blocks_) {
      nlohmann::json j = b->stats(cycles);
      const double d = j.value("dynamic_pj", 0.0), l = j.value("leakage_pj", 0.0);
      dynamic += d;
      leakage += l;
      // The register file proper: the banks and every design stage, without the
      // operand collectors (sm) and the crossbar's wires.
      if (b != &sm_ && b != &crossbar_) register_file += d + l;
      blocks[b->block_name()] = std::move(j);
    }
    stats["blocks"] = std::move(blocks);
    stats["energy_pj"] = {{"dynamic", dynamic},
                          {"leakage", leakage},
                          {"total", dynamic + leakage},
                          {"register_file", register_file}};
    stats["technology"] = tech_.name();
    stats["params"] = params_.to_json();
    return stats;
  }

  const StatSet* block_statistics(const std::string& name) const {
    for (const ReportingBlock* b : blocks_)
      if (b->block_name() == name) return b->statistics();
    return nullptr;
  }

  nlohmann::json describe() const {
    nlohmann::json blocks = nlohmann::json::object();
    for (const ReportingBlock* b : blocks_) blocks[b->block_name()] = b->describe();
    return {{"preset", params_.preset()},     {"designs", params_.designs()},
            {"technology", tech_.name()},     {"clock_mhz", SimParams(&params_).clock_mhz.get()},
            {"operand_path", operand_path()}, {"blocks", std::move(blocks)},
            {"params", params_.to_json()}};
  }

 private:
  // A stage and every block inside it (its SystemC children, e.g. rfv.renaming_table)
  // report in stats.json and describe.
  void add_reporting_blocks(sc_core::sc_object& object) {
    if (auto* block = dynamic_cast<ReportingBlock*>(&object)) blocks_.push_back(block);
    for (sc_core::sc_object* child : object.get_child_objects()) add_reporting_blocks(*child);
  }

  // Every design elaborates its blocks; their stages sit on the path by slot, in the
  // order the designs were named within a slot.
  void build_designs() {
    machine_.limits = config_.limits;
    machine_.memory_latency = config_.mem_miss_latency;
    machine_.load_hit_latency = config_.mem_hit_latency;
    machine_.collector_units = total_collectors(config_);
    workload_description_ = workload_->describe();
    const DesignContext context{params_,
                                tech_,
                                clock_,
                                workload_->shape(),
                                workload_description_,
                                machine_,
                                sm_.core().occupancy(),
                                regfile_.core().config(),
                                workload_->metadata(),
                                regfile_.storage_power()};
    DesignAssembly assembly(context, "");
    for (const DesignSpec* design : designs_) {
      assembly.next_design(design->name);
      design->build(assembly);
    }
    auto& placed = assembly.placed();
    std::stable_sort(placed.begin(), placed.end(),
                     [](const auto& a, const auto& b) { return a.slot < b.slot; });
    for (auto& p : placed) stages_.push_back(std::move(p.stage));
  }

  nlohmann::json operand_path() const {
    nlohmann::json path = {"sm.collectors", "crossbar"};
    for (const auto& stage : stages_) path.push_back(stage->basename());
    path.push_back("regfile");
    return path;
  }

  void check_register_file_fits() const {
    for (const auto& stage : stages_)
      if (stage->translates_names()) return;
    const Occupancy& occ = sm_.core().occupancy();
    const uint64_t needed = uint64_t(occ.warps()) * occ.regs_per_warp();
    const uint32_t have = regfile_.core().config().physical_registers();
    if (needed > have)
      throw ConfigError("register file holds " + std::to_string(have) + " warp registers but " +
                        std::to_string(occ.warps()) + " resident warps need " +
                        std::to_string(needed));
  }

  void open_waveform() {
    const std::string base = waveform_base(settings_.vcd_path);
    // SystemC reports the timescale as an info message; a waveform needs no announcement.
    const sc_core::sc_actions info =
        sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    vcd_ = sc_core::sc_create_vcd_trace_file(base.c_str());
    if (!vcd_) throw ConfigError("cannot create waveform file " + settings_.vcd_path);
    // VCD timescales must be powers of ten: the waveform is in ps; one cycle is one period.
    vcd_->set_time_unit(1, sc_core::SC_PS);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, info);
    regfile_.enable_trace(vcd_);
    sm_.set_cycle_hook([this](uint64_t cycle) { regfile_.trace_cycle(cycle); });
  }

  Params params_;
  std::vector<const DesignSpec*> designs_;  ///< resolved before any module is built
  RunSettings settings_;
  std::unique_ptr<Workload> workload_;
  power::TechTable tech_;
  CycleClock clock_;
  SmConfig config_;
  ShadowRegisterFile shadow_;
  RegisterFileModule regfile_;
  Crossbar crossbar_;
  SmModule sm_;
  OperandStages stages_;
  std::vector<ReportingBlock*> blocks_;
  MachineShape machine_;
  std::string workload_description_;
  sc_core::sc_trace_file* vcd_ = nullptr;
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
  const SmConfig config = SmConfig::from(params);
  machine_.limits = config.limits;
  machine_.memory_latency = config.mem_miss_latency;
  machine_.load_hit_latency = config.mem_hit_latency;
  machine_.collector_units = total_collectors(config);
  occupancy_ = compute_occupancy(config.limits, workload.shape());
}

}  // namespace warpreg

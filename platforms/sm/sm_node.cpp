#include "platforms/sm/sm_node.h"

#include <algorithm>
#include <cmath>

#include "modules/memory/mem_timing.h"
#include "platforms/sm/memory_params.h"
#include "platforms/sm/sm_params.h"

namespace warpreg {

LoadStoreConfig load_store_config(const Params& params, uint32_t sm, uint32_t sms) {
  const L1Params l1(&params);
  LoadStoreConfig c;
  c.sm = sm;
  c.shared_latency = l1.shared_latency;
  c.coalescer.skip_l1 = l1.skip;
  c.local.sms = sms;
  c.local.threads_per_sm = SmParams(&params).max_threads;
  return c;
}

MachineShape machine_shape(const SmConfig& config) {
  MachineShape m;
  m.limits = config.limits;
  m.memory_latency = config.mem_miss_latency;
  m.load_hit_latency = config.mem_hit_latency;
  m.alu_latency = config.alu_latency;
  m.collector_units = 0;
  for (const uint32_t n : config.collectors) m.collector_units += n;
  return m;
}

void add_stimulus_notes(nlohmann::json& stats, const WorkloadNotes& notes) {
  // A stream the workload cut short is not the kernel the user asked for.
  if (stats["status"] == "ok" && !notes.capped_failure.empty()) {
    stats["status"] = "capped_warps";
    stats["error"] = notes.capped_failure;
  }
  stats["stimulus"] = {{"capped_warps", notes.capped_warps},
                       {"dropped_operands", notes.dropped_operands}};
  if (!notes.dropped_warning.empty()) stats["stimulus"]["warning"] = notes.dropped_warning;
}

void add_average_power(nlohmann::json& stats, double ns) {
  // pJ per ns is mW; stats.json gives W.
  const auto watts = [ns](double pj) { return ns > 0 ? pj / ns * 1e-3 : 0.0; };
  for (auto& [name, block] : stats["blocks"].items())
    block["average_power_w"] =
        watts(block.value("dynamic_pj", 0.0) + block.value("leakage_pj", 0.0));
  nlohmann::json& power = stats["average_power_w"];
  for (const auto& [name, pj] : stats["energy_pj"].items())
    if (pj.is_number()) power[name] = watts(pj.get<double>());
}

double energy_of_blocks(const nlohmann::json& blocks) {
  double pj = 0;
  for (auto it = blocks.begin(); it != blocks.end(); ++it)
    pj += it->value("dynamic_pj", 0.0) + it->value("leakage_pj", 0.0);
  return pj;
}

namespace {
SmConfig config_of(const Params& params, uint32_t sm) {
  SmConfig c = SmConfig::from(params);
  c.workload_slot_base = sm * c.limits.max_warps;
  return c;
}
}  // namespace

SmNode::SmNode(const Params& params, const std::vector<const DesignSpec*>& designs,
               Workload& workload, const power::TechTable& tech, const CycleClock& clock,
               uint32_t sm, uint32_t sms, const RunSettings& settings, const std::string& parent)
    : clock_(clock),
      parent_prefix_(parent.empty() ? "" : parent + "."),
      config_(config_of(params, sm)),
      shadow_(config_.limits.max_warps, kMaxArchRegisters + 1),
      regfile_("regfile", params, tech, clock, regfile_technology_of(designs, params)),
      crossbar_("crossbar", params, tech, clock.ns_per_cycle()),
      load_store_(config_.memory_system
                      ? std::optional<LoadStoreConfig>(load_store_config(params, sm, sms))
                      : std::nullopt),
      sm_("sm", config_, workload, shadow_, tech, clock, SimParams(&params).quantum_cycles,
          SimParams(&params).max_cycles, load_store_ ? &*load_store_ : nullptr) {
  if (load_store_) {
    const power::TechTable memory = memory_tech(tech);
    l1_ = std::make_unique<memory::L1Cache>("l1", l1_config(params, memory));
    l1c_ = std::make_unique<memory::L1Cache>("l1c", l1c_config(params, memory));
    memory_port_ = std::make_unique<memory::PortMerger>("memory_port");
    sm_.memory_socket()->bind(l1_->cpu_side);
    sm_.constant_socket()->bind(l1c_->cpu_side);
    l1_->mem_side.bind(memory_port_->in);
    l1c_->mem_side.bind(memory_port_->in);
  }
  // The operand path: SM collectors -> crossbar -> design and extra stages -> banks.
  build_designs(params, designs, workload, tech, clock, settings);
  sm_.rf_socket.bind(crossbar_.target);
  OperandStage* last = &crossbar_;
  for (auto& stage : stages_) {
    last->initiator.bind(stage->target);
    last = stage.get();
  }
  last->initiator.bind(regfile_.socket);
  // The sockets stay bound; each hop of the path bound here is also called directly
  // (OperandStage::forward_directly), as through a DMI pointer.
  sm_.use_direct_path(crossbar_);
  last = &crossbar_;
  for (auto& stage : stages_) {
    last->forward_directly(stage->direct());
    last = stage.get();
  }
  last->forward_directly(regfile_.direct());
  // Nothing between the crossbar and the banks: the SM may reach them directly.
  if (stages_.empty()) sm_.use_direct_banks(crossbar_, regfile_);
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
}

nlohmann::json SmNode::stats(uint64_t cycles) {
  const SmCore& core = sm_.core();
  const SmCore::Counters& c = core.counters();
  nlohmann::json stats;
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
  stats["status"] = status;
  if (core.failed())
    stats["error"] = core.failure();
  else if (sm_.hit_max_cycles())
    stats["error"] =
        "stopped at sim.max_cycles = " + std::to_string(cycles) + " before the kernel finished";
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
  stats["memory"] = {{"loads", c.loads},           {"load_hits", c.load_hits},
                     {"stores", c.stores},         {"local_loads", c.local_loads},
                     {"local_hits", c.local_hits}, {"local_stores", c.local_stores}};
  if (l1_) {
    const LoadStoreUnit::Counters& u = sm_.load_store_unit()->counters();
    stats["memory"]["model"] = "memory_system";
    stats["memory"]["load_store_unit"] = {{"instructions", u.instructions},
                                          {"requests", u.requests},
                                          {"bytes_requested", u.bytes_requested},
                                          {"shared_passes", u.shared_passes},
                                          {"constant_loads", u.constant_loads},
                                          {"modelled", u.modelled},
                                          {"traced", u.traced},
                                          {"local", u.local},
                                          {"design_transfers", u.design_transfers}};
    const sc_core::sc_time end = clock_.cycles(cycles);
    for (memory::L1Cache* cache : {l1_.get(), l1c_.get()})
      stats["memory"]["blocks"][cache->basename()] =
          cache->stats(memory::cycle_not_before(cache->clock(), end));
  }
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
    blocks[key_of(*b)] = std::move(j);
  }
  stats["blocks"] = std::move(blocks);
  stats["energy_pj"] = {{"dynamic", dynamic},
                        {"leakage", leakage},
                        {"total", dynamic + leakage},
                        {"register_file", register_file}};
  return stats;
}

const StatSet* SmNode::block_statistics(const std::string& name) const {
  for (const ReportingBlock* b : blocks_)
    if (key_of(*b) == name) return b->statistics();
  return nullptr;
}

nlohmann::json SmNode::describe_blocks() const {
  nlohmann::json blocks = nlohmann::json::object();
  for (const ReportingBlock* b : blocks_) blocks[key_of(*b)] = b->describe();
  if (l1_) blocks[l1_->basename()] = l1_->describe();
  if (l1c_) blocks[l1c_->basename()] = l1c_->describe();
  return blocks;
}

std::string SmNode::key_of(const ReportingBlock& block) const {
  std::string name = block.block_name();
  if (!parent_prefix_.empty() && name.compare(0, parent_prefix_.size(), parent_prefix_) == 0)
    name.erase(0, parent_prefix_.size());
  return name;
}

// A stage and every block inside it (its SystemC children, e.g. rfv.renaming_table)
// report in stats.json and describe.
void SmNode::add_reporting_blocks(sc_core::sc_object& object) {
  if (auto* block = dynamic_cast<ReportingBlock*>(&object)) blocks_.push_back(block);
  for (sc_core::sc_object* child : object.get_child_objects()) add_reporting_blocks(*child);
}

// Every design elaborates its blocks; their stages and the extra ones sit on the path
// by their placements (order_operand_path).
void SmNode::build_designs(const Params& params, const std::vector<const DesignSpec*>& designs,
                           Workload& workload, const power::TechTable& tech,
                           const CycleClock& clock, const RunSettings& settings) {
  machine_ = machine_shape(config_);
  workload_description_ = workload.describe();
  const DesignContext context{params,
                              tech,
                              clock,
                              workload.shape(),
                              workload_description_,
                              machine_,
                              sm_.core().occupancy(),
                              regfile_.core().config(),
                              workload.metadata(),
                              regfile_.storage_power(),
                              sm_.load_store_unit()};
  DesignAssembly assembly(context, "");
  for (const DesignSpec* design : designs) {
    assembly.next_design(design->name);
    design->build(assembly);
  }
  if (settings.extra_stages) {
    assembly.next_design("RunSettings::extra_stages");
    for (auto& stage : settings.extra_stages(assembly.context()))
      assembly.add_stage(std::move(stage), settings.extra_placement);
  }
  for (auto& p : order_operand_path(std::move(assembly.placed())))
    stages_.push_back(std::move(p.stage));
}

nlohmann::json SmNode::operand_path() const {
  nlohmann::json path = {"sm.collectors", "crossbar"};
  for (const auto& stage : stages_) path.push_back(stage->basename());
  path.push_back("regfile");
  return path;
}

void SmNode::check_register_file_fits() const {
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

}  // namespace warpreg

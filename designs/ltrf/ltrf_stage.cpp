#include "designs/ltrf/ltrf_stage.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_module.h"
#include "power/tech_scaling.h"

namespace warpreg {

namespace {

LtrfMode mode_of(const std::string& text) {
  if (text == "direct") return LtrfMode::Direct;
  if (text == "rfc") return LtrfMode::Rfc;
  if (text == "ltrf") return LtrfMode::Ltrf;
  if (text == "ltrf-plus") return LtrfMode::LtrfPlus;
  return LtrfMode::Off;
}

const RegisterSet kNoRegisters;

}  // namespace

LtrfConfig LtrfConfig::from(const Params& p, const DesignContext& context) {
  LtrfConfig c;
  LtrfCoreConfig& k = c.core;
  k.mode = mode_of(p.text("ltrf.mode"));
  if (k.mode == LtrfMode::Off) return c;
  c.main_rf_config = static_cast<uint32_t>(p.integer("ltrf.main_rf_config"));
  const MainRfTechnology& tech = main_rf_technology(c.main_rf_config);
  const double scale = p.real("ltrf.main_rf_latency_scale");
  c.latency_scale = scale > 0.0 ? scale : tech.latency;
  const int64_t base = p.integer("ltrf.main_rf_base_latency");
  c.base_latency = static_cast<uint32_t>(base > 0 ? base : p.integer("rf.read_latency"));
  k.regs_per_interval = static_cast<uint32_t>(p.integer("ltrf.regs_per_interval"));
  k.active_warps = static_cast<uint32_t>(p.integer("ltrf.active_warps"));
  k.max_warps = context.machine.limits.max_warps;
  k.resident_warps = context.occupancy.warps();
  k.regs_per_warp = context.occupancy.regs_per_warp();
  k.max_regs_per_thread = static_cast<uint32_t>(p.integer("ltrf.max_regs_per_thread"));
  k.lookup_cycles = static_cast<uint32_t>(p.integer("ltrf.lookup_cycles"));
  k.wcb_read_ports = static_cast<uint32_t>(p.integer("ltrf.wcb_read_ports"));
  k.cache_latency = static_cast<uint32_t>(p.integer("ltrf.cache_latency"));
  k.fill_cycles = static_cast<uint32_t>(p.integer("ltrf.fill_cycles"));
  k.rfc_shared = p.text("ltrf.rfc_sharing") == "shared";
  c.strands = p.text("ltrf.prefetch_unit") == "strand";
  const int64_t miss = p.integer("ltrf.miss_cycles");
  k.miss_cycles = static_cast<uint32_t>(miss > 0 ? miss : 2 * p.integer("mem.hit_latency"));
  if (k.active_warps > k.max_warps)
    throw ConfigError("ltrf.active_warps = " + std::to_string(k.active_warps) +
                      " exceeds sm.max_warps = " + std::to_string(k.max_warps));
  if (k.regs_per_warp > k.max_regs_per_thread)
    throw ConfigError("the kernel uses " + std::to_string(k.regs_per_warp) +
                      " registers per thread but ltrf.max_regs_per_thread = " +
                      std::to_string(k.max_regs_per_thread));
  // The main RF: sm.registers in rf.banks x (Table 2 bank multiplier) banks.
  RegFileConfig main = RegisterFileModule::config_from(p);
  const uint32_t registers = main.physical_registers();
  main.banks *= tech.banks;
  if (registers % main.banks != 0)
    throw ConfigError("ltrf.main_rf_config = " + std::to_string(c.main_rf_config) + " has " +
                      std::to_string(main.banks) + " banks, which do not split the " +
                      std::to_string(registers) + " warp registers of sm.registers evenly");
  main.entries_per_bank = registers / main.banks;
  main.lane_slices = 1;
  main.read_latency =
      std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(c.base_latency * c.latency_scale)));
  main.write_latency = main.read_latency;
  k.main = main;
  try {
    k.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("ltrf: ") + e.what());
  }
  return c;
}

// ---------------------------------------------------------------- program

LtrfProgram::LtrfProgram(std::vector<RegisterSet> interval_sets,
                         const std::vector<std::pair<uint64_t, uint32_t>>& pc_intervals)
    : sets_(std::move(interval_sets)) {
  for (const auto& [pc, interval] : pc_intervals) {
    index_of_pc_[pc] = static_cast<uint32_t>(interval_.size());
    interval_.push_back(interval);
    dead_.emplace_back();
    header_.push_back(false);
  }
}

uint32_t LtrfProgram::interval_of(uint64_t pc) const {
  const auto it = index_of_pc_.find(pc);
  return it == index_of_pc_.end() ? kNoInterval : interval_[it->second];
}

bool LtrfProgram::starts_unit(uint64_t pc) const {
  const auto it = index_of_pc_.find(pc);
  return it != index_of_pc_.end() && header_[it->second];
}

const RegisterSet& LtrfProgram::dead_after(uint64_t pc) const {
  const auto it = index_of_pc_.find(pc);
  return it == index_of_pc_.end() ? kNoRegisters : dead_[it->second];
}

// ---------------------------------------------------------------- stage

namespace {

LtrfProgram program_for(const LtrfConfig& config, const DesignContext& context) {
  const bool prefetching =
      config.core.mode == LtrfMode::Ltrf || config.core.mode == LtrfMode::LtrfPlus;
  if (!context.metadata.has_static_code()) {
    if (prefetching)
      throw ConfigError("ltrf.mode = " + std::string(to_string(config.core.mode)) +
                        " needs the kernel's static code for its register-intervals; workload '" +
                        context.workload +
                        "' has none (use a profile, a .dot kernel or a .traceg trace, or "
                        "ltrf.mode = rfc / direct)");
    return {};
  }
  return *context.optional<LtrfProgram>(kLtrfProgram);
}

}  // namespace

LtrfStage::LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config,
                     const DesignContext& context)
    : LtrfStage(name, config, context.clock, context.tech, program_for(config, context)) {}

LtrfStage::LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config,
                     const CycleClock& clock, const power::TechTable& tech, LtrfProgram program)
    : OperandStage(name),
      config_(config),
      clock_(clock),
      program_(std::move(program)),
      core_(config.core, program_.interval_sets()),
      asked_(config.core.max_warps),
      energy_("ltrf", clock.ns_per_cycle()) {
  declare_energy(tech);
}

void LtrfStage::declare_energy(const power::TechTable& tech) {
  const MainRfTechnology& t = main_rf_technology(config_.main_rf_config);
  const LtrfCoreConfig& k = config_.core;
  const double read_pj = power::scaled(tech, "rf_bank_read", "access_bytes", kWarpRegisterBytes);
  const double write_pj = power::scaled(tech, "rf_bank_write", "access_bytes", kWarpRegisterBytes);
  cache_reads_ = energy_.add_event(
      "cache_reads", "register-file-cache bank reads (128 B; HP SRAM as configuration #1)",
      read_pj);
  cache_writes_ =
      energy_.add_event("cache_writes", "register-file-cache bank writes (128 B)", write_pj);
  main_reads_ = energy_.add_event(
      "main_reads", "main register-file reads: 128 B bank access x Table 2 power multiplier",
      read_pj * t.power);
  main_writes_ = energy_.add_event(
      "main_writes", "main register-file writes: 128 B bank access x Table 2 power multiplier",
      write_pj * t.power);
  wcb_lookups_ = energy_.add_event(
      "wcb_lookups", "warp-control-block address-table lookups; no seed energy: counted only", 0.0);
  transfers_ = energy_.add_event(
      "crossbar_transfers",
      "registers moved over the narrow main-RF/cache crossbar; no seed energy: counted only", 0.0);
  // Leakage: cache banks of active_warps x 128 B in HP SRAM; the main RF's banks at
  // the per-byte leakage of configuration #1 scaled by Table 2's power / capacity.
  const double cache_mw = power::scaled(tech, "rf_bank_leakage", "bank_bytes",
                                        double(k.active_warps) * kWarpRegisterBytes);
  const double cache_states[power::kPowerStateCount] = {cache_mw, cache_mw, 0.0, 0.0};
  if (k.mode != LtrfMode::Direct)
    energy_.add_residency("cache_banks", "register-file-cache banks", k.regs_per_interval,
                          power::PowerState::On, cache_states);
  const double main_mw = power::scaled(tech, "rf_bank_leakage", "bank_bytes",
                                       double(k.main.entries_per_bank) * kWarpRegisterBytes) *
                         t.power / t.capacity;
  const double main_states[power::kPowerStateCount] = {main_mw, main_mw, 0.0, 0.0};
  energy_.add_residency("main_banks", "main register-file banks (Table 2 technology)", k.main.banks,
                        power::PowerState::On, main_states);
}

IssueVerdict LtrfStage::before_issue(uint32_t slot, uint32_t /*cta_slot*/, uint32_t index,
                                     const WarpInst& inst, uint64_t now) {
  AskedPc& asked = asked_[slot];
  if (asked.pc != inst.pc) {
    asked.pc = inst.pc;
    asked.interval = program_.interval_of(inst.pc);
    asked.header = program_.strands() && program_.starts_unit(inst.pc);
  }
  switch (core_.before_issue(slot, asked.interval, now, asked.header, index)) {
    case LtrfCore::Ask::Issue:
      return IssueVerdict::Issue;
    case LtrfCore::Ask::Prefetch:
      return IssueVerdict::Metadata;
    case LtrfCore::Ask::Wait:
      break;
  }
  return IssueVerdict::Wait;
}

void LtrfStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst, uint64_t now) {
  ++issued_instructions_;
  core_.issued(slot, inst, program_.dead_after(inst.pc), now);
}

void LtrfStage::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  switch (a.kind) {
    case RfAccessKind::Read: {
      const uint64_t ready = core_.read(a.warp_slot, a.arch_reg, a.operand_slot, a.active_mask,
                                        clock_.cycle_at(delay), register_of(payload));
      clock_.complete_at(delay, ready);
      payload.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    case RfAccessKind::Write: {
      const uint64_t ready = core_.write(a.warp_slot, a.arch_reg, a.active_mask,
                                         register_of(payload), clock_.cycle_at(delay));
      clock_.complete_at(delay, ready);
      payload.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    case RfAccessKind::Launch:
      core_.launch(a.warp_slot, clock_.cycle_at(delay));
      break;
    case RfAccessKind::Retire:
      core_.retire(a.warp_slot, clock_.cycle_at(delay));
      break;
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

// ---------------------------------------------------------------- reports

nlohmann::json LtrfStage::stats(uint64_t end_cycle) {
  const LtrfCore::Counters& c = core_.counters();
  if (!energy_counted_) {
    energy_counted_ = true;
    energy_.count(cache_reads_, c.cache_reads);
    energy_.count(cache_writes_, c.cache_writes);
    energy_.count(main_reads_, c.main_reads);
    energy_.count(main_writes_, c.main_writes);
    energy_.count(wcb_lookups_, c.wcb_lookups);
    energy_.count(transfers_, c.crossbar_transfers);
    energy_.finish(end_cycle);
  }
  nlohmann::json j = energy_.to_json();
  j["storage_bits"] = describe()["storage_bits"]["total"];
  j["mode"] = to_string(config_.core.mode);
  j["main_rf_config"] = config_.main_rf_config;
  j["main_rf_latency_cycles"] = config_.core.main.read_latency;
  j["prefetches"] = c.prefetches;
  j["activations"] = c.activations;
  j["deactivations"] = c.deactivations;
  j["miss_deactivations"] = c.miss_deactivations;
  j["fetched"] = c.fetched;
  j["allocated_dead"] = c.allocated_dead;
  j["written_back"] = c.written_back;
  j["dropped_dead"] = c.dropped_dead;
  j["evicted"] = c.evicted;
  j["read_hits"] = c.read_hits;
  j["read_misses"] = c.read_misses;
  const uint64_t reads = c.read_hits + c.read_misses;
  j["hit_rate"] = reads ? double(c.read_hits) / double(reads) : 0.0;
  j["cache_reads"] = c.cache_reads;
  j["cache_writes"] = c.cache_writes;
  j["main_reads"] = c.main_reads;
  j["main_writes"] = c.main_writes;
  j["direct_writes"] = c.direct_writes;
  j["unfetched_reads"] = c.unfetched_reads;
  j["wcb_lookups"] = c.wcb_lookups;
  j["wcb_port_stalls"] = c.wcb_port_stalls;
  j["crossbar_transfers"] = c.crossbar_transfers;
  const uint64_t fills = c.prefetches + c.activations;
  j["mean_prefetch_cycles"] = fills ? double(c.prefetch_wait_cycles) / double(fills) : 0.0;
  j["max_prefetch_cycles"] = c.max_prefetch_cycles;
  j["instructions_per_prefetch"] =
      c.prefetches ? double(issued_instructions_) / double(c.prefetches) : 0.0;
  j["intervals"] = program_.intervals();
  j["mean_static_interval_length"] = program_.mean_static_length();
  const RegFileCore::Counters& m = core_.main().counters();
  j["main_conflicted_reads"] = m.conflicted_reads;
  j["main_conflict_cycles"] = m.conflict_cycles;
  return j;
}

nlohmann::json LtrfStage::describe() const {
  const LtrfCoreConfig& k = config_.core;
  const MainRfTechnology& t = main_rf_technology(config_.main_rf_config);
  const uint64_t main_bits = k.main.storage_bits();
  const bool caches = k.mode != LtrfMode::Direct;
  const uint64_t wcb = caches ? core_.wcb_storage_bits() : 0;
  const uint64_t cache = caches ? core_.cache_storage_bits() : 0;
  const uint64_t queues = caches ? core_.queue_storage_bits() : 0;
  return {{"storage_bits",
           {{"warp_control_blocks", wcb},
            {"register_file_cache", cache},
            {"allocation_queues", queues},
            {"main_register_file", main_bits},
            {"total", wcb + cache + queues + main_bits}}},
          {"organisation",
           {{"cache_banks", k.regs_per_interval},
            {"cache_entries_per_bank", k.active_warps},
            {"cache_bytes", cache / 8},
            {"wcb_entry_bits", bits_for(k.regs_per_interval)},
            {"warp_offset_bits", bits_for(k.active_warps)},
            {"main_banks", k.main.banks},
            {"main_entries_per_bank", k.main.entries_per_bank}}},
          {"ports", {{"wcb_read", k.wcb_read_ports}, {"cache_bank", {{"read", 1}, {"write", 1}}}}},
          {"latency_cycles",
           {{"wcb_lookup", k.lookup_cycles},
            {"cache", k.cache_latency},
            {"main_rf", k.main.read_latency},
            {"crossbar_transfer", k.fill_cycles}}},
          {"parameters",
           {{"mode", to_string(k.mode)},
            {"main_rf_config", config_.main_rf_config},
            {"main_rf_technology", t.cell},
            {"main_rf_network", t.network},
            {"capacity_multiplier", t.capacity},
            {"power_multiplier", t.power},
            {"latency_multiplier", config_.latency_scale},
            {"regs_per_interval", k.regs_per_interval},
            {"active_warps", k.active_warps},
            {"rfc_sharing", k.rfc_shared ? "shared" : "pool"},
            {"prefetch_unit", config_.strands ? "strand" : "interval"},
            {"max_regs_per_thread", k.max_regs_per_thread}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

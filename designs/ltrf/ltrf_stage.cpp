#include "designs/ltrf/ltrf_stage.h"

#include <algorithm>
#include <stdexcept>

#include "common/errors.h"
#include "modules/interfaces/design_context.h"

namespace warpreg {

WARPREG_REGISTER_STATS(LtrfStats);

LtrfConfig LtrfConfig::from(const DesignContext& context) {
  const Params& p = context.params;
  const LtrfParams ltrf(&p);
  const MainRfParams main(&p);
  const RegisterFileCacheParams cache(&p);
  const AddressAllocationParams allocation(&p);
  LtrfConfig c;
  c.main_rf_config = main.config;
  c.main_rf = main_rf_regfile_technology(main);
  c.strands = ltrf.prefetch_unit == PrefetchUnit::Strand;
  LtrfCoreConfig& k = c.core;
  k.mode = ltrf.mode;
  k.max_warps = context.machine.limits.max_warps;
  k.regs_per_warp = context.occupancy.regs_per_warp();
  k.rfc_shared = k.mode == LtrfMode::Rfc && ltrf.rfc_sharing == RfcSharing::Shared;
  c.active_pool = ltrf.active_pool;
  k.miss_cycles =
      ltrf.miss_cycles > 0 ? ltrf.miss_cycles.get() : 2 * context.machine.load_hit_latency;
  c.cache.banks = cache.regs_per_interval;
  c.cache.entries_per_bank = cache.active_warps;
  c.cache.latency = cache.cache_latency;
  c.cache.fill_cycles = cache.fill_cycles;
  c.allocation.max_warps = k.max_warps;
  c.allocation.banks = c.cache.banks;
  c.allocation.offsets = c.cache.entries_per_bank;
  c.allocation.table_entries = allocation.max_regs_per_thread;
  c.allocation.lookup_cycles = allocation.lookup_cycles;
  c.allocation.read_ports = allocation.wcb_read_ports;
  if (!c.controls()) return c;
  if (c.cache.entries_per_bank > k.max_warps)
    throw ConfigError("ltrf.active_warps = " + std::to_string(c.cache.entries_per_bank) +
                      " exceeds sm.max_warps = " + std::to_string(k.max_warps));
  if (k.regs_per_warp > c.allocation.table_entries)
    throw ConfigError("the kernel uses " + std::to_string(k.regs_per_warp) +
                      " registers per thread but ltrf.max_regs_per_thread = " +
                      std::to_string(c.allocation.table_entries));
  return c;
}

// ---------------------------------------------------------------- elaboration

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
      asked_(config.core.max_warps),
      phys_base_(config.core.max_warps),
      cta_of_(config.core.max_warps, 0),
      energy_(this->name(), clock.ns_per_cycle()) {
  for (uint32_t s = 0; s < config_.core.max_warps; ++s)
    phys_base_[s] = s * config_.core.regs_per_warp;
  if (!config_.controls()) return;
  try {
    MainRegisterFile& main = *this;
    if (!config_.caches()) {
      // BL and Ideal on the paper's scheduler: the pool's warp-offset slots and nothing
      // in them (no storage or energy is reported for either).
      pool_slots_ = std::make_unique<AddressAllocationCore>(config_.allocation);
      no_cache_ = std::make_unique<RegisterFileCacheCore>(config_.cache);
      core_ = std::make_unique<LtrfCore>(config_.core, std::vector<RegisterSet>{}, *pool_slots_,
                                         *no_cache_, main);
      return;
    }
    allocation_ = std::make_unique<AddressAllocationModule>("address_allocation_unit",
                                                            config_.allocation, tech, clock_);
    cache_ = std::make_unique<RegisterFileCacheModule>("register_file_cache", config_.cache, tech,
                                                       clock_);
    core_ = std::make_unique<LtrfCore>(config_.core, program_.interval_sets(), allocation_->core(),
                                       cache_->core(), main);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("ltrf: ") + e.what());
  }
}

// ---------------------------------------------------------------- issue stage

IssueVerdict LtrfStage::before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index,
                                     const WarpInst& inst, uint64_t now) {
  if (!core_) return IssueVerdict::Issue;
  cta_of_[slot] = static_cast<uint16_t>(cta_slot);
  AskedPc& asked = asked_[slot];
  if (asked.pc != inst.pc) {
    asked.pc = inst.pc;
    asked.index = program_.index_of(inst.pc);
    asked.interval = program_.interval_at(asked.index);
    asked.header = program_.strands() && program_.starts_unit_at(asked.index);
  }
  switch (core_->before_issue(slot, asked.interval, now, asked.header, index)) {
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
  if (!core_) return;
  // The warp issues the instruction it was asked about last (a hook is asked first).
  const AskedPc& asked = asked_[slot];
  const uint32_t index = asked.pc == inst.pc ? asked.index : program_.index_of(inst.pc);
  core_->issued(slot, inst, program_.dead_at(index), now);
}

uint64_t LtrfStage::next_change(uint64_t now) const {
  return core_ ? core_->next_change(now) : ~uint64_t(0);
}

std::string LtrfStage::wait_report() const { return core_ ? core_->wait_report() : std::string(); }

// ---------------------------------------------------------------- operand path

bool LtrfStage::check(tlm::tlm_generic_payload& payload, const RfAccess& a) {
  if (!core_) return true;
  const bool data = a.kind == RfAccessKind::Read || a.kind == RfAccessKind::Write;
  const bool named = data || a.kind == RfAccessKind::Launch || a.kind == RfAccessKind::Retire;
  if (named && a.warp_slot >= config_.core.max_warps) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "warp slot beyond ltrf's");
    return false;
  }
  if (data && a.arch_reg >= config_.core.regs_per_warp) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
           "architected register beyond the kernel's");
    return false;
  }
  return true;
}

void LtrfStage::transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  if (!check(payload, a)) return;
  if (!config_.caches()) {
    // Mode direct: the main register file serves everything; the active pool (if any)
    // learns of launches, retirements and the results its loads wait for.
    if (a.kind == RfAccessKind::Read) {
      ++direct_.read_misses;
      ++direct_.main_reads;
    } else if (a.kind == RfAccessKind::Write) {
      ++direct_.main_writes;
      if (core_ && a.warp_slot < config_.core.max_warps && a.arch_reg < config_.core.regs_per_warp)
        core_->result_arrived(a.warp_slot, a.arch_reg);
    } else if (core_ && a.kind == RfAccessKind::Launch) {
      core_->launch(a.warp_slot, clock_.cycle_at(delay));
    } else if (core_ && a.kind == RfAccessKind::Retire) {
      core_->retire(a.warp_slot, clock_.cycle_at(delay));
    }
    forward(payload, a, delay);
    return;
  }
  const uint64_t cycle = clock_.cycle_at(delay);
  switch (a.kind) {
    case RfAccessKind::Read:
    case RfAccessKind::Write:
      clock_.complete_at(delay, serve_cached(payload, a, cycle));
      return;
    case RfAccessKind::Wake:
      pass_wake(payload, a, delay);
      return;
    case RfAccessKind::Launch:
      cta_of_[a.warp_slot] = a.cta_slot;
      if (a.phys_reg != kNoPhysical) phys_base_[a.warp_slot] = a.phys_reg;
      core_->launch(a.warp_slot, cycle);
      break;
    case RfAccessKind::Retire:
      core_->retire(a.warp_slot, cycle);
      break;
    default:
      break;
  }
  forward(payload, a, delay);
}

uint64_t LtrfStage::serve_cached(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle) {
  // A miss or an uncached result goes on as this very transaction (read/write below).
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  current_ = &payload;
  current_access_ = &a;
  const uint64_t ready =
      a.kind == RfAccessKind::Read
          ? core_->read(a.warp_slot, a.arch_reg, a.operand_slot, a.active_mask, cycle,
                        register_of(payload))
          : core_->write(a.warp_slot, a.arch_reg, a.active_mask, register_of(payload), cycle);
  current_ = nullptr;
  current_access_ = nullptr;
  if (payload.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return ready;
}

DirectTransport LtrfStage::direct() {
  // Mode direct: everything goes through transport().
  if (!config_.caches()) return OperandStage::direct();
  return serving_at<LtrfStage>(OperandStage::direct(), clock_);
}

bool LtrfStage::serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                         uint64_t& ready) {
  if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) return false;
  ready = check(payload, a) ? serve_cached(payload, a, cycle) : cycle;
  return true;
}

void LtrfStage::pass_wake(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  // A destination the cache will take is not in the main register file: the Wake goes on
  // without a register (as the SM sends one for an instruction without a destination), so
  // a power controller behind wakes nothing and COMA still learns the collector's mask.
  const uint32_t phys = a.phys_reg;
  if (phys != kNoPhysical && a.warp_slot < config_.core.max_warps &&
      a.arch_reg < config_.core.regs_per_warp && core_->takes_result(a.warp_slot, a.arch_reg))
    a.phys_reg = kNoPhysical;
  forward(payload, a, delay);
  a.phys_reg = phys;
}

// ---------------------------------------------------------------- the main register file

void LtrfStage::own_access(RfAccessKind kind, WarpRegister* buffer, uint32_t slot, uint16_t reg,
                           LaneMask lanes) {
  own_.prepare(kind, buffer);
  RfAccess& a = own_.access();
  a.warp_slot = static_cast<uint16_t>(slot);
  a.cta_slot = cta_of_[slot];
  a.arch_reg = reg;
  a.collector = kNoCollector;
  a.operand_slot = 0;
  a.active_mask = lanes;
  a.phys_reg = phys_base_[slot] + reg;
  a.regs_per_warp = 0;
  a.pc = 0;
}

tlm::tlm_generic_payload& LtrfStage::collectors_access(const WarpRegister& buffer) const {
  if (current_ == nullptr || &register_of(*current_) != &buffer)
    throw std::logic_error("ltrf: the collector's own access outside its transaction");
  return *current_;
}

uint64_t LtrfStage::send_own(uint64_t cycle, const char* what) {
  tlm::tlm_generic_payload& p = own_.payload();
  const uint64_t done = send_at(p, own_.access(), clock_, cycle);
  if (p.is_response_error())
    SC_REPORT_ERROR(
        "warpreg/ltrf",
        (std::string(what) + " the main register file failed: " + p.get_response_string()).c_str());
  return done;
}

MainRegisterFile::Read LtrfStage::read(uint32_t slot, uint16_t reg, uint64_t cycle,
                                       WarpRegister& out, MainAccess access) {
  if (access == MainAccess::Operand) {
    tlm::tlm_generic_payload& p = collectors_access(out);
    return {send_at(p, *current_access_, clock_, cycle), current_access_->read_lanes};
  }
  own_access(RfAccessKind::Read, &out, slot, reg, kFullMask);
  return {send_own(cycle, "fill from"), own_.access().read_lanes};
}

uint64_t LtrfStage::write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                          LaneMask mask, MainAccess access) {
  if (access == MainAccess::Result)
    return send_at(collectors_access(value), *current_access_, clock_, cycle);
  // Stages behind may transform the buffer (a codec): write back a copy.
  write_back_ = value;
  own_access(RfAccessKind::Write, &write_back_, slot, reg, mask);
  return send_own(cycle, "write-back to");
}

// ---------------------------------------------------------------- reports

nlohmann::json LtrfStage::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  LtrfCore::Counters c = core_ ? core_->counters() : direct_;
  if (!config_.caches()) {
    c.read_misses = direct_.read_misses;
    c.main_reads = direct_.main_reads;
    c.main_writes = direct_.main_writes;
  }
  LtrfStats& s = stats_;
  s.mode.set(to_string(config_.core.mode));
  s.main_rf_config.set(config_.main_rf_config);
  s.main_rf_latency_multiplier.set(config_.main_rf.latency_multiplier);
  s.storage_bits.set(config_.caches() ? core_->bit_vector_bits(config_.allocation.table_entries)
                                      : 0);
  s.prefetches.set(c.prefetches);
  s.activations.set(c.activations);
  s.deactivations.set(c.deactivations);
  s.miss_deactivations.set(c.miss_deactivations);
  s.fetched.set(c.fetched);
  s.allocated_dead.set(c.allocated_dead);
  s.written_back.set(c.written_back);
  s.dropped_dead.set(c.dropped_dead);
  s.evicted.set(c.evicted);
  s.read_hits.set(c.read_hits);
  s.read_misses.set(c.read_misses);
  const uint64_t reads = c.read_hits + c.read_misses;
  s.hit_rate.set(reads ? double(c.read_hits) / double(reads) : 0.0);
  s.main_reads.set(c.main_reads);
  s.main_writes.set(c.main_writes);
  s.direct_writes.set(c.direct_writes);
  s.unfetched_reads.set(c.unfetched_reads);
  const uint64_t fills = c.prefetches + c.activations;
  s.mean_prefetch_cycles.set(fills ? double(c.prefetch_wait_cycles) / double(fills) : 0.0);
  s.max_prefetch_cycles.set(c.max_prefetch_cycles);
  s.instructions_per_prefetch.set(c.prefetches ? double(issued_instructions_) / double(c.prefetches)
                                               : 0.0);
  s.intervals.set(program_.intervals());
  s.mean_static_interval_length.set(program_.mean_static_length());
  nlohmann::json j = energy_.to_json();
  s.write(j);
  return j;
}

nlohmann::json LtrfStage::describe() const {
  const MainRfTechnology& t = main_rf_technology(config_.main_rf_config);
  const uint64_t vectors =
      config_.caches() ? core_->bit_vector_bits(config_.allocation.table_entries) : 0;
  return {
      {"storage_bits", {{"warp_control_block_bit_vectors", vectors}, {"total", vectors}}},
      {"organisation",
       {{"mode", to_string(config_.core.mode)},
        {"active_warps", config_.controls() ? config_.cache.entries_per_bank : 0},
        {"registers_per_interval", config_.caches() ? config_.cache.banks : 0},
        {"prefetch_unit", config_.strands ? "strand" : "interval"},
        {"rfc_sharing", config_.core.rfc_shared ? "shared" : "pool"},
        {"load_miss_threshold_cycles", config_.core.miss_cycles},
        {"children", config_.caches() ? nlohmann::json{allocation_->name(), cache_->name()}
                                      : nlohmann::json::array()}}},
      {"main_register_file",
       {{"block", "regfile (the SM's register file, built with this technology)"},
        {"main_rf_config", config_.main_rf_config},
        {"technology", t.cell},
        {"network", t.network},
        {"capacity_multiplier", t.capacity},
        {"power_multiplier", t.power},
        {"bank_multiplier", config_.main_rf.bank_multiplier},
        {"latency_multiplier", config_.main_rf.latency_multiplier},
        {"access_energy_multiplier", config_.main_rf.access_energy_multiplier},
        {"leakage_multiplier", config_.main_rf.leakage_multiplier}}},
      {"ports",
       {{"target", "operand path from the collectors"},
        {"initiator", "misses, uncached results, fills and write-backs to the main register file"},
        {"issue_hook", "active pool and PREFETCH"}}},
      {"latency_cycles", nlohmann::json::object()},
      {"energy", energy_.describe()}};
}

}  // namespace warpreg

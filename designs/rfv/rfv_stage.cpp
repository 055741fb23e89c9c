#include "designs/rfv/rfv_stage.h"

#include <algorithm>
#include <stdexcept>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/design_context.h"
#include "power/tech_scaling.h"

namespace warpreg {

RfvConfig RfvConfig::from(const Params& p, const SmLimits& limits, const RegFileGeometry& regfile) {
  RfvConfig c;
  const std::string mode = p.text("rfv.mode");
  c.mode = mode == "compiler"   ? RfvMode::Compiler
           : mode == "hardware" ? RfvMode::Hardware
                                : RfvMode::Off;
  c.table_bytes = static_cast<uint32_t>(p.integer("rfv.table_bytes"));
  c.lookup_cycles = static_cast<uint32_t>(p.integer("rfv.lookup_cycles"));
  c.power_gating = p.text("rfv.power_gating") == "on";
  c.wakeup_cycles = static_cast<uint32_t>(p.integer("rfv.wakeup_cycles"));
  const int64_t physical = p.integer("rf.physical_registers");
  c.renaming.physical_registers =
      static_cast<uint32_t>(physical > 0 ? physical : limits.registers / kWarpSize);
  c.renaming.max_warps = limits.max_warps;
  c.renaming.max_regs_per_thread = static_cast<uint32_t>(p.integer("rfv.max_regs_per_thread"));
  c.renaming.rf_banks = regfile.banks;
  c.renaming.table_banks = static_cast<uint32_t>(p.integer("rfv.table_banks"));
  const uint32_t entries = c.renaming.physical_registers / c.renaming.rf_banks;
  const uint32_t subarrays = static_cast<uint32_t>(p.integer("rfv.subarrays_per_bank"));
  if (entries % subarrays != 0)
    throw ConfigError("rfv.subarrays_per_bank = " + std::to_string(subarrays) +
                      " does not divide the " + std::to_string(entries) +
                      " entries of a register bank");
  c.renaming.subarray_entries = entries / subarrays;
  c.flag_cache.entries = static_cast<uint32_t>(p.integer("rfv.flag_cache_entries"));
  return c;
}

RfvStage::RfvStage(sc_core::sc_module_name name, const RfvConfig& config,
                   const DesignContext& context)
    : OperandStage(name),
      config_(config),
      clock_(context.clock),
      table_(config.renaming),
      flag_cache_(config.flag_cache),
      balance_(context.machine.limits.max_ctas),
      warps_(context.machine.limits.max_warps),
      lookups_in_bank_(config.renaming.table_banks, 0),
      warps_per_cta_(context.occupancy.warps_per_cta),
      spill_latency_(context.machine.memory_latency),
      energy_("rfv", context.clock.ns_per_cycle()) {
  const KernelShape& shape = context.kernel;
  if (config_.mode == RfvMode::Compiler && !context.metadata.has_static_code())
    throw ConfigError(
        "rfv.mode = compiler needs the kernel's static code for its release flags; "
        "workload '" +
        context.workload +
        "' has none (use a profile, a .dot kernel or a .traceg trace, or "
        "rfv.mode = hardware)");
  if (shape.regs_per_thread > config_.renaming.max_regs_per_thread)
    throw ConfigError("the kernel uses " + std::to_string(shape.regs_per_thread) +
                      " registers per thread but rfv.max_regs_per_thread = " +
                      std::to_string(config_.renaming.max_regs_per_thread));

  if (auto compiled = context.optional<RfvMetadata>(kRfvMetadata)) {
    plan_ = compiled->plan;
    program_ = compiled->program;
  } else {
    plan_.regs_per_thread = shape.regs_per_thread;
    plan_.renamed_per_warp = shape.regs_per_thread;
    plan_.exempt.assign(shape.regs_per_thread, false);
  }
  regs_per_thread_ = shape.regs_per_thread;
  try {
    table_.start_kernel(shape.regs_per_thread, plan_.exempt);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("rfv: ") + e.what());
  }

  const power::TechTable& tech = context.tech;
  const double access_pj =
      tech.has("renaming_table_access") ? tech.value("renaming_table_access") : 0.0;
  lookups_ =
      energy_.add_event("lookups", "renaming-table lookups (one per renamed operand)", access_pj);
  updates_ = energy_.add_event("updates", "renaming-table writes: a mapping allocated or released",
                               access_pj);
  pir_decodes_ = energy_.add_event("pir_decodes",
                                   "pir metadata instructions fetched and decoded (flag-cache "
                                   "misses); no seed energy: counted only",
                                   0.0);
  pbr_decodes_ = energy_.add_event(
      "pbr_decodes", "pbr metadata instructions fetched and decoded; no seed energy: counted only",
      0.0);
  const double bank_mw =
      tech.has("renaming_table_leakage") ? tech.value("renaming_table_leakage") : 0.0;
  const double mw[power::kPowerStateCount] = {bank_mw, bank_mw, 0.0, 0.0};
  table_banks_ = energy_.add_residency("table_banks", "renaming-table banks",
                                       config_.renaming.table_banks, power::PowerState::On, mw);

  const uint32_t subarrays = config_.renaming.rf_banks * config_.renaming.subarrays_per_bank();
  subarray_on_.assign(subarrays, true);
  subarray_ready_.assign(subarrays, 0);
  if (config_.power_gating) {
    const double bytes = double(config_.renaming.subarray_entries) * kWarpRegisterBytes;
    const double on = power::scaled(tech, "rf_bank_leakage", "bank_bytes", bytes);
    const double gated =
        tech.has("rf_gated_leakage_fraction") ? on * tech.value("rf_gated_leakage_fraction") : 0.0;
    const double sub_mw[power::kPowerStateCount] = {on, on, 0.0, gated};
    subarrays_ = energy_.add_residency("register_subarrays",
                                       "register-file sub-arrays (ON, or GATED when empty)",
                                       subarrays, power::PowerState::On, sub_mw);
    // Only the sub-arrays holding the exempt area start powered.
    for (uint32_t b = 0; b < config_.renaming.rf_banks; ++b)
      for (uint32_t s = 0; s < config_.renaming.subarrays_per_bank(); ++s)
        if (table_.subarray_occupancy(b, s) == 0) {
          subarray_on_[b * config_.renaming.subarrays_per_bank() + s] = false;
          energy_.transition(subarrays_, power::PowerState::On, power::PowerState::Gated, 0);
        }
  }
}

void RfvStage::note_occupancy(uint32_t phys, uint64_t cycle) {
  // Time-weighted counts of mapped registers and resident warps (Fig. 10's allocation).
  if (cycle > counters_.mapped_since) {
    counters_.mapped_cycles += uint64_t{last_mapped_} * (cycle - counters_.mapped_since);
    counters_.resident_warp_cycles += uint64_t{resident_warps_} * (cycle - counters_.mapped_since);
    counters_.mapped_since = cycle;
  }
  last_mapped_ = table_.mapped_registers();
  if (!config_.power_gating || phys == kNoPhysical) return;
  const uint32_t sub = subarray_index(phys);
  const uint32_t bank = RenamingTable::bank_of_physical(phys, config_.renaming.rf_banks);
  const bool used = table_.subarray_occupancy(bank, table_.subarray_of(phys)) != 0;
  if (used == subarray_on_[sub]) return;
  last_power_cycle_ = std::max(last_power_cycle_, cycle);
  subarray_on_[sub] = used;
  if (used) {
    energy_.transition(subarrays_, power::PowerState::Gated, power::PowerState::On,
                       last_power_cycle_);
    subarray_ready_[sub] = last_power_cycle_ + config_.wakeup_cycles;
    ++counters_.wakeups;
  } else {
    energy_.transition(subarrays_, power::PowerState::On, power::PowerState::Gated,
                       last_power_cycle_);
  }
}

uint32_t RfvStage::allocate(uint32_t slot, uint16_t reg, uint64_t cycle) {
  const uint32_t phys = table_.map_for_write(static_cast<uint16_t>(slot), reg);
  if (phys == kNoPhysical) return phys;
  balance_.allocated(warps_[slot].cta_slot);
  energy_.count(updates_);
  note_occupancy(phys, cycle);
  return phys;
}

// ---------------------------------------------------------------- issue stage

bool RfvStage::destinations_fit(uint32_t slot, const WarpInst& inst) const {
  uint32_t need[64] = {};
  const uint32_t banks = std::min<uint32_t>(config_.renaming.rf_banks, 64);
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    if (r == kZeroRegister || table_.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical)
      continue;
    const uint32_t bank = table_.compiler_bank(static_cast<uint16_t>(slot), r) % banks;
    if (++need[bank] > table_.free_in_bank(bank)) return false;
  }
  return true;
}

IssueVerdict RfvStage::before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index,
                                    const WarpInst& inst, uint64_t now) {
  WarpState& w = warps_[slot];
  if (w.spilled && !refill(slot, now)) return IssueVerdict::Wait;
  if (w.fill_ready > now) return IssueVerdict::Wait;
  if (w.meta_index != index) {
    w.meta_index = index;
    w.pbrs_done = 0;
    w.pir_done = false;
  }
  if (config_.mode == RfvMode::Compiler) {
    if (const RfvProgram::Inst* info = program_.find(inst.pc)) {
      // pbrs are always fetched: each releases its registers as it issues.
      if (w.pbrs_done < info->pbr_count) {
        for (uint16_t r : program_.pbr(info->pbr_first + w.pbrs_done).regs) {
          if (table_.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical) {
            release(slot, r, now);
            ++counters_.released_by_pbr;
          }
        }
        ++w.pbrs_done;
        ++counters_.pbr_fetches;
        energy_.count(pbr_decodes_);
        return IssueVerdict::Metadata;
      }
      if (info->first_of_pir && !w.pir_done) {
        w.pir_done = true;
        const uint64_t pir_pc = program_.pir_pc(info->pir);
        if (!flag_cache_.probe(pir_pc)) {
          flag_cache_.fill(pir_pc, program_.pir_flags(info->pir));
          ++counters_.pir_fetches;
          energy_.count(pir_decodes_);
          return IssueVerdict::Metadata;
        }
      }
    }
  }
  const uint32_t allowed = balance_.allowed_cta(table_.free_registers());
  if (allowed != RegisterBalance::kAnyCta && allowed != cta_slot) {
    ++counters_.throttled;
    return IssueVerdict::Wait;
  }
  if (!destinations_fit(slot, inst)) {
    ++counters_.allocation_waits;
    return IssueVerdict::Wait;
  }
  return IssueVerdict::Issue;
}

void RfvStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst, uint64_t now) {
  WarpState& w = warps_[slot];
  w.meta_index = ~0u;
  ++counters_.warp_instructions;
  // Destinations get their physical register now, so that the writeback always finds
  // one (the paper allocates at the write; a few cycles earlier here).
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    if (r == kZeroRegister || table_.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical)
      continue;
    if (allocate(slot, r, now) == kNoPhysical)
      throw std::logic_error("rfv: issued an instruction whose destination has no register");
  }
  w.release_count = 0;
  if (config_.mode != RfvMode::Compiler) return;
  const RfvProgram::Inst* info = program_.find(inst.pc);
  if (info == nullptr) return;
  for (uint8_t k = 0; k < info->release_count; ++k) {
    const uint16_t r = info->release[k];
    uint8_t reads = 0;
    for (unsigned s = 0; s < inst.num_src; ++s)
      if (inst.src[s] == r) ++reads;
    if (reads == 0) continue;  // the dynamic instruction does not read it: keep it
    w.release[w.release_count] = r;
    w.reads_left[w.release_count] = reads;
    ++w.release_count;
  }
}

void RfvStage::cta_launched(uint32_t cta_slot, uint32_t warps, uint32_t /*regs_per_warp*/,
                            uint64_t /*now*/) {
  balance_.launch(cta_slot, warps * table_.renamed_per_warp());
}

void RfvStage::cta_finished(uint32_t cta_slot, uint64_t /*now*/) { balance_.retire(cta_slot); }

void RfvStage::move_register(RfAccessKind kind, uint32_t slot, uint16_t reg, uint32_t phys,
                             WarpRegister& value, uint64_t cycle) {
  tlm::tlm_generic_payload& payload = spill_txn_.prepare(kind, &value);
  RfAccess& a = spill_txn_.access();
  a.warp_slot = static_cast<uint16_t>(slot);
  a.cta_slot = static_cast<uint16_t>(warps_[slot].cta_slot);
  a.arch_reg = reg;
  a.phys_reg = phys;
  a.active_mask = kFullMask;
  const uint64_t at = cycle * clock_.ticks_per_cycle();
  const uint64_t stamp = sc_core::sc_time_stamp().value();
  sc_core::sc_time delay = sc_core::sc_time::from_value(at > stamp ? at - stamp : 0);
  initiator->b_transport(payload, delay);
}

bool RfvStage::resolve_stall(uint64_t now) {
  // The victim: the waiting warp holding the most renamed registers, outside the CTA
  // the throttle lets run if possible, so the others can go on.
  const uint32_t allowed = balance_.allowed_cta(table_.free_registers());
  uint32_t victim = ~0u, best = 0;
  bool victim_outside = false;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const WarpState& w = warps_[s];
    if (w.spilled || !balance_.resident(w.cta_slot)) continue;
    uint32_t held = 0;
    for (uint32_t r = 0; r < table_.config().max_regs_per_thread; ++r)
      if (!table_.is_exempt(static_cast<uint16_t>(r)) &&
          table_.lookup(static_cast<uint16_t>(s), static_cast<uint16_t>(r)) != kNoPhysical)
        ++held;
    if (held == 0) continue;
    const bool outside = w.cta_slot != allowed;
    if (victim == ~0u || (outside && !victim_outside) ||
        (outside == victim_outside && held > best)) {
      victim = s;
      best = held;
      victim_outside = outside;
    }
  }
  if (victim == ~0u) return false;
  WarpState& w = warps_[victim];
  for (uint32_t r = 0; r < table_.config().max_regs_per_thread; ++r) {
    const auto reg = static_cast<uint16_t>(r);
    const uint32_t phys =
        table_.is_exempt(reg) ? kNoPhysical : table_.lookup(static_cast<uint16_t>(victim), reg);
    if (phys == kNoPhysical) continue;
    w.spill_store.emplace_back(reg, WarpRegister{});
    move_register(RfAccessKind::Read, victim, reg, phys, w.spill_store.back().second, now);
    release(victim, reg, now);
  }
  w.spilled = true;
  ++counters_.spills;
  counters_.spilled_registers += w.spill_store.size();
  return true;
}

bool RfvStage::refill(uint32_t slot, uint64_t now) {
  WarpState& w = warps_[slot];
  // Refill only when every spilled register fits in its bank, with one register to
  // spare per bank so that refilling does not stall everyone again at once.
  std::vector<uint32_t> need(config_.renaming.rf_banks, 0);
  for (const auto& [reg, value] : w.spill_store)
    ++need[table_.compiler_bank(static_cast<uint16_t>(slot), reg)];
  for (uint32_t b = 0; b < need.size(); ++b)
    if (need[b] != 0 && need[b] + 1 > table_.free_in_bank(b)) return false;
  for (auto& [reg, value] : w.spill_store) {
    const uint32_t phys = allocate(slot, reg, now);
    move_register(RfAccessKind::Write, slot, reg, phys, value, now);
  }
  w.spill_store.clear();
  w.spilled = false;
  w.fill_ready = now + spill_latency_;
  ++counters_.fills;
  return false;  // the warp waits for its fill loads
}

uint64_t RfvStage::next_change(uint64_t now) const {
  uint64_t next = ~uint64_t(0);
  for (const WarpState& w : warps_)
    if (w.fill_ready > now) next = std::min(next, w.fill_ready);
  return next;
}

std::string RfvStage::wait_report() const {
  std::string out =
      "  rfv: " + std::to_string(table_.free_registers()) + " free physical registers (";
  for (uint32_t b = 0; b < config_.renaming.rf_banks; ++b)
    out += (b ? " " : "bank ") + std::to_string(table_.free_in_bank(b));
  out += ")";
  const uint32_t allowed = balance_.allowed_cta(table_.free_registers());
  if (allowed != RegisterBalance::kAnyCta)
    out += ", only CTA slot " + std::to_string(allowed) + " may issue";
  out += "; CTA slot balances (C - k):";
  for (uint32_t s = 0; s < balance_.slots(); ++s)
    if (balance_.resident(s))
      out += " " + std::to_string(s) + ":" + std::to_string(balance_.balance(s));
  return out + "\n";
}

// ---------------------------------------------------------------- operand path

void RfvStage::release(uint32_t slot, uint16_t reg, uint64_t cycle) {
  const uint32_t phys = table_.lookup(static_cast<uint16_t>(slot), reg);
  if (table_.release(static_cast<uint16_t>(slot), reg)) {
    balance_.released(warps_[slot].cta_slot);
    energy_.count(updates_);
    note_occupancy(phys, cycle);
  }
}

uint64_t RfvStage::lookup_delay(uint64_t cycle, uint16_t collector, uint16_t reg) {
  // The operands of one instruction look up the table's banks in parallel; two in
  // the same bank serialise (seed 000 §7.1). Exempt registers bypass the table.
  if (collector != lookup_collector_ || cycle != lookup_cycle_) {
    lookup_collector_ = collector;
    lookup_cycle_ = cycle;
    std::fill(lookups_in_bank_.begin(), lookups_in_bank_.end(), 0);
  }
  const uint32_t queued = lookups_in_bank_[reg % lookups_in_bank_.size()]++;
  if (queued != 0) ++counters_.lookup_conflicts;
  energy_.count(lookups_);
  table_.count_lookups(1);
  return queued + config_.lookup_cycles;
}

void RfvStage::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  const uint16_t slot = a.warp_slot;
  switch (a.kind) {
    case RfAccessKind::Launch: {
      warps_[slot] = WarpState{};
      warps_[slot].cta_slot = a.cta_slot;
      const uint64_t cycle = clock_.cycle_at(delay);
      note_occupancy(kNoPhysical, cycle);
      ++resident_warps_;
      break;
    }
    case RfAccessKind::Retire: {
      const uint64_t cycle = clock_.cycle_at(delay);
      for (uint32_t r = 0; r < table_.config().max_regs_per_thread; ++r) {
        if (table_.is_exempt(static_cast<uint16_t>(r)) ||
            table_.lookup(slot, static_cast<uint16_t>(r)) == kNoPhysical)
          continue;
        release(slot, static_cast<uint16_t>(r), cycle);
        ++counters_.released_at_exit;
      }
      note_occupancy(kNoPhysical, cycle);
      --resident_warps_;
      break;
    }
    case RfAccessKind::Read:
    case RfAccessKind::Write: {
      uint32_t phys = table_.lookup(slot, a.arch_reg);
      const uint64_t cycle = clock_.cycle_at(delay);
      if (!table_.is_exempt(a.arch_reg)) {
        // A writeback looks up one register: it never waits for another lookup.
        const uint16_t unit = a.kind == RfAccessKind::Read ? a.collector : kWritebackUnit;
        delay += clock_.cycles(lookup_delay(cycle, unit, a.arch_reg));
      }
      if (phys == kNoPhysical && a.kind == RfAccessKind::Write) {
        // The issue stage mapped this destination, so the register was released while
        // the instruction was in flight: a pbr at a reconvergence point the warp reached
        // in the meantime found it dead (a value written and never read). Nothing
        // reads it, so the write goes nowhere.
        ++counters_.dead_writes;
        payload.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
      }
      if (phys == kNoPhysical) {
        // A read of a register never written: its lanes hold no value the program
        // defined, so any entry will do; map one so later writes find it.
        ++counters_.unwritten_reads;
        phys = allocate(slot, a.arch_reg, cycle);
        if (phys == kNoPhysical) phys = 0;
      }
      if (config_.power_gating) {
        // A register in a sub-array that is still waking up waits for it.
        const uint64_t ready = subarray_ready_[subarray_index(phys)];
        const uint64_t at = clock_.cycle_at(delay);
        if (ready > at) {
          delay += clock_.cycles(ready - at);
          ++counters_.wake_waits;
        }
      }
      a.phys_reg = phys;
      break;
    }
    default:
      break;
  }
  initiator->b_transport(payload, delay);
  if (a.kind != RfAccessKind::Read) return;
  WarpState& w = warps_[slot];
  for (uint8_t k = 0; k < w.release_count; ++k) {
    if (w.release[k] != a.arch_reg || w.reads_left[k] == 0) continue;
    if (--w.reads_left[k] == 0) {
      release(slot, a.arch_reg, clock_.cycle_at(delay));
      ++counters_.released_by_pir;
    }
  }
}

// ---------------------------------------------------------------- reports

nlohmann::json RfvStage::stats(uint64_t end_cycle) {
  note_occupancy(kNoPhysical, end_cycle);
  energy_.finish(std::max(end_cycle, last_power_cycle_));
  nlohmann::json j = energy_.to_json();
  j["breakdown_pj"] = {
      {"renaming_table", energy_.event_pj(lookups_) + energy_.event_pj(updates_) +
                             energy_.group_leakage_pj(table_banks_)},
      {"flag_instructions", energy_.event_pj(pir_decodes_) + energy_.event_pj(pbr_decodes_)},
      {"register_leakage", config_.power_gating ? energy_.group_leakage_pj(subarrays_) : 0.0}};
  // Fig. 10: registers allocated with renaming (renamed ones mapped, plus the exempt
  // ones of resident warps) against the baseline's (every register of every resident warp).
  const double cycles = end_cycle ? double(end_cycle) : 1.0;
  const double mean_mapped = double(counters_.mapped_cycles) / cycles;
  const double mean_warps = double(counters_.resident_warp_cycles) / cycles;
  const double allocated = mean_mapped + mean_warps * table_.exempt_count();
  const double baseline = mean_warps * regs_per_thread_;
  j["mean_mapped_registers"] = mean_mapped;
  j["mean_allocated_registers"] = allocated;
  j["mean_baseline_registers"] = baseline;
  j["allocation_reduction"] = baseline > 0 ? 1.0 - allocated / baseline : 0.0;
  j["warp_instructions"] = counters_.warp_instructions;
  j["dynamic_code_increase"] = counters_.warp_instructions
                                   ? double(counters_.pir_fetches + counters_.pbr_fetches) /
                                         double(counters_.warp_instructions)
                                   : 0.0;
  j["static_code_increase"] = program_.instruction_count()
                                  ? double(program_.pir_count() + program_.pbr_count()) /
                                        double(program_.instruction_count())
                                  : 0.0;
  j["subarray_wakeups"] = counters_.wakeups;
  j["spills"] = counters_.spills;
  j["spilled_registers"] = counters_.spilled_registers;
  j["fills"] = counters_.fills;
  j["wake_waits"] = counters_.wake_waits;
  const RenamingTable::Counters& t = table_.counters();
  const ReleaseFlagCache::Counters& f = flag_cache_.counters();
  j["storage_bits"] = describe()["storage_bits"]["total"];
  j["allocations"] = t.allocations;
  j["releases"] = t.releases;
  j["released_by_pir"] = counters_.released_by_pir;
  j["released_by_pbr"] = counters_.released_by_pbr;
  j["released_at_exit"] = counters_.released_at_exit;
  j["max_mapped_registers"] = t.max_mapped;
  j["exempt_registers"] = table_.exempt_count();
  j["renamed_registers"] = table_.renamed_per_warp();
  j["pir_fetches"] = counters_.pir_fetches;
  j["pbr_fetches"] = counters_.pbr_fetches;
  j["flag_cache_probes"] = f.probes;
  j["flag_cache_hits"] = f.hits;
  j["throttled_issues"] = counters_.throttled;
  j["allocation_waits"] = counters_.allocation_waits;
  j["unwritten_reads"] = counters_.unwritten_reads;
  j["dead_writes"] = counters_.dead_writes;
  j["lookup_conflicts"] = counters_.lookup_conflicts;
  return j;
}

nlohmann::json RfvStage::describe() const {
  const RenamingConfig& r = config_.renaming;
  const uint64_t table_bits =
      config_.table_bytes == 0 ? r.full_table_bits() : uint64_t{config_.table_bytes} * 8;
  const uint64_t availability_bits = r.physical_registers;
  const uint64_t flag_bits = flag_cache_.flag_storage_bits() + flag_cache_.tag_storage_bits();
  const uint64_t balance_bits =
      balance_.storage_bits(r.max_regs_per_thread * std::max<uint32_t>(warps_per_cta_, 1));
  return {{"storage_bits",
           {{"renaming_table", table_bits},
            {"renaming_table_full", r.full_table_bits()},
            {"availability_vectors", availability_bits},
            {"release_flag_cache_flags", flag_cache_.flag_storage_bits()},
            {"release_flag_cache_tags", flag_cache_.tag_storage_bits()},
            {"balance_counters", balance_bits},
            {"total", table_bits + availability_bits + flag_bits + balance_bits}}},
          {"ports", {{"table_banks", r.table_banks}, {"rf_banks", r.rf_banks}}},
          {"latency_cycles", {{"lookup", config_.lookup_cycles}}},
          {"parameters",
           {{"mode", config_.mode == RfvMode::Compiler ? "compiler" : "hardware"},
            {"table_bytes", config_.table_bytes},
            {"physical_registers", r.physical_registers},
            {"entry_bits", r.entry_bits()},
            {"flag_cache_entries", config_.flag_cache.entries},
            {"subarray_entries", r.subarray_entries},
            {"exempt_registers", table_.exempt_count()},
            {"renamed_registers_per_warp", table_.renamed_per_warp()}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

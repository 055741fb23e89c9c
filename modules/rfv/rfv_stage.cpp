#include "modules/rfv/rfv_stage.h"

#include <algorithm>
#include <stdexcept>

#include "modules/common/errors.h"
#include "modules/common/params.h"
#include "platforms/sm/platform.h"
#include "stimuli/compiler/liveness.h"

namespace warpreg {

RfvConfig RfvConfig::from(const Params& p, const DesignContext& context) {
  RfvConfig c;
  const std::string mode = p.text("rfv.mode");
  c.mode = mode == "compiler"   ? RfvMode::Compiler
           : mode == "hardware" ? RfvMode::Hardware
                                : RfvMode::Off;
  c.table_bytes = static_cast<uint32_t>(p.integer("rfv.table_bytes"));
  c.lookup_cycles = static_cast<uint32_t>(p.integer("rfv.lookup_cycles"));
  const int64_t physical = p.integer("rf.physical_registers");
  c.renaming.physical_registers =
      static_cast<uint32_t>(physical > 0 ? physical : context.sm.limits.registers / kWarpSize);
  c.renaming.max_warps = context.sm.limits.max_warps;
  c.renaming.max_regs_per_thread = static_cast<uint32_t>(p.integer("rfv.max_regs_per_thread"));
  c.renaming.rf_banks = static_cast<uint32_t>(p.integer("rf.banks"));
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
      balance_(context.sm.limits.max_ctas),
      warps_(context.sm.limits.max_warps),
      lookups_in_bank_(config.renaming.table_banks, 0),
      warps_per_cta_(context.occupancy.warps_per_cta),
      energy_("rfv", context.clock.ns_per_cycle()) {
  const KernelShape& shape = context.workload.shape();
  const Kernel* kernel = context.workload.static_code();
  if (kernel == nullptr && config_.mode == RfvMode::Compiler)
    throw ConfigError(
        "rfv.mode = compiler needs the kernel's static code for its release flags; "
        "workload '" +
        context.workload.describe() +
        "' has none (use a profile, a .dot kernel or a .traceg trace, or "
        "rfv.mode = hardware)");
  if (shape.regs_per_thread > config_.renaming.max_regs_per_thread)
    throw ConfigError("the kernel uses " + std::to_string(shape.regs_per_thread) +
                      " registers per thread but rfv.max_regs_per_thread = " +
                      std::to_string(config_.renaming.max_regs_per_thread));

  const uint32_t resident_warps = std::max<uint32_t>(context.occupancy.warps(), 1);
  if (kernel != nullptr) {
    const Liveness liveness = compute_liveness(*kernel);
    plan_ = select_renaming_candidates(*kernel, liveness, shape.regs_per_thread,
                                       uint64_t{config_.table_bytes} * 8,
                                       config_.renaming.entry_bits(), resident_warps);
    if (config_.mode == RfvMode::Compiler) {
      try {
        program_ = RfvProgram(*kernel, compute_release_flags(*kernel, liveness), plan_);
      } catch (const std::invalid_argument& e) {
        throw ConfigError(std::string("rfv: ") + e.what());
      }
    }
  } else {
    plan_.regs_per_thread = shape.regs_per_thread;
    plan_.renamed_per_warp = shape.regs_per_thread;
    plan_.exempt.assign(shape.regs_per_thread, false);
  }
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
                                    const WarpInst& inst, uint64_t /*now*/) {
  WarpState& w = warps_[slot];
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
            release(slot, r);
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

void RfvStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst,
                      uint64_t /*now*/) {
  WarpState& w = warps_[slot];
  w.meta_index = ~0u;
  // Destinations get their physical register now, so that the writeback always finds
  // one (the paper allocates at the write; a few cycles earlier here).
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    if (r == kZeroRegister || table_.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical)
      continue;
    if (table_.map_for_write(static_cast<uint16_t>(slot), r) == kNoPhysical)
      throw std::logic_error("rfv: issued an instruction whose destination has no register");
    balance_.allocated(w.cta_slot);
    energy_.count(updates_);
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

void RfvStage::release(uint32_t slot, uint16_t reg) {
  if (table_.release(static_cast<uint16_t>(slot), reg)) {
    balance_.released(warps_[slot].cta_slot);
    energy_.count(updates_);
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
    case RfAccessKind::Launch:
      warps_[slot] = WarpState{};
      warps_[slot].cta_slot = a.cta_slot;
      break;
    case RfAccessKind::Retire: {
      const uint32_t freed = table_.release_warp(slot);
      for (uint32_t i = 0; i < freed; ++i) balance_.released(warps_[slot].cta_slot);
      counters_.released_at_exit += freed;
      energy_.count(updates_, freed);
      break;
    }
    case RfAccessKind::Read:
    case RfAccessKind::Write: {
      uint32_t phys = table_.lookup(slot, a.arch_reg);
      if (!table_.is_exempt(a.arch_reg)) {
        const uint64_t cycle = clock_.cycle_at(delay);
        // A writeback looks up one register: it never waits for another lookup.
        const uint16_t unit = a.kind == RfAccessKind::Read ? a.collector : kWritebackUnit;
        delay += clock_.cycles(lookup_delay(cycle, unit, a.arch_reg));
      }
      if (phys == kNoPhysical) {
        // A read of a register never written (its lanes hold no value the program
        // defined) or a write the issue stage did not prepare: map it now.
        if (a.kind == RfAccessKind::Read) ++counters_.unwritten_reads;
        phys = table_.map_for_write(slot, a.arch_reg);
        if (phys == kNoPhysical) {
          if (a.kind == RfAccessKind::Write)
            throw std::logic_error("rfv: a write found no physical register");
          phys = 0;  // nothing to read: any entry will do
        } else {
          balance_.allocated(warps_[slot].cta_slot);
          energy_.count(updates_);
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
      release(slot, a.arch_reg);
      ++counters_.released_by_pir;
    }
  }
}

// ---------------------------------------------------------------- reports

nlohmann::json RfvStage::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
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

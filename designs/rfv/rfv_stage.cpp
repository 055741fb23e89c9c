#include "designs/rfv/rfv_stage.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "common/errors.h"
#include "modules/interfaces/design_context.h"

namespace warpreg {

namespace {

/// The compiler's renaming plan and release program for the kernel; without static
/// code (hardware mode) every register is renamed.
RfvMetadata compiled_for(const RfvParams& params, const DesignContext& context) {
  if (params.mode == RfvMode::Compiler && !context.metadata.has_static_code())
    throw ConfigError(
        "rfv.mode = compiler needs the kernel's static code for its release flags; "
        "workload '" +
        context.workload +
        "' has none (use a profile, a .dot kernel or a .traceg trace, or "
        "rfv.mode = hardware)");
  if (auto compiled = context.optional<RfvMetadata>(kRfvMetadata)) return *compiled;
  RfvMetadata none;
  const uint32_t regs = context.kernel.regs_per_thread;
  none.plan.regs_per_thread = regs;
  none.plan.renamed_per_warp = regs;
  none.plan.exempt.assign(regs, false);
  return none;
}

}  // namespace

RfvStage::RfvStage(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name),
      params_(&context.params),
      clock_(context.clock),
      compiled_(compiled_for(params_, context)),
      table_("renaming_table", context, context.kernel.regs_per_thread, compiled_.plan.exempt),
      balance_(context.machine.limits.max_ctas),
      warps_(context.machine.limits.max_warps),
      storage_power_(context.storage_power),
      warps_per_cta_(context.occupancy.warps_per_cta),
      regs_per_thread_(context.kernel.regs_per_thread),
      spill_latency_(context.machine.memory_latency),
      local_memory_(context.local_memory),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  if (params_.mode == RfvMode::Compiler)
    flag_cache_ = std::make_unique<ReleaseFlagCacheModule>("release_flag_cache", context);
  const double decode_pj = context.tech.value_for(this->name(), "flag_instruction_decode");
  pir_decodes_ = energy_.add_event(
      "pir_decodes", "pir metadata instructions fetched and decoded (flag-cache misses)",
      decode_pj);
  pbr_decodes_ =
      energy_.add_event("pbr_decodes", "pbr metadata instructions fetched and decoded", decode_pj);

  const RenamingConfig& r = table_.core().config();
  touched_.assign(r.physical_registers, false);
  pending_.assign(size_t(r.max_warps) * r.max_regs_per_thread, 0);
  reserved_per_bank_.assign(r.rf_banks, 0);
  const uint32_t subarrays = r.rf_banks * r.subarrays_per_bank();
  subarray_on_.assign(subarrays, true);
  subarray_ready_.assign(subarrays, 0);
  if (params_.power_gating) {
    // The register file accounts the cells' leakage; this stage only says which
    // sub-arrays are gated. Only those holding the exempt area start powered.
    StoragePower::Fractions fractions;
    fractions.of[static_cast<unsigned>(power::PowerState::Gated)] =
        context.tech.value_for(this->name(), "rf_gated_leakage_fraction");
    power_controller_ =
        storage_power_.add_controller(this->name(), fractions, power::PowerState::On);
    for (uint32_t b = 0; b < r.rf_banks; ++b)
      for (uint32_t s = 0; s < r.subarrays_per_bank(); ++s)
        if (table_.core().subarray_occupancy(b, s) == 0) {
          subarray_on_[b * r.subarrays_per_bank() + s] = false;
          set_subarray_power(b, s, power::PowerState::Gated, 0);
        }
  }
}

void RfvStage::add_signals(Waveform& wave) {
  const RenamingConfig& r = table_.core().config();
  const std::string prefix = name() + std::string(".");
  for (uint32_t b = 0; b < r.rf_banks; ++b)
    for (uint32_t s = 0; s < r.subarrays_per_bank(); ++s) {
      const size_t index = size_t(b) * r.subarrays_per_bank() + s;
      wave.add(
          prefix + "bank" + std::to_string(b) + "_subarray" + std::to_string(s) + "_power", 3,
          [this, index](uint64_t) {
            return static_cast<uint32_t>(subarray_on_[index] ? WaveState::On : WaveState::Gated);
          });
    }
  wave.add(prefix + "free_physical_registers", 16,
           [this](uint64_t) { return table_.core().free_registers(); });
}

void RfvStage::set_subarray_power(uint32_t bank, uint32_t subarray, power::PowerState state,
                                  uint64_t cycle) {
  // Sub-array s of bank b holds the bank's entries [s x E, (s + 1) x E); entry e of
  // bank b is physical register e x banks + b.
  const RenamingConfig& r = table_.core().config();
  const uint32_t first = subarray * r.subarray_entries;
  const uint32_t end = std::min(first + r.subarray_entries, r.entries_per_bank());
  for (uint32_t entry = first; entry < end; ++entry)
    storage_power_.set_registers(power_controller_, entry * r.rf_banks + bank, 1, state, cycle);
}

void RfvStage::note_occupancy(uint32_t phys, uint64_t cycle) {
  // Time-weighted counts of mapped registers and resident warps (Fig. 10's allocation).
  if (cycle > occupancy_since_) {
    mapped_cycles_ += uint64_t{last_mapped_} * (cycle - occupancy_since_);
    resident_warp_cycles_ += uint64_t{resident_warps_} * (cycle - occupancy_since_);
    occupancy_since_ = cycle;
  }
  const RenamingTable& t = table_.core();
  last_mapped_ = t.mapped_registers();
  peak_allocated_ = std::max<uint64_t>(peak_allocated_,
                                       last_mapped_ + uint64_t{resident_warps_} * t.exempt_count());
  peak_baseline_ = std::max<uint64_t>(peak_baseline_, uint64_t{resident_warps_} * regs_per_thread_);
  if (!params_.power_gating || phys == kNoPhysical) return;
  const uint32_t sub = t.subarray_slot(phys);
  const bool used = t.subarray_occupancy_at(sub) != 0;
  if (used == subarray_on_[sub]) return;
  const uint32_t bank = RenamingTable::bank_of_physical(phys, t.config().rf_banks);
  last_power_cycle_ = std::max(last_power_cycle_, cycle);
  subarray_on_[sub] = used;
  set_subarray_power(bank, t.subarray_of(phys),
                     used ? power::PowerState::On : power::PowerState::Gated, last_power_cycle_);
  if (used) {
    subarray_ready_[sub] = last_power_cycle_ + params_.wakeup_cycles;
    ++stats_.subarray_wakeups;
  }
}

void RfvStage::send(RfAccessKind kind, uint32_t slot, uint16_t reg, uint32_t phys, uint32_t count,
                    WarpRegister* value, uint64_t cycle) {
  tlm::tlm_generic_payload& payload = own_txn_.prepare(kind, value);
  RfAccess& a = own_txn_.access();
  a.warp_slot = static_cast<uint16_t>(slot);
  a.cta_slot = static_cast<uint16_t>(warps_[slot].cta_slot);
  a.arch_reg = reg;
  a.phys_reg = phys;
  a.regs_per_warp = count;
  a.active_mask = kFullMask;
  send_at(payload, a, clock_, cycle);
  if (payload.is_response_error())
    throw std::logic_error(std::string(name()) + ": the operand path refused its own " +
                           std::string(to_string(kind)) + " of physical register " +
                           std::to_string(phys) + ": " + payload.get_response_string());
}

uint32_t RfvStage::allocate(uint32_t slot, uint16_t reg, uint64_t cycle) {
  const uint32_t phys = table_.allocate(static_cast<uint16_t>(slot), reg);
  if (phys == kNoPhysical) return phys;
  if (!touched_[phys]) {
    touched_[phys] = true;
    ++touched_count_;
  }
  balance_.allocated(warps_[slot].cta_slot);
  note_occupancy(phys, cycle);
  send(RfAccessKind::Launch, slot, reg, phys, 1, nullptr, cycle);
  return phys;
}

void RfvStage::release(uint32_t slot, uint16_t reg, uint64_t cycle) {
  const uint32_t phys = table_.release(static_cast<uint16_t>(slot), reg);
  if (phys == kNoPhysical) return;
  balance_.released(warps_[slot].cta_slot);
  note_occupancy(phys, cycle);
  send(RfAccessKind::Retire, slot, reg, phys, 1, nullptr, cycle);
}

// ---------------------------------------------------------------- issue stage

bool RfvStage::destinations_fit(uint32_t slot, const WarpInst& inst) const {
  const RenamingTable& t = table_.core();
  // The new destinations per bank, as (bank, count) pairs: at most kMaxDst banks.
  std::array<uint32_t, kMaxDst> bank_of{}, need{};
  unsigned banks_needed = 0;
  const uint32_t banks = std::min<uint32_t>(t.config().rf_banks, 64);
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    if (r == kZeroRegister || t.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical) continue;
    const uint32_t bank = t.compiler_bank(static_cast<uint16_t>(slot), r) % banks;
    unsigned j = 0;
    while (j < banks_needed && bank_of[j] != bank) ++j;
    if (j == banks_needed) bank_of[banks_needed++] = bank;
    if (++need[j] + reserved_per_bank_[bank] > t.free_in_bank(bank)) return false;
  }
  return true;
}

bool RfvStage::handle_metadata(uint32_t slot, WarpState& w, const WarpInst& inst, uint64_t now) {
  if (params_.mode != RfvMode::Compiler) return false;
  const RfvProgram::Inst* info = compiled_.program.find(inst.pc);
  if (info == nullptr) return false;
  const bool takes_slot = params_.metadata_issue == RfvMetadataIssue::Slot;
  // pbrs are always fetched: each releases its registers as it is decoded.
  while (w.pbrs_done < info->pbr_count) {
    for (uint16_t r : compiled_.program.pbr(info->pbr_first + w.pbrs_done).regs) {
      if (table_.core().lookup(static_cast<uint16_t>(slot), r) != kNoPhysical) {
        release(slot, r, now);
        ++stats_.released_by_pbr;
      } else if (!table_.core().is_exempt(r) && pending(slot, r) == kReserved) {
        // Its value is still on its way to the register file and nothing reads it.
        pending(slot, r) = kReservedDead;
      }
    }
    ++w.pbrs_done;
    ++stats_.pbr_fetches;
    energy_.count(pbr_decodes_);
    if (takes_slot) return true;
  }
  if (info->first_of_pir && !w.pir_done) {
    w.pir_done = true;
    const uint64_t pir_pc = compiled_.program.pir_pc(info->pir);
    if (!flag_cache_->probe(pir_pc)) {
      flag_cache_->fill(pir_pc, compiled_.program.pir_flags(info->pir));
      ++stats_.pir_fetches;
      energy_.count(pir_decodes_);
      if (takes_slot) return true;
    }
  }
  return false;
}

IssueVerdict RfvStage::before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index,
                                    const WarpInst& inst, uint64_t now) {
  WarpState& w = warps_[slot];
  if (w.spilled) {
    // A spilled warp of a CTA the throttle holds back does not refill: its registers
    // would come out of what the throttle keeps for the CTA it lets run, and that CTA's
    // own spilled warp could then never refill (a livelock of spills and fills).
    const uint32_t allowed = balance_.allowed_cta(table_.core().free_registers());
    if (allowed != RegisterBalance::kAnyCta && allowed != cta_slot) {
      ++stats_.throttled_issues;
      return IssueVerdict::Wait;
    }
    if (!refill(slot, now)) return IssueVerdict::Wait;
  }
  if (w.fill_ready > now) return IssueVerdict::Wait;
  if (w.meta_index != index) {
    w.meta_index = index;
    w.pbrs_done = 0;
    w.pir_done = false;
  }
  if (handle_metadata(slot, w, inst, now)) return IssueVerdict::Metadata;
  const uint32_t allowed = balance_.allowed_cta(table_.core().free_registers());
  if (allowed != RegisterBalance::kAnyCta && allowed != cta_slot) {
    ++stats_.throttled_issues;
    return IssueVerdict::Wait;
  }
  if (!destinations_fit(slot, inst)) {
    if (params_.allocate_at == RfvAllocation::AtWrite)
      ++stats_.reservation_waits;
    else
      ++stats_.allocation_waits;
    return IssueVerdict::Wait;
  }
  return IssueVerdict::Issue;
}

void RfvStage::issued(uint32_t slot, uint32_t /*cta_slot*/, const WarpInst& inst, uint64_t now) {
  WarpState& w = warps_[slot];
  w.meta_index = ~0u;
  ++stats_.warp_instructions;
  // Unmapped destinations get a register now (allocate_at = issue) or a slot of their
  // bank reserved for the writeback (allocate_at = write, the paper's), so that the write
  // always finds one.
  const RenamingTable& t = table_.core();
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t r = inst.dst[k];
    if (r == kZeroRegister || t.lookup(static_cast<uint16_t>(slot), r) != kNoPhysical) continue;
    if (params_.allocate_at == RfvAllocation::AtWrite) {
      uint8_t& p = pending(slot, r);
      if (p == 0) ++reserved_per_bank_[t.compiler_bank(static_cast<uint16_t>(slot), r)];
      p = kReserved;
    } else if (allocate(slot, r, now) == kNoPhysical) {
      throw std::logic_error("rfv: issued an instruction whose destination has no register");
    }
  }
  w.release_count = 0;
  if (params_.mode != RfvMode::Compiler) return;
  const RfvProgram::Inst* info = compiled_.program.find(inst.pc);
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
  balance_.launch(cta_slot, warps * table_.core().renamed_per_warp());
}

void RfvStage::cta_finished(uint32_t cta_slot, uint64_t /*now*/) { balance_.retire(cta_slot); }

bool RfvStage::resolve_stall(uint64_t now) {
  // The victim: the waiting warp holding the most renamed registers, outside the CTA
  // the throttle lets run if possible, so the others can go on.
  const RenamingTable& t = table_.core();
  const uint32_t allowed = balance_.allowed_cta(t.free_registers());
  uint32_t victim = ~0u, best = 0;
  bool victim_outside = false;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const WarpState& w = warps_[s];
    if (w.spilled || !balance_.resident(w.cta_slot)) continue;
    uint32_t held = 0;
    for (uint32_t r = 0; r < t.config().max_regs_per_thread; ++r)
      if (!t.is_exempt(static_cast<uint16_t>(r)) &&
          t.lookup(static_cast<uint16_t>(s), static_cast<uint16_t>(r)) != kNoPhysical)
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
  for (uint32_t r = 0; r < t.config().max_regs_per_thread; ++r) {
    const auto reg = static_cast<uint16_t>(r);
    const uint32_t phys =
        t.is_exempt(reg) ? kNoPhysical : t.lookup(static_cast<uint16_t>(victim), reg);
    if (phys == kNoPhysical) continue;
    w.spill_store.emplace_back(reg, WarpRegister{});
    send(RfAccessKind::Read, victim, reg, phys, 1, &w.spill_store.back().second, now);
    release(victim, reg, now);
    if (local_memory_) local_memory_->transfer(victim, reg, true, now);
  }
  w.spilled = true;
  ++stats_.spills;
  stats_.spilled_registers += w.spill_store.size();
  return true;
}

bool RfvStage::refill(uint32_t slot, uint64_t now) {
  WarpState& w = warps_[slot];
  const RenamingTable& t = table_.core();
  // Refill only when every spilled register fits in its bank, with one register to
  // spare per bank so that refilling does not stall everyone again at once.
  std::vector<uint32_t> need(t.config().rf_banks, 0);
  for (const auto& [reg, value] : w.spill_store)
    ++need[t.compiler_bank(static_cast<uint16_t>(slot), reg)];
  for (uint32_t b = 0; b < need.size(); ++b)
    if (need[b] != 0 && need[b] + 1 + reserved_per_bank_[b] > t.free_in_bank(b)) return false;
  // With a memory system the fill loads go through it; else they take mem.miss_latency.
  uint64_t filled = local_memory_ ? now : now + spill_latency_;
  for (auto& [reg, value] : w.spill_store) {
    const uint32_t phys = allocate(slot, reg, now);
    send(RfAccessKind::Write, slot, reg, phys, 1, &value, now);
    if (local_memory_) filled = std::max(filled, local_memory_->transfer(slot, reg, false, now));
  }
  w.spill_store.clear();
  w.spilled = false;
  w.fill_ready = filled;
  latest_fill_ready_ = std::max(latest_fill_ready_, filled);
  ++stats_.fills;
  return false;  // the warp waits for its fill loads
}

uint64_t RfvStage::next_change(uint64_t now) const {
  uint64_t next = ~uint64_t(0);
  if (latest_fill_ready_ <= now) return next;  // no warp waits for fill loads
  for (const WarpState& w : warps_)
    if (w.fill_ready > now) next = std::min(next, w.fill_ready);
  return next;
}

std::string RfvStage::wait_report() const {
  const RenamingTable& t = table_.core();
  std::string out = "  rfv: " + std::to_string(t.free_registers()) + " free physical registers (";
  for (uint32_t b = 0; b < t.config().rf_banks; ++b)
    out += (b ? " " : "bank ") + std::to_string(t.free_in_bank(b));
  out += ")";
  if (params_.allocate_at == RfvAllocation::AtWrite) {
    out += ", reserved for writes in flight (";
    for (uint32_t b = 0; b < t.config().rf_banks; ++b)
      out += (b ? " " : "bank ") + std::to_string(reserved_per_bank_[b]);
    out += ")";
  }
  out += ", spilled warps:";
  for (uint32_t s = 0; s < warps_.size(); ++s)
    if (warps_[s].spilled) out += " " + std::to_string(s);
  const uint32_t allowed = balance_.allowed_cta(t.free_registers());
  if (allowed != RegisterBalance::kAnyCta)
    out += ", only CTA slot " + std::to_string(allowed) + " may issue";
  out += "; CTA slot balances (C - k):";
  for (uint32_t s = 0; s < balance_.slots(); ++s)
    if (balance_.resident(s))
      out += " " + std::to_string(s) + ":" + std::to_string(balance_.balance(s));
  return out + "\n";
}

// ---------------------------------------------------------------- operand path

void RfvStage::launch_warp(uint16_t slot, uint16_t cta_slot, uint64_t cycle) {
  warps_[slot] = WarpState{};
  warps_[slot].cta_slot = cta_slot;
  note_occupancy(kNoPhysical, cycle);
  ++resident_warps_;
  // The warp's exempt registers hold values from now on: N x warp + [0, N).
  const uint32_t exempt = table_.core().exempt_count();
  for (uint32_t p = slot * exempt; p < (slot + 1u) * exempt; ++p) {
    if (touched_[p]) continue;
    touched_[p] = true;
    ++touched_count_;
  }
  note_occupancy(kNoPhysical, cycle);
  if (exempt != 0)
    send(RfAccessKind::Launch, slot, kZeroRegister, slot * exempt, exempt, nullptr, cycle);
}

void RfvStage::retire_warp(uint16_t slot, uint64_t cycle) {
  const RenamingTable& t = table_.core();
  for (uint32_t r = 0; r < t.config().max_regs_per_thread; ++r) {
    uint8_t& p = pending(slot, static_cast<uint16_t>(r));
    if (p != 0) --reserved_per_bank_[t.compiler_bank(slot, static_cast<uint16_t>(r))];
    p = 0;
    if (t.is_exempt(static_cast<uint16_t>(r)) ||
        t.lookup(slot, static_cast<uint16_t>(r)) == kNoPhysical)
      continue;
    release(slot, static_cast<uint16_t>(r), cycle);
    ++stats_.released_at_exit;
  }
  note_occupancy(kNoPhysical, cycle);
  --resident_warps_;
  const uint32_t exempt = t.exempt_count();
  if (exempt != 0)
    send(RfAccessKind::Retire, slot, kZeroRegister, slot * exempt, exempt, nullptr, cycle);
}

uint64_t RfvStage::translate(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                             uint64_t& ended) {
  const uint16_t slot = a.warp_slot;
  // A writeback looks up one register: it never waits for another lookup.
  const uint16_t unit =
      a.kind == RfAccessKind::Read ? a.collector : RenamingTableModule::kWritebackUnit;
  const RenamingTableModule::Translation t = table_.translate(slot, a.arch_reg, unit, cycle);
  uint32_t phys = t.phys;
  uint64_t at = cycle + t.cycles;  // the cycle the access goes on to the banks
  if (phys == kNoPhysical && a.kind == RfAccessKind::Write && a.arch_reg < kZeroRegister &&
      pending(slot, a.arch_reg) != 0) {
    // allocate_at = write: the register reserved at issue is taken now, unless a pbr
    // found the value dead while it was in flight.
    uint8_t& p = pending(slot, a.arch_reg);
    const bool dead = p == kReservedDead;
    p = 0;
    --reserved_per_bank_[table_.core().compiler_bank(slot, a.arch_reg)];
    if (dead) {
      ++stats_.dead_writes;
      return end_here(payload, cycle, t.cycles, ended);
    }
    phys = allocate(slot, a.arch_reg, at);
    if (phys == kNoPhysical)
      throw std::logic_error("rfv: a reserved destination found its bank full at the write");
  }
  if (phys == kNoPhysical && a.kind == RfAccessKind::Write) {
    // The issue stage mapped this destination, so the register was released while
    // the instruction was in flight: a pbr at a reconvergence point the warp reached
    // in the meantime found it dead (a value written and never read). Nothing
    // reads it, so the write goes nowhere.
    ++stats_.dead_writes;
    return end_here(payload, cycle, t.cycles, ended);
  }
  if (phys == kNoPhysical) {
    // A read of a register never written: its lanes hold no value the program
    // defined, so any entry will do; map one so later writes find it.
    ++stats_.unwritten_reads;
    phys = allocate(slot, a.arch_reg, cycle);
    if (phys == kNoPhysical) phys = 0;
  }
  if (params_.power_gating) {
    // A register in a sub-array that is still waking up waits for it.
    const uint64_t ready = subarray_ready_[table_.core().subarray_slot(phys)];
    if (ready > at) {
      at = ready;
      ++stats_.wake_waits;
    }
  }
  a.phys_reg = phys;
  return at;
}

uint64_t RfvStage::end_here(tlm::tlm_generic_payload& payload, uint64_t cycle,
                            uint64_t lookup_cycles, uint64_t& ended) {
  ended = cycle + lookup_cycles;
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return kNever;
}

uint64_t RfvStage::serve_access(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle) {
  uint64_t ended = 0;
  const uint64_t at = translate(payload, a, cycle, ended);
  if (at == kNever) return ended;
  const uint64_t done = send_at(payload, a, clock_, at);
  if (a.kind != RfAccessKind::Read) return done;
  const uint16_t slot = a.warp_slot;
  WarpState& w = warps_[slot];
  for (uint8_t k = 0; k < w.release_count; ++k) {
    if (w.release[k] != a.arch_reg || w.reads_left[k] == 0) continue;
    if (--w.reads_left[k] == 0) {
      release(slot, a.arch_reg, done);
      ++stats_.released_by_pir;
    }
  }
  return done;
}

DirectTransport RfvStage::direct() { return serving_at<RfvStage>(OperandStage::direct(), clock_); }

bool RfvStage::serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                        uint64_t& ready) {
  if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) return false;
  if (a.warp_slot >= warps_.size() || a.arch_reg >= table_.core().config().max_regs_per_thread)
    return false;
  ready = serve_access(payload, a, cycle);
  return true;
}

void RfvStage::transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  const uint16_t slot = a.warp_slot;
  if (slot >= warps_.size()) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "warp slot beyond the SM's");
    return;
  }
  const uint32_t max_regs = table_.core().config().max_regs_per_thread;
  switch (a.kind) {
    case RfAccessKind::Launch:
      // Consumed: the path hears of the registers as they are mapped.
      launch_warp(slot, a.cta_slot, clock_.cycle_at(delay));
      payload.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    case RfAccessKind::Retire:
      retire_warp(slot, clock_.cycle_at(delay));
      payload.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    case RfAccessKind::Read:
    case RfAccessKind::Write:
      if (a.arch_reg >= max_regs) {
        refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
               "architected register beyond rfv.max_regs_per_thread");
        return;
      }
      break;
    default:
      // Wake, Sleep and the rest pass on with the register's physical name (none when
      // it names no register or one that is not mapped).
      if (a.arch_reg < max_regs) a.phys_reg = table_.core().lookup(slot, a.arch_reg);
      forward(payload, a, delay);
      return;
  }
  clock_.complete_at(delay, serve_access(payload, a, clock_.cycle_at(delay)));
}

// ---------------------------------------------------------------- reports

uint64_t RfvStage::balance_bits() const {
  const uint32_t demand =
      table_.core().config().max_regs_per_thread * std::max<uint32_t>(warps_per_cta_, 1);
  return balance_.storage_bits(demand);
}

nlohmann::json RfvStage::stats(uint64_t end_cycle) {
  note_occupancy(kNoPhysical, end_cycle);
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  stats_.breakdown_pj.set(
      {{"renaming_table", table_.energy_pj(end_cycle)},
       {"flag_instructions", energy_.event_pj(pir_decodes_) + energy_.event_pj(pbr_decodes_) +
                                 (flag_cache_ ? flag_cache_->energy_pj(end_cycle) : 0.0)}});
  // Fig. 10: registers allocated with renaming (renamed ones mapped, plus the exempt
  // ones of resident warps) against the baseline's (every register of every resident warp).
  const double cycles = end_cycle ? double(end_cycle) : 1.0;
  const double mean_mapped = double(mapped_cycles_) / cycles;
  const double mean_warps = double(resident_warp_cycles_) / cycles;
  const double allocated = mean_mapped + mean_warps * table_.core().exempt_count();
  const double baseline = mean_warps * regs_per_thread_;
  stats_.mean_mapped_registers.set(mean_mapped);
  stats_.mean_allocated_registers.set(allocated);
  stats_.mean_baseline_registers.set(baseline);
  stats_.allocation_reduction_mean.set(baseline > 0 ? 1.0 - allocated / baseline : 0.0);
  stats_.touched_registers.set(touched_count_);
  stats_.peak_allocated_registers.set(peak_allocated_);
  stats_.peak_baseline_registers.set(peak_baseline_);
  const double peak_baseline = double(peak_baseline_);
  stats_.allocation_reduction.set(peak_baseline > 0 ? 1.0 - double(touched_count_) / peak_baseline
                                                    : 0.0);
  stats_.allocation_reduction_peak.set(
      peak_baseline > 0 ? 1.0 - double(peak_allocated_) / peak_baseline : 0.0);
  const uint64_t metadata = stats_.pir_fetches + stats_.pbr_fetches;
  stats_.dynamic_code_increase.set(
      stats_.warp_instructions ? double(metadata) / double(stats_.warp_instructions) : 0.0);
  stats_.static_code_increase.set(
      compiled_.program.instruction_count()
          ? double(compiled_.program.pir_count() + compiled_.program.pbr_count()) /
                double(compiled_.program.instruction_count())
          : 0.0);
  stats_.storage_bits.set(balance_bits());
  stats_.write(j);
  return j;
}

nlohmann::json RfvStage::describe() const {
  return {{"storage_bits", {{"balance_counters", balance_bits()}, {"total", balance_bits()}}},
          {"ports",
           {{"target", "register accesses from the collectors (RfAccess)"},
            {"initiator", "translated accesses, and Launch / Retire per physical register"},
            {"issue_hook", "pir / pbr, throttle, allocation and spill at issue"}}},
          {"latency_cycles", {{"subarray_wakeup", params_.wakeup_cycles.get()}}},
          {"parameters", params_.to_json()},
          {"blocks", flag_cache_ ? nlohmann::json{table_.block_name(), flag_cache_->block_name()}
                                 : nlohmann::json{table_.block_name()}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

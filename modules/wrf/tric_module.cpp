#include "modules/wrf/tric_module.h"

#include <stdexcept>

#include "common/errors.h"
#include "modules/interfaces/rf_access.h"
#include "modules/wrf/coma_module.h"

namespace warpreg {

WARPREG_REGISTER_STATS(TricStats);

namespace {

power::PowerState power_state(RegPower s) {
  switch (s) {
    case RegPower::On:
      return power::PowerState::On;
    case RegPower::Drowsy:
      return power::PowerState::Drowsy;
    case RegPower::Off:
      break;
  }
  return power::PowerState::Off;
}

/// Bits of state per register entry: ON, DROWSY or OFF.
constexpr uint32_t kStateBits = 2;

TricConfig tric_config(const TricParams& p, const RegFileGeometry& regfile) {
  TricConfig c;
  c.registers = regfile.physical_registers();
  c.wakeup_latency = p.wakeup_latency;
  c.hidden_cycles = p.hidden_cycles;
  c.lookahead = p.lookahead;
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  return c;
}

}  // namespace

TricModule::TricModule(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name),
      params_(&context.params),
      clock_(context.clock),
      read_latency_(context.regfile.read_latency),
      write_latency_(context.regfile.write_latency),
      storage_(context.storage_power),
      energy_(this->name(), context.clock.ns_per_cycle()),
      core_(tric_config(params_, context.regfile), *this) {
  const power::TechTable& tech = context.tech;
  const std::string block = this->name();
  const double transition_pj = tech.value_for(block, "tric_transition");
  wakeup_event_ =
      energy_.add_event("wakeups", "register entries woken, DROWSY to ON", transition_pj);
  sleep_event_ =
      energy_.add_event("sleeps", "register entries returned from ON to DROWSY", transition_pj);
  launch_event_ =
      energy_.add_event("launches", "register entries allocated, OFF to DROWSY", transition_pj);
  // One 128-byte entry of a bank: the bank's leakage over its bytes.
  entry_on_mw_ = tech.value_for(block, "rf_bank_leakage") * kWarpRegisterBytes /
                 tech.attribute("rf_bank_leakage", "bank_bytes");
  bank_on_mw_ = entry_on_mw_ * context.regfile.entries_per_bank;
  const double off_fraction = tech.value_for(block, "rf_off_leakage_fraction");
  fraction_[static_cast<unsigned>(RegPower::On)] = 1.0;
  fraction_[static_cast<unsigned>(RegPower::Drowsy)] = params_.drowsy_leakage_fraction;
  fraction_[static_cast<unsigned>(RegPower::Off)] = off_fraction;
  StoragePower::Fractions fractions;
  for (const RegPower state : {RegPower::On, RegPower::Drowsy, RegPower::Off})
    fractions.of[static_cast<unsigned>(power_state(state))] =
        fraction_[static_cast<unsigned>(state)];
  fractions.of[static_cast<unsigned>(power::PowerState::Gated)] = off_fraction;
  controller_ = storage_.add_controller(block, fractions, power::PowerState::Off);
  entry_state_.assign(core_.config().registers, EntryState{});
  entries_in_[static_cast<unsigned>(RegPower::Off)] = core_.config().registers;
}

void TricModule::transition(uint32_t reg, RegPower from, RegPower to, uint64_t cycle) {
  EntryState& e = entry_state_[reg];
  entry_cycles_[static_cast<unsigned>(e.state)] += cycle - e.since;
  --entries_in_[static_cast<unsigned>(e.state)];
  ++entries_in_[static_cast<unsigned>(to)];
  e.state = to;
  e.since = cycle;
  if (to == RegPower::On)
    energy_.count(wakeup_event_);
  else if (from == RegPower::On && to == RegPower::Drowsy)
    energy_.count(sleep_event_);
  else if (from == RegPower::Off)
    energy_.count(launch_event_);
  // Last, so that the call ends the function (about five per warp instruction).
  storage_.set_registers(controller_, reg, 1, power_state(to), cycle);
}

void TricModule::add_signals(Waveform& wave) {
  const std::string prefix = name() + std::string(".");
  for (const RegPower state : {RegPower::On, RegPower::Drowsy, RegPower::Off})
    wave.add(prefix + "entries_" + to_string(state), 16,
             [this, state](uint64_t) { return entries_in_[static_cast<unsigned>(state)]; });
  wave.add_count(prefix + "wakeups", 16, [this] { return energy_.events(wakeup_event_); });
}

DirectTransport TricModule::direct() {
  return serving_at<TricModule>(direct_to<TricModule>(), clock_);
}

bool TricModule::serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                          uint64_t& ready) {
  const RfAccessKind kind = a.kind;
  if (kind != RfAccessKind::Read && kind != RfAccessKind::Write && kind != RfAccessKind::Wake)
    return false;
  // Entries outside the file are the banks' to refuse (address error), not TRIC's; a Wake
  // without a register (an instruction without a destination) goes on for COMA.
  const uint32_t reg = a.phys_reg;
  if (reg >= core_.config().registers) {
    ready = send_at(payload, a, clock_, cycle);
    return true;
  }
  if (kind == RfAccessKind::Wake) {
    core_.wake(reg, cycle, /*destination=*/true);
    ready = send_at(payload, a, clock_, cycle);
    return true;
  }
  if (kind == RfAccessKind::Read) {
    // Held until the entry is ON: sent at the cycle its wake-up ends.
    const uint64_t at = core_.wake(reg, cycle, /*destination=*/false);
    ready = send_at(payload, a, clock_, at);
    if (!payload.is_response_ok()) return true;
    ++accesses_;
    core_.read_done(reg, ready - read_latency_, ready, cycle);
    return true;
  }
  ready = send_at(payload, a, clock_, cycle);
  if (!payload.is_response_ok()) return true;
  ++accesses_;
  core_.write_done(reg, ready - write_latency_, ready, cycle);
  return true;
}

void TricModule::transport(tlm::tlm_generic_payload& payload, RfAccess& a,
                           sc_core::sc_time& delay) {
  const uint64_t cycle = clock_.cycle_at(delay);
  // Entries outside the file are the banks' to refuse (address error), not TRIC's.
  const uint32_t entries = core_.config().registers;
  const uint64_t last = a.kind == RfAccessKind::Launch || a.kind == RfAccessKind::Retire
                            ? uint64_t(a.phys_reg) + a.regs_per_warp
                            : uint64_t(a.phys_reg) + 1;
  if (last > entries) {
    forward(payload, a, delay);
    return;
  }
  switch (a.kind) {
    case RfAccessKind::Launch:
      core_.launch(a.phys_reg, a.regs_per_warp, cycle);
      break;
    case RfAccessKind::Retire:
      core_.retire(a.phys_reg, a.regs_per_warp, cycle);
      break;
    case RfAccessKind::Wake:
    case RfAccessKind::Read:
    case RfAccessKind::Write: {
      uint64_t ready = 0;
      serve_at(payload, a, cycle, ready);
      if (payload.is_response_ok()) clock_.complete_at(delay, ready);
      return;
    }
    default:
      break;
  }
  forward(payload, a, delay);
}

nlohmann::json TricModule::stats(uint64_t end_cycle) {
  core_.flush(end_cycle);
  energy_.finish(end_cycle);
  for (EntryState& e : entry_state_) {
    if (end_cycle <= e.since) continue;
    entry_cycles_[static_cast<unsigned>(e.state)] += end_cycle - e.since;
    e.since = end_cycle;
  }
  const TricConfig& c = core_.config();
  const TricCore::Counters& k = core_.counters();
  TricStats& s = stats_;
  s.storage_bits.set(uint64_t(c.registers) * kStateBits);
  s.launches.set(k.launches);
  s.retirements.set(k.retirements);
  s.wakeups.set(k.wakeups);
  s.sleeps.set(k.sleeps);
  s.stay_on.set(k.stay_on);
  s.delayed_accesses.set(k.delayed_accesses);
  s.delay_cycles.set(k.delay_cycles);
  s.late_calls.set(k.late_calls);
  const auto mean = [](uint64_t sum, uint64_t n) { return n ? double(sum) / double(n) : 0.0; };
  s.inter_access_cycles.set(
      {{"mean", mean(k.inter_access_sum, k.inter_access_count)},
       {"mean_up_to_3000", mean(k.short_inter_access_sum, k.short_inter_access_count)},
       {"distances", k.inter_access_count}});
  s.violations.set({{"off_access", k.off_violations}, {"drowsy_access", k.drowsy_violations}});
  const uint64_t on = entry_cycles_[static_cast<unsigned>(RegPower::On)];
  const uint64_t drowsy = entry_cycles_[static_cast<unsigned>(RegPower::Drowsy)];
  const uint64_t off = entry_cycles_[static_cast<unsigned>(RegPower::Off)];
  s.entry_cycles.set({{"on", on}, {"drowsy", drowsy}, {"off", off}});
  // Seed 002 Figure 7, first bar: the leakage of TRIC's states against the same run all
  // ON. The register file accounts the cells (another controller may lower them further).
  const double ns = clock_.ns_per_cycle();
  const double all_on_pj = double(c.registers) * double(end_cycle) * entry_on_mw_ * ns;
  double tric_pj = 0;
  for (const RegPower state : {RegPower::On, RegPower::Drowsy, RegPower::Off}) {
    const auto i = static_cast<unsigned>(state);
    tric_pj += double(entry_cycles_[i]) * (entry_on_mw_ * fraction_[i]) * ns;
  }
  s.all_on_leakage_pj.set(all_on_pj);
  const double leakage_saving = all_on_pj > 0 ? 1.0 - tric_pj / all_on_pj : 0;
  s.leakage_saving.set(leakage_saving);
  // Seed 002 Table 1: the share of the register file the resident warps allocate, at
  // most and averaged over the run (entry-cycles not OFF).
  const double entry_cycles = double(on + drowsy + off);
  s.allocated_share.set({{"peak", double(k.peak_allocated) / double(c.registers)},
                         {"mean", entry_cycles > 0 ? 1.0 - double(off) / entry_cycles : 0.0}});
  // Seed 002 §6.4: "the dynamic power for reading or writing a 128 byte register is twice
  // the leakage power of the register file bank" makes r a ratio of one access to one
  // cycle of a bank's leakage, so the total weights this run's energies: with a = the
  // accesses' energy at r = 1 over the file's leakage all ON (both over this run), the
  // saving is 1 - (r a (1 - dynamic saving) + leakage left) / (r a + 1). Without COMA the
  // dynamic saving is 0.
  const double dynamic_saving = coma_ ? coma_->gated_share() : 0.0;
  s.dynamic_saving.set(dynamic_saving);
  const double a = all_on_pj > 0 ? double(accesses_) * bank_on_mw_ * ns / all_on_pj : 0.0;
  s.access_to_bank_leakage.set(a);
  nlohmann::json weighted;
  for (const int r : {2, 5, 8})
    weighted["r" + std::to_string(r)] =
        1.0 - (r * a * (1.0 - dynamic_saving) + (1.0 - leakage_saving)) / (r * a + 1.0);
  s.weighted_saving.set(weighted);
  nlohmann::json j = energy_.to_json();
  s.write(j);
  return j;
}

nlohmann::json TricModule::describe() const {
  const TricConfig& c = core_.config();
  return {{"storage_bits", {{"power_state", uint64_t(c.registers) * kStateBits}}},
          {"organisation",
           {{"register_entries", c.registers},
            {"state_bits_per_entry", kStateBits},
            {"states", {"on", "drowsy", "off"}},
            {"keyed_by", "physical register"}}},
          {"ports",
           {{"target",
             "operand-path transactions from the collectors (Launch, Retire, Wake, "
             "Read, Write)"},
            {"initiator", "the same transactions towards the banks, reads held until ON"},
            {"storage_power", "register entries ON / DROWSY / OFF, to the register file"}}},
          {"latency_cycles",
           {{"wakeup", c.wakeup_latency},
            {"hidden_by_schedule_slack", c.hidden_cycles},
            {"lookahead", c.lookahead}}},
          {"parameters", params_.to_json()},
          {"leakage_fraction",
           {{"on", fraction_[static_cast<unsigned>(RegPower::On)]},
            {"drowsy", fraction_[static_cast<unsigned>(RegPower::Drowsy)]},
            {"off", fraction_[static_cast<unsigned>(RegPower::Off)]}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

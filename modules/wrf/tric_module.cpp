#include "modules/wrf/tric_module.h"

#include <stdexcept>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "modules/wrf/coma_module.h"
#include "power/tech_scaling.h"

namespace warpreg {

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
}  // namespace

TricConfig TricModule::config_from(const Params& p) {
  TricConfig c;
  const int64_t registers = p.integer("sm.registers");
  if (registers % kWarpSize != 0)
    throw ConfigError("sm.registers = " + std::to_string(registers) +
                      " is not a whole number of 32-lane warp registers (TRIC)");
  c.registers = static_cast<uint32_t>(registers / kWarpSize);
  c.wakeup_latency = static_cast<uint32_t>(p.integer("tric.wakeup_latency"));
  c.hidden_cycles = static_cast<uint32_t>(p.integer("tric.hidden_cycles"));
  c.lookahead = static_cast<uint32_t>(p.integer("tric.lookahead"));
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  return c;
}

TricModule::TricModule(sc_core::sc_module_name name, const Params& params,
                       const power::TechTable& tech, const CycleClock& clock)
    : OperandStage(name),
      clock_(clock),
      read_latency_(static_cast<uint32_t>(params.integer("rf.read_latency"))),
      write_latency_(static_cast<uint32_t>(params.integer("rf.write_latency"))),
      drowsy_fraction_(params.real("tric.drowsy_leakage_fraction")),
      energy_("tric", clock.ns_per_cycle()),
      core_(config_from(params), *this) {
  const double transition_pj = tech.value("tric_transition");
  wakeups_ = energy_.add_event("wakeups", "register entries woken, DROWSY to ON", transition_pj);
  sleeps_ =
      energy_.add_event("sleeps", "register entries returned from ON to DROWSY", transition_pj);
  launches_ =
      energy_.add_event("launches", "register entries allocated, OFF to DROWSY", transition_pj);
  // The register array's leakage, per 128-byte entry: a bank's leakage over its entries.
  entry_on_mw_ = power::scaled(tech, "rf_bank_leakage", "bank_bytes", kWarpRegisterBytes);
  const double off_mw = entry_on_mw_ * tech.value("rf_off_leakage_fraction");
  const double mw[power::kPowerStateCount] = {entry_on_mw_, entry_on_mw_ * drowsy_fraction_, off_mw,
                                              off_mw};
  entries_ = energy_.add_residency("register_entries",
                                   "128-byte register entries (warp registers) by power state",
                                   core_.config().registers, power::PowerState::Off, mw);
}

void TricModule::transition(RegPower from, RegPower to, uint64_t cycle) {
  energy_.transition(entries_, power_state(from), power_state(to), cycle);
  if (to == RegPower::On)
    energy_.count(wakeups_);
  else if (from == RegPower::On && to == RegPower::Drowsy)
    energy_.count(sleeps_);
  else if (from == RegPower::Off)
    energy_.count(launches_);
}

void TricModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  const uint64_t cycle = clock_.cycle_at(delay);
  // Entries outside the file are the banks' to refuse (address error), not TRIC's.
  const uint32_t entries = core_.config().registers;
  const uint64_t last = a.kind == RfAccessKind::Launch || a.kind == RfAccessKind::Retire
                            ? uint64_t(a.phys_reg) + a.regs_per_warp
                            : uint64_t(a.phys_reg) + 1;
  if (last > entries) {
    initiator->b_transport(payload, delay);
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
      core_.wake(a.phys_reg, cycle, /*destination=*/true);
      break;
    case RfAccessKind::Read: {
      const uint64_t at = core_.wake(a.phys_reg, cycle, /*destination=*/false);
      if (at > cycle) delay += clock_.cycles(at - cycle);
      initiator->b_transport(payload, delay);
      if (payload.is_response_ok()) {
        const uint64_t done = clock_.cycle_at(delay);
        core_.read_done(a.phys_reg, done - read_latency_, done, cycle);
      }
      return;
    }
    case RfAccessKind::Write: {
      initiator->b_transport(payload, delay);
      if (payload.is_response_ok()) {
        const uint64_t done = clock_.cycle_at(delay);
        core_.write_done(a.phys_reg, done - write_latency_, done, cycle);
      }
      return;
    }
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

nlohmann::json TricModule::stats(uint64_t end_cycle) {
  core_.flush(end_cycle);
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const TricConfig& c = core_.config();
  j["storage_bits"] = uint64_t(c.registers) * kStateBits;
  const TricCore::Counters& k = core_.counters();
  j["launches"] = k.launches;
  j["retirements"] = k.retirements;
  j["wakeups"] = k.wakeups;
  j["sleeps"] = k.sleeps;
  j["stay_on"] = k.stay_on;
  j["delayed_accesses"] = k.delayed_accesses;
  j["delay_cycles"] = k.delay_cycles;
  const auto mean = [](uint64_t sum, uint64_t n) { return n ? double(sum) / double(n) : 0.0; };
  j["inter_access_cycles"] = {
      {"mean", mean(k.inter_access_sum, k.inter_access_count)},
      {"mean_up_to_3000", mean(k.short_inter_access_sum, k.short_inter_access_count)},
      {"distances", k.inter_access_count}};
  j["violations"] = {{"off_access", k.off_violations}, {"drowsy_access", k.drowsy_violations}};
  // What the same entries would leak all ON (the register file without TRIC).
  const double all_on_pj =
      double(c.registers) * double(end_cycle) * entry_on_mw_ * clock_.ns_per_cycle();
  j["all_on_leakage_pj"] = all_on_pj;
  // Seed 002 Figure 7, first bar: leakage power against the same run all ON.
  const double leakage_saving = all_on_pj > 0 ? 1.0 - j["leakage_pj"].get<double>() / all_on_pj : 0;
  j["leakage_saving"] = leakage_saving;
  // Seed 002 Table 1: the share of the register file the resident warps allocate, at
  // most (all CTAs resident) and averaged over the run (entry-cycles not OFF).
  const nlohmann::json& residency = j["residency"]["register_entries"];
  double entry_cycles = 0;
  for (const auto& state : residency) entry_cycles += state.get<double>();
  j["allocated_share"] = {
      {"peak", double(k.peak_allocated) / double(c.registers)},
      {"mean", entry_cycles > 0 ? 1.0 - residency["off"].get<double>() / entry_cycles : 0.0}};
  // Seed 002 §6.4: total power saving with dynamic power r times the leakage power,
  // (r x dynamic saving + leakage saving) / (r + 1); without COMA the dynamic saving is 0.
  const double dynamic_saving = coma_ ? coma_->gated_share() : 0.0;
  j["dynamic_saving"] = dynamic_saving;
  nlohmann::json weighted;
  for (const int r : {2, 5, 8})
    weighted["r" + std::to_string(r)] = (r * dynamic_saving + leakage_saving) / (r + 1);
  j["weighted_saving"] = weighted;
  return j;
}

nlohmann::json TricModule::describe() const {
  const TricConfig& c = core_.config();
  return {{"storage_bits", {{"power_state", uint64_t(c.registers) * kStateBits}}},
          {"organisation",
           {{"register_entries", c.registers},
            {"state_bits_per_entry", kStateBits},
            {"states", {"on", "drowsy", "off"}}}},
          {"ports",
           {{"wake", "source and destination registers of a warp assigned a collector unit"},
            {"read_done", "collector received a source operand (entry back to drowsy)"},
            {"write_done", "scoreboard: destination written back (entry back to drowsy)"},
            {"allocation", "warp launch / retire: register range on (drowsy) / off"}}},
          {"latency_cycles",
           {{"wakeup", c.wakeup_latency},
            {"hidden_by_schedule_slack", c.hidden_cycles},
            {"lookahead", c.lookahead}}},
          {"parameters",
           {{"tric.wakeup_latency", c.wakeup_latency},
            {"tric.hidden_cycles", c.hidden_cycles},
            {"tric.lookahead", c.lookahead},
            {"tric.drowsy_leakage_fraction", drowsy_fraction_}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

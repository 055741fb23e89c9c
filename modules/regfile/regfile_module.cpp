#include "modules/regfile/regfile_module.h"

#include <cmath>

#include "common/errors.h"
#include "common/params.h"
#include "modules/interfaces/log.h"
#include "modules/interfaces/rf_access.h"
#include "power/power_params.h"
#include "power/tech_scaling.h"

namespace warpreg {

WARPREG_REGISTER_PARAMS(RegFileParams);
WARPREG_REGISTER_STATS(RegFileStats);

RegFileConfig RegisterFileModule::config_from(const Params& p,
                                              const RegFileTechnology& technology) {
  const RegFileParams rf(&p);
  RegFileConfig c;
  c.banks = rf.banks * technology.bank_multiplier;
  c.lane_slices = rf.lane_slices;
  c.mapping = rf.bank_mapping;
  const auto latency = [&](uint32_t rf_latency) {
    const uint32_t base = technology.base_latency > 0 ? technology.base_latency : rf_latency;
    return std::max<uint32_t>(
        1, static_cast<uint32_t>(std::lround(base * technology.latency_multiplier)));
  };
  c.read_latency = latency(rf.read_latency);
  c.write_latency = latency(rf.write_latency);
  c.pipelined = technology.pipelined;
  const int64_t registers = p.integer("sm.registers");
  const int64_t physical = rf.physical_registers;
  const int64_t warp_registers = physical > 0 ? physical : registers / kWarpSize;
  if (physical == 0 && registers % kWarpSize != 0)
    throw ConfigError("sm.registers = " + std::to_string(registers) +
                      " is not a whole number of 32-lane warp registers");
  if (warp_registers % c.banks != 0)
    throw ConfigError((physical > 0 ? "rf.physical_registers = " + std::to_string(physical)
                                    : "sm.registers = " + std::to_string(registers)) +
                      " does not split into " +
                      (technology.bank_multiplier == 1
                           ? "rf.banks = " + std::to_string(c.banks)
                           : std::to_string(c.banks) + " banks (rf.banks x " +
                                 std::to_string(technology.bank_multiplier) + " for " +
                                 technology.stated_by + ")") +
                      " banks of whole warp registers");
  if (kWarpSize % c.lane_slices != 0)
    throw ConfigError("rf.lane_slices = " + std::to_string(c.lane_slices) +
                      " must divide the 32 lanes of a warp register");
  c.entries_per_bank = static_cast<uint32_t>(warp_registers / c.banks);
  return c;
}

RegisterFileModule::RegisterFileModule(sc_core::sc_module_name name, const Params& params,
                                       const power::TechTable& tech, const CycleClock& clock,
                                       const RegFileTechnology& technology)
    : sc_core::sc_module(name),
      socket("socket"),
      clock_(clock),
      technology_(technology),
      core_(config_from(params, technology)),
      energy_("regfile", clock.ns_per_cycle()),
      power_map_(core_.config().physical_registers(), core_.config().lane_slices,
                 core_.config().banks) {
  const RegFileConfig& c = core_.config();
  const double slice_bytes = c.slice_bytes();
  const double access_scale =
      PowerParams(&params).rf_access_scale * technology.access_energy_multiplier;
  // Rule S3 (docs/power.md): a bank is built of sub-arrays as wide as the table's
  // reference access (seed 000's sub-bank feeds 16 B), each of entries x that width,
  // whatever the lane slices gating divides it into; an access costs the table's energy
  // scaled to the bytes read and to the square root of the sub-array's size. A stated
  // technology's multipliers are relative to its reference capacity
  // (RegFileTechnology::capacity_multiplier).
  const double subarray_width = tech.attribute("rf_bank_read", "access_bytes");
  const double array_bytes = double(c.entries_per_bank) * technology.bank_multiplier /
                             technology.capacity_multiplier * subarray_width;
  slice_reads_ = energy_.add_event(
      "slice_reads", "lane slices read (one bank entry slice each)",
      power::sram_access_pj(tech, "rf_bank_read", slice_bytes, array_bytes) * access_scale);
  slice_writes_ = energy_.add_event(
      "slice_writes", "lane slices written (only slices holding active lanes)",
      power::sram_access_pj(tech, "rf_bank_write", slice_bytes, array_bytes) * access_scale);
  arbiter_requests_ =
      energy_.add_event("arbiter_requests", "bank arbiter requests (reads and writes)",
                        tech.value("arbiter_request"));
  conflicts_ = energy_.add_event("bank_conflicts",
                                 "reads that waited at least one cycle for a bank port", 0.0);
  const double bank_bytes = double(c.entries_per_bank) * kWarpRegisterBytes;
  const double on_mw = power::scaled(tech, "rf_bank_leakage", "bank_bytes", bank_bytes) *
                       technology.leakage_multiplier;
  const double gated_fraction =
      tech.has("rf_gated_leakage_fraction") ? tech.value("rf_gated_leakage_fraction") : 0.0;
  const double drowsy_fraction =
      tech.has("rf_drowsy_leakage_fraction") ? tech.value("rf_drowsy_leakage_fraction") : 1.0;
  const double mw[power::kPowerStateCount] = {on_mw, on_mw * drowsy_fraction, 0.0,
                                              on_mw * gated_fraction};
  banks_ = energy_.add_residency("banks", "register banks by power state", c.banks,
                                 power::PowerState::On, mw);
  cell_on_mw_ = on_mw / (double(c.entries_per_bank) * c.lane_slices);
  socket.register_b_transport(this, &RegisterFileModule::b_transport);
  log_verbosity_ = LogLevels::of(this->name());
}

void RegisterFileModule::note_activity(uint32_t bank, uint64_t cycle) {
  uint8_t& count = activity_[(cycle % kTraceWindow) * core_.config().banks + bank];
  if (count < 255) ++count;
}

BankGrant RegisterFileModule::serve(const RfAccess& a, WarpRegister& data, uint64_t cycle) {
  const uint32_t bank = core_.bank_of(a.phys_reg, a.warp_slot, a.arch_reg);
  BankGrant g;
  if (a.kind == RfAccessKind::Read) {
    g = core_.read(a.phys_reg, bank, cycle, data, a.read_lanes);
    energy_.count(slice_reads_, g.slices);
    if (g.grant_cycle != cycle) energy_.count(conflicts_);
  } else {
    g = core_.write(a.phys_reg, bank, cycle, data, a.active_mask);
    energy_.count(slice_writes_, g.slices);
  }
  energy_.count(arbiter_requests_);
  if (!activity_.empty()) note_activity(bank, g.grant_cycle);
  return g;
}

void RegisterFileModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  if (const RfAccess* a = checked_rf_access(payload, *this)) transport(payload, *a, delay);
}

void RegisterFileModule::transport(tlm::tlm_generic_payload& payload, const RfAccess& a,
                                   sc_core::sc_time& delay) {
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) return;
  if (a.phys_reg >= core_.config().physical_registers()) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
           "physical register " + std::to_string(a.phys_reg) + " beyond the file's " +
               std::to_string(core_.config().physical_registers()));
    return;
  }
  const uint64_t cycle = clock_.cycle_at(delay);
  const BankGrant g = serve(a, register_of(payload), cycle);
  const uint32_t bank = g.bank;
  if (log_verbosity_ >= sc_core::SC_DEBUG)
    log_message(name(), sc_core::SC_DEBUG,
                std::string(a.kind == RfAccessKind::Read ? "read" : "write") + " warp " +
                    std::to_string(a.warp_slot) + " r" + std::to_string(a.arch_reg) +
                    " (physical " + std::to_string(a.phys_reg) + ", bank " + std::to_string(bank) +
                    ") at cycle " + std::to_string(cycle) + ", granted " +
                    std::to_string(g.grant_cycle) + ", ready " + std::to_string(g.ready_cycle));
  clock_.complete_at(delay, g.ready_cycle);
}

void RegisterFileModule::add_signals(Waveform& wave) {
  const RegFileConfig& c = core_.config();
  activity_.assign(size_t(kTraceWindow) * c.banks, 0);
  const std::string prefix = name() + std::string(".");
  for (uint32_t b = 0; b < c.banks; ++b) {
    const std::string bank = prefix + "bank" + std::to_string(b);
    wave.add(bank + "_accesses", 8, [this, b](uint64_t cycle) {
      uint8_t& count = activity_[(cycle % kTraceWindow) * core_.config().banks + b];
      const uint32_t value = count;
      count = 0;
      return value;
    });
    if (c.lane_slices == 1) {
      wave.add(bank + "_power", 3,
               [this, b](uint64_t) { return static_cast<uint32_t>(column_state(b, 0)); });
    } else {
      for (uint32_t s = 0; s < c.lane_slices; ++s)
        wave.add(bank + "_slice" + std::to_string(s) + "_power", 3,
                 [this, b, s](uint64_t) { return static_cast<uint32_t>(column_state(b, s)); });
    }
    wave.add(bank + "_cells_not_on", 32, [this, b](uint64_t) {
      uint32_t cells = 0;
      for (uint32_t s = 0; s < core_.config().lane_slices; ++s)
        for (unsigned k = 1; k < power::kPowerStateCount; ++k)
          cells += power_map_.column_cells(b, s, static_cast<power::PowerState>(k));
      return cells;
    });
  }
  wave.add(prefix + "cells_not_on", 32,
           [this](uint64_t) { return static_cast<uint32_t>(power_map_.cells_in_low_power()); });
}

WaveState RegisterFileModule::column_state(uint32_t bank, uint32_t slice) const {
  for (unsigned k = 0; k < power::kPowerStateCount; ++k) {
    const auto state = static_cast<power::PowerState>(k);
    const uint32_t in_state = power_map_.column_cells(bank, slice, state);
    if (in_state == 0) continue;
    for (unsigned other = k + 1; other < power::kPowerStateCount; ++other)
      if (power_map_.column_cells(bank, slice, static_cast<power::PowerState>(other)) != 0)
        return WaveState::Mixed;
    return static_cast<WaveState>(k);
  }
  return WaveState::On;
}

nlohmann::json RegisterFileModule::stats(uint64_t end_cycle) {
  if (power_map_.controlled()) {
    // The designs' power controllers set the cells' states: the cells carry the leakage,
    // the banks' group none.
    const double none[power::kPowerStateCount] = {};
    energy_.set_unit_power(banks_, none);
    if (!cells_)
      cells_ = energy_.add_measured_residency(
          "cells", "register cells (entry x lane slice) in the state the power controllers set",
          power_map_.cells(), cell_on_mw_);
    power_map_.finish(end_cycle);
    uint64_t cycles[power::kPowerStateCount];
    for (unsigned s = 0; s < power::kPowerStateCount; ++s)
      cycles[s] = power_map_.cell_cycles(static_cast<power::PowerState>(s));
    energy_.set_measured(*cells_, cycles, power_map_.on_equivalent_cell_cycles());
  }
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  j["storage_bits"] = core_.config().storage_bits();
  const RegFileCore::Counters& c = core_.counters();
  stats_.reads.set(c.reads);
  stats_.writes.set(c.writes);
  stats_.conflicted_reads.set(c.conflicted_reads);
  stats_.conflict_cycles.set(c.conflict_cycles);
  stats_.conflicted_writes.set(c.conflicted_writes);
  stats_.bank_accesses.set(core_.bank_accesses());
  stats_.technology.set(technology_.stated() ? technology_.stated_by : std::string());
  stats_.power_controllers.set(power_map_.controller_names());
  stats_.write(j);
  return j;
}

nlohmann::json RegisterFileModule::describe() const {
  const RegFileConfig& c = core_.config();
  nlohmann::json d = {
      {"storage_bits", {{"banks", c.storage_bits()}}},
      {"organisation",
       {{"banks", c.banks},
        {"lane_slices", c.lane_slices},
        {"slice_bytes", c.slice_bytes()},
        {"entries_per_bank", c.entries_per_bank},
        {"physical_warp_registers", c.physical_registers()},
        {"bank_mapping", c.mapping == BankMapping::Gpgpusim ? "gpgpusim" : "interleaved"}}},
      {"ports", {{"per_bank_slice", {{"read", 1}, {"write", 1}}}}},
      {"latency_cycles", {{"read", c.read_latency}, {"write", c.write_latency}}},
      {"energy", energy_.describe()}};
  if (technology_.stated())
    d["technology"] = {{"stated_by", technology_.stated_by},
                       {"bank_multiplier", technology_.bank_multiplier},
                       {"latency_multiplier", technology_.latency_multiplier},
                       {"access_energy_multiplier", technology_.access_energy_multiplier},
                       {"leakage_multiplier", technology_.leakage_multiplier},
                       {"capacity_multiplier", technology_.capacity_multiplier},
                       {"pipelined_banks", technology_.pipelined}};
  return d;
}

}  // namespace warpreg

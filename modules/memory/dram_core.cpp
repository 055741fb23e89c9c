#include "modules/memory/dram_core.h"

#include <string>

#include "common/errors.h"

namespace warpreg::memory {

void DramConfig::validate(std::string_view name) const {
  const std::string n(name);
  const auto positive = [&](uint32_t v, const char* field) {
    if (v == 0) throw ConfigError(n + "." + field + " must be at least 1");
  };
  positive(banks, "banks");
  positive(bus_width_bytes, "bus_width_bytes");
  positive(chips_per_channel, "chips_per_channel");
  positive(burst_length, "burst_length");
  positive(data_command_freq_ratio, "data_command_freq_ratio");
  positive(queue_entries, "queue_entries");
  if (burst_length % data_command_freq_ratio != 0)
    throw ConfigError(n + ".burst_length (" + std::to_string(burst_length) +
                      ") must be a multiple of " + n + ".data_command_freq_ratio (" +
                      std::to_string(data_command_freq_ratio) + ")");
  positive(timing.tCCD, "timing.tCCD");
  if (timing.tCCD > atom_cycles())
    throw ConfigError(n + ".timing.tCCD (" + std::to_string(timing.tCCD) +
                      ") longer than a burst (burst_length / data_command_freq_ratio = " +
                      std::to_string(atom_cycles()) + ") is not modelled");
  positive(timing.tRC, "timing.tRC");
  if (timing.tRC < timing.tRAS)
    throw ConfigError(n + ".timing.tRC must be at least " + n + ".timing.tRAS");
  check_clock(name, clock_mhz);
  check_energy(name, "energy.activate_pj", energy.activate_pj);
  check_energy(name, "energy.precharge_pj", energy.precharge_pj);
  check_energy(name, "energy.read_atom_pj", energy.read_atom_pj);
  check_energy(name, "energy.write_atom_pj", energy.write_atom_pj);
  check_energy(name, "energy.background_mw", energy.background_mw);
}

DramCore::DramCore(const DramConfig& config, std::string_view name) : config_(config) {
  config_.validate(name);
  banks_.resize(config_.banks);
}

DramAccess DramCore::access(uint32_t bank, uint32_t row, uint32_t bytes, bool write,
                            uint64_t cycle) {
  const DramTiming& t = config_.timing;
  DramAccess a;
  const uint64_t arrive = cycle + config_.controller_latency;
  Bank& b = banks_[bank % config_.banks];
  const uint32_t atoms = (bytes + config_.atom_bytes() - 1) / config_.atom_bytes();
  const uint64_t burst = uint64_t(atoms) * config_.atom_cycles();
  uint64_t earliest_column = 0;
  if (b.open_row == row) {
    a.row_hit = true;
    ++counters_.row_hits;
    // The row is open once its activate's tRCD passed; column spacing is the bus slots'
    // (tCCD <= burst).
    earliest_column = std::max(arrive, b.activated + t.tRCD);
  } else {
    uint64_t act = arrive;
    if (b.open_row != kClosed) {
      act = std::max(act, b.precharge_ready) + t.tRP;
      a.precharged = true;
      ++counters_.precharges;
    }
    if (b.ever_activated) act = std::max(act, b.activated + t.tRC);
    if (any_activate_) act = std::max(act, last_activate_ + t.tRRD);
    b.activated = act;
    b.ever_activated = true;
    b.open_row = row;
    last_activate_ = std::max(last_activate_, act);
    any_activate_ = true;
    ++counters_.activates;
    earliest_column = act + t.tRCD;
  }
  const uint64_t column_to_data = write ? t.tWL : t.tCL;
  const uint64_t data_start = bus_.reserve(earliest_column + column_to_data, burst);
  const uint64_t column = data_start - column_to_data;
  const uint64_t data_end = data_start + burst;
  const uint64_t last_column = column + uint64_t(atoms) * t.tCCD;
  b.precharge_ready =
      std::max({b.precharge_ready, b.activated + t.tRAS, write ? data_end + t.tWR : last_column});

  // The scheduler queue: at most queue_entries requests wait for their column command.
  const uint64_t backlog = uint64_t(config_.queue_entries) * burst;
  const uint64_t enter = std::max(arrive, column > backlog ? column - backlog : 0);
  if (enter > arrive) {
    ++counters_.queue_stalls;
    counters_.queue_stall_cycles += enter - arrive;
  }
  counters_.queue_busy_cycles += column > enter ? column - enter : 0;
  a.accepted = enter - config_.controller_latency;

  a.done = data_end;
  counters_.atoms += atoms;
  counters_.bus_busy_cycles += burst;
  counters_.last_data_cycle = std::max(counters_.last_data_cycle, data_end);
  if (write) {
    ++counters_.writes;
    counters_.bytes_written += bytes;
  } else {
    ++counters_.reads;
    counters_.bytes_read += bytes;
  }
  return a;
}

}  // namespace warpreg::memory

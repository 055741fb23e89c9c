#pragma once
// One DRAM channel (a GDDR5 memory partition): a fixed controller latency, a bounded
// scheduler queue, banks with an open row each, and one data bus. A request finds its
// bank's row open (row hit: a column command) or opens it (precharge, activate, tRCD),
// then takes the first free slot of the data bus after its column latency; a bank opens
// a row while the bus still carries other requests, so bank-level parallelism is kept.
// The bus is a Timeline, so a request may use a gap before later-reserved transfers, but
// rows are not reordered for hits (GPGPU-Sim's FR-FCFS would). The scheduler queue holds
// a request from its arrival (after the controller latency) to its column command; at
// most queue_entries wait, so a request whose column command is more than queue_entries
// bursts away was held outside: it is accepted that much later. Cycles are DRAM
// command-clock cycles.
#include <cstdint>
#include <string_view>
#include <vector>

#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

struct DramTiming {
  uint32_t tCCD = 2;   ///< column to column
  uint32_t tRRD = 6;   ///< activate to activate, different banks
  uint32_t tRCD = 12;  ///< activate to column
  uint32_t tRAS = 28;  ///< activate to precharge
  uint32_t tRP = 12;   ///< precharge to activate
  uint32_t tRC = 40;   ///< activate to activate, same bank
  uint32_t tCL = 12;   ///< read column to data
  uint32_t tWL = 4;    ///< write column to data
  uint32_t tWR = 12;   ///< end of write data to precharge
};

/// Energy per event (pJ) and background power (mW) of one channel, supplied by a
/// technology model (0 until one does).
struct DramEnergy {
  double activate_pj = 0;    ///< one row activation
  double precharge_pj = 0;   ///< one precharge (closing a row for another)
  double read_atom_pj = 0;   ///< one read burst of atom_bytes()
  double write_atom_pj = 0;  ///< one write burst of atom_bytes()
  double background_mw = 0;  ///< the channel's chips and I/O, always on
};

struct DramConfig {
  uint32_t banks = 16;                   ///< nbk=16
  uint32_t bus_width_bytes = 4;          ///< -gpgpu_dram_buswidth 4 (per chip)
  uint32_t chips_per_channel = 2;        ///< -gpgpu_n_mem_per_ctrlr 2
  uint32_t burst_length = 8;             ///< -gpgpu_dram_burst_length 8
  uint32_t data_command_freq_ratio = 4;  ///< -dram_data_command_freq_ratio 4 (GDDR5 is QDR)
  uint32_t queue_entries = 16;           ///< -gpgpu_frfcfs_dram_sched_queue_size 16
  uint32_t controller_latency =
      132;  ///< -dram_latency 100 core cycles at 700 MHz, in 924 MHz cycles
  DramTiming timing;
  double clock_mhz = 924;  ///< -gpgpu_clock_domains ...:924.0 (the DRAM command clock)
  DramEnergy energy;

  /// Bytes one column command moves (GPGPU-Sim dram_atom_size).
  uint32_t atom_bytes() const { return burst_length * bus_width_bytes * chips_per_channel; }
  /// Data-bus cycles one atom occupies.
  uint32_t atom_cycles() const { return burst_length / data_command_freq_ratio; }
  /// Peak bytes per DRAM cycle.
  double peak_bytes_per_cycle() const { return double(atom_bytes()) / atom_cycles(); }
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;
};

struct DramAccess {
  uint64_t accepted = 0;  ///< cycle the controller took the request (queue slot found)
  uint64_t done = 0;      ///< cycle the last data beat is on the bus (reads: data back)
  bool row_hit = false;
  bool precharged = false;  ///< another row was closed first
};

class DramCore {
 public:
  explicit DramCore(const DramConfig& config, std::string_view name = "dram");

  const DramConfig& config() const { return config_; }
  /// A read or write of `bytes` to (bank, row) arriving at `cycle`.
  DramAccess access(uint32_t bank, uint32_t row, uint32_t bytes, bool write, uint64_t cycle);

  struct Counters {
    uint64_t reads = 0, writes = 0;
    uint64_t bytes_read = 0, bytes_written = 0;
    uint64_t row_hits = 0;
    uint64_t activates = 0;
    uint64_t precharges = 0;
    uint64_t atoms = 0;                                 ///< column commands (atom_bytes each)
    uint64_t bus_busy_cycles = 0;                       ///< cycles the data bus carried data
    uint64_t queue_stalls = 0, queue_stall_cycles = 0;  ///< scheduler queue full on arrival
    uint64_t queue_busy_cycles = 0;  ///< time integral of the scheduler queue's occupancy
    uint64_t last_data_cycle = 0;    ///< end of the last transfer
  };
  const Counters& counters() const { return counters_; }
  /// Forgets bus reservations that ended before `cycle` (no request arrives earlier).
  void forget_before(uint64_t cycle) { bus_.forget_before(cycle); }

 private:
  static constexpr uint32_t kClosed = ~0u;
  struct Bank {
    uint32_t open_row = kClosed;
    uint64_t activated = 0;  ///< last activate
    uint64_t precharge_ready = 0;
    bool ever_activated = false;
  };

  DramConfig config_;
  std::vector<Bank> banks_;
  Timeline bus_;
  uint64_t last_activate_ = 0;
  bool any_activate_ = false;
  Counters counters_;
};

}  // namespace warpreg::memory

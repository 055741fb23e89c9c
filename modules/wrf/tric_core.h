#pragma once
// TRIC, the tri-modal register access control unit of the Warped Register File
// (seed 002 §4): every register entry is ON, DROWSY or OFF. Entries no resident
// warp allocates are OFF; allocated entries are DROWSY by default. The policy is
// read-aggressive and write-conservative: a source register wakes when its warp is
// assigned a collector unit and drowses as soon as it is read; a destination
// register wakes at the same time and drowses after its writeback.
//
// Plain C++, no SystemC. Calls come in non-decreasing cycle order. Power-state
// changes reach a TransitionSink in non-decreasing cycle order too, so an energy
// account can integrate residency lazily. A look-ahead wake is dated n cycles in
// the past, so transitions are held back n cycles before they are committed.
#include <cstdint>
#include <queue>
#include <vector>

namespace warpreg {

enum class RegPower : uint8_t { Off, Drowsy, On };
const char* to_string(RegPower state);

struct TricConfig {
  uint32_t registers = 1024;    ///< register entries (warp registers) in the file
  uint32_t wakeup_latency = 3;  ///< cycles from the wake signal until the entry is ON
  /// Cycles between the scheduler's wake signal and the collector's first possible
  /// read (seed 002 §4.2: one cycle in the base machine), so they hide wake-up latency.
  uint32_t hidden_cycles = 1;
  /// The scheduler wakes the registers of warps that issue within the next n cycles
  /// (seed 002 §4.2), hiding up to n more cycles.
  uint32_t lookahead = 0;
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

/// Receives committed power-state changes, in non-decreasing cycle order.
class TransitionSink {
 public:
  virtual ~TransitionSink() = default;
  virtual void transition(RegPower from, RegPower to, uint64_t cycle) = 0;
};

class TricCore {
 public:
  TricCore(const TricConfig& config, TransitionSink& sink);

  const TricConfig& config() const { return config_; }

  /// A warp's registers [first, first + count) are allocated: OFF -> DROWSY.
  void launch(uint32_t first, uint32_t count, uint64_t cycle);
  /// A warp's registers are freed (its content is dead): -> OFF.
  void retire(uint32_t first, uint32_t count, uint64_t cycle);
  /// The register is named by a warp assigned a collector unit at `cycle`: it wakes
  /// (or stays ON). A destination stays ON until its writeback. Returns the first
  /// cycle an access of it may be served (>= cycle).
  uint64_t wake(uint32_t reg, uint64_t cycle, bool destination);
  /// A read of `reg` was served by the bank at `served` and finished at `done`: the
  /// content check, then back to DROWSY at `done` unless a destination write is pending.
  void read_done(uint32_t reg, uint64_t served, uint64_t done, uint64_t cycle);
  /// The writeback of `reg` was served at `served` and is readable at `done`.
  void write_done(uint32_t reg, uint64_t served, uint64_t done, uint64_t cycle);
  /// Commits every pending transition (end of run; no calls with earlier cycles after it).
  void flush(uint64_t cycle);

  /// The entry's state at `cycle` (not before the latest call), pending changes included.
  RegPower state(uint32_t reg, uint64_t cycle) const;

  struct Counters {
    uint64_t launches = 0;           ///< entries OFF -> DROWSY
    uint64_t retirements = 0;        ///< entries -> OFF
    uint64_t wakeups = 0;            ///< DROWSY -> ON
    uint64_t sleeps = 0;             ///< ON -> DROWSY
    uint64_t stay_on = 0;            ///< wakes that found the entry still ON
    uint64_t delayed_accesses = 0;   ///< accesses held back by wake-up latency
    uint64_t delay_cycles = 0;       ///< cycles they were held back
    uint64_t off_violations = 0;     ///< an OFF entry was woken, read or written
    uint64_t drowsy_violations = 0;  ///< an entry was accessed before it was ON
  };
  const Counters& counters() const { return counters_; }
  uint64_t violations() const { return counters_.off_violations + counters_.drowsy_violations; }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  struct Entry {
    RegPower phase = RegPower::Off;  ///< latest logical state
    uint16_t held = 0;               ///< destination writes pending
    uint32_t generation = 0;         ///< a pending sleep is valid while this matches
    uint64_t on_at = 0;              ///< cycle the latest wake completes
    uint64_t sleep_at = kNone;       ///< pending return to DROWSY (phase On)
    uint64_t drowsy_since = 0;       ///< last cycle it went DROWSY (phase Drowsy)
  };
  struct Pending {
    uint64_t cycle;
    uint64_t order;
    uint32_t reg;
    uint32_t generation;  ///< sleeps only: dropped when the entry's generation moved on
    RegPower from, to;
    bool is_sleep;
    bool operator>(const Pending& o) const {
      return cycle != o.cycle ? cycle > o.cycle : order > o.order;
    }
  };

  void advance(uint64_t cycle);
  /// Hands every pending transition up to cycle `last` to the sink.
  void commit(uint64_t last);
  /// A change dated `cycle` (not in the future): committed now or queued.
  void emit(uint64_t cycle, uint32_t reg, RegPower from, RegPower to);
  void push(uint64_t cycle, uint32_t reg, RegPower from, RegPower to, bool is_sleep);
  void schedule_sleep(Entry& e, uint32_t reg, uint64_t done);
  void check_access(const Entry& e, uint64_t served);
  Entry& entry(uint32_t reg);

  TricConfig config_;
  TransitionSink& sink_;
  std::vector<Entry> entries_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  uint64_t order_ = 0;
  uint64_t last_cycle_ = 0;
  Counters counters_;
};

}  // namespace warpreg

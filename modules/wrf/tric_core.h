#pragma once
// TRIC, the tri-modal register access control unit of the Warped Register File
// (seed 002 §4): every register entry is ON, DROWSY or OFF. Entries no resident
// warp allocates are OFF; allocated entries are DROWSY by default. The policy is
// read-aggressive and write-conservative: a source register wakes when its warp is
// assigned a collector unit and drowses as soon as it is read; a destination
// register wakes at the same time and drowses after its writeback.
//
// Plain C++, no SystemC. Calls may come dated out of order by up to
// `reorder_window` cycles (stages before TRIC on the operand path add latency to
// some transactions and not to others), and a look-ahead wake is dated `lookahead`
// cycles before its call. Power-state changes reach a TransitionSink with each
// entry's changes in non-decreasing cycle order (an entry never changes before its
// previous change); different entries' changes may come out of cycle order. Wakes,
// launches and retirements go to the sink at once; a sleep, which a wake dated
// before it still cancels, waits until no call can be dated before it any more.
#include <array>
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
  /// Cycles a call may be dated before the latest earlier call: the most latency the
  /// stages before TRIC add to one transaction and not to another. Not hardware: how
  /// long the model holds power-state changes back to put them in cycle order. A call
  /// dated earlier than that is taken as dated at the first cycle not yet committed
  /// (counted in Counters::late_calls).
  uint32_t reorder_window = 64;
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

/// Receives committed power-state changes of register entries, each entry's in
/// non-decreasing cycle order.
class TransitionSink {
 public:
  virtual ~TransitionSink() = default;
  virtual void transition(uint32_t reg, RegPower from, RegPower to, uint64_t cycle) = 0;
};

class TricCore {
 public:
  TricCore(const TricConfig& config, TransitionSink& sink);

  const TricConfig& config() const { return config_; }

  /// Physical registers [first, first + count) are allocated: OFF -> DROWSY (entries
  /// already allocated stay as they are).
  void launch(uint32_t first, uint32_t count, uint64_t cycle);
  /// Physical registers [first, first + count) are freed (their content is dead): -> OFF.
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
  /// Commits every pending sleep up to `cycle` (end of run: later calls dated before
  /// it count as late).
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
    /// Calls dated before every cycle still held back (more than reorder_window
    /// cycles before the latest call): taken as dated at the first uncommitted cycle.
    uint64_t late_calls = 0;
    /// Cycles between two accesses (reads or writes served) of the same allocated entry,
    /// summed, and the same for distances up to kShortInterAccess (seed 002 Figure 2).
    uint64_t inter_access_sum = 0, inter_access_count = 0;
    uint64_t short_inter_access_sum = 0, short_inter_access_count = 0;
    uint32_t allocated = 0;       ///< entries held by resident warps now (not OFF)
    uint32_t peak_allocated = 0;  ///< the most entries allocated at once (seed Table 1)
  };
  /// Seed 002 §3, Figure 2 leaves out distances over 3000 cycles ("to eliminate the skew
  /// generated by a few very low utilized registers").
  static constexpr uint64_t kShortInterAccess = 3000;
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
    uint64_t last_access = kNone;    ///< cycle the bank last served a read or write of it
    uint64_t changed_at = 0;         ///< date of its latest wake, launch or retirement
  };
  /// A sleep waiting to be committed: dropped when the entry's generation moved on.
  struct PendingSleep {
    uint64_t cycle;
    uint32_t reg;
    uint32_t generation;
    bool operator>(const PendingSleep& o) const { return cycle > o.cycle; }
  };

  /// A call dated `cycle`: the date it takes effect (not before the first cycle still
  /// open), after committing the sleeps no call can cancel any more.
  uint64_t advance(uint64_t cycle);
  /// Hands every pending sleep up to cycle `last` to the sink.
  void commit(uint64_t last);
  void drain_queue(uint64_t last);
  void apply_sleep(const PendingSleep& s);
  /// An ON entry's pending sleep is taken as done by a later change (a wake or a
  /// retirement after it): it is committed as an ordinary change, which nothing can
  /// cancel any more, and the entry is DROWSY from then.
  void settle_sleep(Entry& e, uint32_t reg);
  /// A wake, launch or retirement of `reg` dated `cycle`, never before the entry's
  /// previous change nor the first open cycle: to the sink. Returns its date.
  uint64_t emit(uint64_t cycle, uint32_t reg, RegPower from, RegPower to);
  void schedule_sleep(Entry& e, uint32_t reg, uint64_t done);
  /// The content check and the inter-access distance of an access served at `served`.
  void check_access(Entry& e, uint64_t served);
  /// Inline: about five calls per warp instruction; the message is built out of line.
  Entry& entry(uint32_t reg) {
    if (reg >= entries_.size()) out_of_range(reg);
    return entries_[reg];
  }
  [[noreturn]] void out_of_range(uint32_t reg) const;

  TricConfig config_;
  TransitionSink& sink_;
  std::vector<Entry> entries_;
  /// Sleeps due within kRing cycles of the first open one (nearly all: a read or write
  /// completes a few cycles after it is sent), bucketed by cycle: O(1) instead of the
  /// queue's O(log n). Bucket c % kRing holds only sleeps of cycle c.
  static constexpr uint64_t kRing = 256;
  std::array<std::vector<PendingSleep>, kRing> ring_;
  std::priority_queue<PendingSleep, std::vector<PendingSleep>, std::greater<PendingSleep>> pending_;
  uint64_t ring_size_ = 0;
  uint64_t ring_next_ = 0;  ///< first open cycle: sleeps before it are committed
  uint64_t latest_ = 0;     ///< the latest date of any call
  Counters counters_;
};

}  // namespace warpreg

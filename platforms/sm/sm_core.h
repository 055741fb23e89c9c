#pragma once
// The baseline SM pipeline as plain C++: CTA dispatch, warp schedulers,
// scoreboard, operand collector units, execution units with a seeded memory
// latency model, and writeback. Register-file accesses leave through an
// OperandPort (the SM module turns them into TLM transactions), so the core is
// testable without SystemC and the operand path can be extended freely.
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/calendar_queue.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/occupancy.h"
#include "modules/interfaces/rf_access.h"
#include "modules/interfaces/workload.h"
#include "modules/scheduler/warp_scheduler.h"
#include "platforms/sm/shadow_register_file.h"

namespace warpreg {

class Params;

/// Where register-file accesses go. Returns the cycle at which the access is
/// complete: for a read, the operand is in the collector; for a write, the value
/// is readable.
class OperandPort {
 public:
  virtual ~OperandPort() = default;
  virtual uint64_t access(RfTransaction& txn, uint64_t cycle) = 0;
};

/// A load or store leaving the SM through a memory system (mem.model = memory_system).
struct MemoryAccess {
  const WarpInst* inst = nullptr;
  const WarpStream* stream = nullptr;  ///< the warp's stream (a traced access's addresses)
  uint32_t warp_slot = 0;
  uint32_t cta = 0;  ///< the CTA's index in the grid
  uint32_t warp_in_cta = 0;
  uint32_t dynamic_index = 0;  ///< the instruction's index in the warp's stream
};

/// When a memory instruction is done and what it cost the load/store unit.
struct MemoryTiming {
  uint64_t done = 0;       ///< loads: the data is back; stores: the last acknowledgement
  uint64_t unit_free = 0;  ///< the load/store unit may take the next instruction
  bool l1_hit = false;     ///< every request was served by the L1 (loads)
};

/// The SM's load/store unit towards a memory system. Without one the SM draws a load's
/// latency from the probability model (mem.hit_rate).
class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual MemoryTiming access(const MemoryAccess& access, uint64_t cycle) = 0;
};

/// Where CTAs come from when several SMs share a grid (a GPU's CTA distributor). Without
/// one the SM runs every CTA of the grid itself, in order.
class CtaSource {
 public:
  virtual ~CtaSource() = default;
  /// The next CTA for this SM at `cycle`; false when the grid has none left for it.
  virtual bool next_cta(uint64_t cycle, uint32_t& cta) = 0;
};

enum class UnitType : uint8_t { Sp, Sfu, Mem };
constexpr unsigned kUnitTypes = 3;
/// The functional unit type that executes `c` (inline: the issue scan asks per probe).
inline UnitType unit_of(InstClass c) {
  switch (c) {
    case InstClass::Sfu:
      return UnitType::Sfu;
    case InstClass::Load:
    case InstClass::Store:
      return UnitType::Mem;
    default:
      return UnitType::Sp;
  }
}

struct SmConfig {
  SmLimits limits;
  uint32_t schedulers = 2;
  uint32_t issue_width = 1;
  SchedulerPolicy policy = SchedulerPolicy::Gto;
  uint32_t ready_queue = 8;
  std::array<uint32_t, kUnitTypes> collectors = {6, 8, 2};
  std::array<uint32_t, kUnitTypes> exec_units = {2, 1, 1};
  uint32_t alu_latency = 4;
  uint32_t sfu_latency = 20;
  uint32_t sfu_interval = 8;
  uint32_t branch_latency = 4;
  uint32_t store_latency = 4;
  double mem_hit_rate = 0.75;
  uint32_t mem_hit_latency = 28;
  uint32_t mem_miss_latency = 400;
  uint32_t local_lines = 128;  ///< local-memory lines the L1 keeps (spill slots)
  uint64_t seed = 1;
  uint64_t watchdog_cycles = 100000;
  /// Loads and stores go through a memory system (mem.model = memory_system): the SM
  /// module has a memory socket and a load/store unit.
  bool memory_system = false;
  /// Added to the warp slot a stream is loaded into (Workload::load_warp): SMs sharing
  /// one workload keep apart the buffers a generator reuses per slot.
  uint32_t workload_slot_base = 0;
  /// Send Wake transactions when a warp is assigned a collector unit (power-control
  /// stages ask for them, OperandStage::wants_collector_wakes; the banks ignore them).
  bool announce_collectors = false;

  static SmConfig from(const Params& p);
};

class SmCore {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);

  SmCore(const SmConfig& config, Workload& workload, OperandPort& port, ShadowRegisterFile& shadow);

  /// Runs cycle `now` (cycles are visited in increasing order) and returns the
  /// next cycle in which anything can happen, or kNever when the kernel is done
  /// or nothing can ever happen again (see stalled()).
  uint64_t step(uint64_t now);

  /// Registers a design's issue-stage hook; hooks are asked in registration order.
  /// Before the run: send Wake transactions at collector assignment (see SmConfig).
  void announce_collectors(bool on) { config_.announce_collectors = on; }
  void add_issue_hook(IssueHook* hook);
  /// Before the run: loads and stores go through `memory` (nullptr: the probability model).
  void attach_memory(MemoryPort* memory) { memory_ = memory; }
  /// Before the run: CTAs come from `source` (nullptr: the SM runs the whole grid).
  void attach_cta_source(CtaSource* source) { cta_source_ = source; }

  /// A design's occupancy replaces the SM's (IssueHook::resident_occupancy), before the
  /// first step. Throws ConfigError when its warps do not fit the SM's warp slots.
  void override_occupancy(const Occupancy& occupancy);

  bool done() const {
    return cta_source_ ? started_ && grid_drained_ && running_ctas_ == 0
                       : ctas_done_ == kernel_.ctas;
  }
  /// True when the run must stop: an integrity mismatch or a watchdog expiry.
  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  const std::string& failure_kind() const { return failure_kind_; }
  /// Ends the run with status `kind` and `message`; the first failure stands.
  void fail(const char* kind, std::string message);
  /// Every warp's state and what it waits for.
  std::string warp_report(uint64_t now) const;

  const Occupancy& occupancy() const { return occupancy_; }
  const SmConfig& config() const { return config_; }
  const KernelShape& kernel() const { return kernel_; }

  struct Counters {
    uint64_t warp_instructions = 0;      ///< issued
    uint64_t metadata_instructions = 0;  ///< issued by a design's hook (IssueVerdict::Metadata)
    uint64_t hook_waits = 0;  ///< times a hook held back a warp that could otherwise issue
    uint64_t retired = 0;
    uint64_t thread_instructions = 0;
    uint64_t operand_reads = 0;  ///< register reads into collectors
    uint64_t result_writes = 0;  ///< register writes at writeback
    uint64_t collector_allocations = 0;
    uint64_t dispatches = 0;
    uint64_t loads = 0, load_hits = 0, stores = 0;
    uint64_t local_loads = 0, local_hits = 0, local_stores = 0;  ///< spill code
    uint64_t ctas_launched = 0;
    uint64_t issue_cycles = 0;  ///< cycles in which at least one instruction issued
    uint64_t first_cycle = 0;   ///< the cycle of the first step (the kernel's start)
    uint64_t last_cycle = 0;    ///< the cycle the last warp finished
    std::array<uint64_t, kInstClassCount> by_class{};
  };
  const Counters& counters() const { return counters_; }

  /// The SM's state now, for waveforms and time series (it scans the warp slots and
  /// collectors: not for the hot path).
  struct Activity {
    uint32_t resident_warps = 0;
    uint32_t warps_at_barrier = 0;
    uint32_t instructions_in_flight = 0;
    uint32_t busy_collectors = 0;
  };
  Activity activity() const;

 private:
  static constexpr uint8_t kNotParked = 0xff;
  static constexpr uint8_t kUnknownUnit = 0xff;
  enum class WarpState : uint8_t { Empty, Running, AtBarrier, Exiting };
  struct Warp {
    WarpState state = WarpState::Empty;
    uint32_t cta_slot = 0;
    uint32_t cta_id = 0;
    uint32_t warp_in_cta = 0;
    uint32_t next = 0;                   ///< index of the next instruction to issue
    uint32_t outstanding = 0;            ///< issued, not yet retired
    bool branch_pending = false;         ///< waits for a branch to resolve
    uint64_t last_issue = ~uint64_t(0);  ///< one instruction per warp per cycle
    /// The next instruction has a scoreboard hazard: nothing changes that until one of
    /// this warp's writes completes, so the scheduler need not test it again.
    mutable bool scoreboard_blocked = false;
    bool metadata_next = false;      ///< a hook answered Metadata: issue that instead
    uint8_t parked_by = kNotParked;  ///< the hook (index) that parked the warp (WarpParking)
    /// The collector type its next instruction needs (kUnitTypes: none), while parked.
    uint8_t parked_unit = 0;
    uint64_t parked_until = 0;  ///< parked before this cycle
    /// The collector type instruction `next` needs, once can_issue_next found every
    /// collector of it taken (kUnknownUnit before): the scan then tests the type itself.
    uint8_t next_unit = kUnknownUnit;
    WarpStream* stream = nullptr;
    std::bitset<256> pending_writes;
  };
  /// A collector unit's instruction while it is busy (busy_collectors_ says which are).
  struct Collector {
    uint32_t warp = 0;
    uint32_t inst = 0;
    uint64_t ready_cycle = 0;  ///< all operands collected
    std::array<WarpRegister, kMaxSrc> operands;
  };
  enum class EventKind : uint8_t { Complete, WriteDone };
  /// Events of one cycle happen in creation order (the queue's push order).
  struct Event {
    uint64_t cycle;
    EventKind kind;
    uint32_t warp;
    uint32_t inst;
  };
  struct Cta {
    bool busy = false;
    uint32_t id = 0;
    uint32_t warps_left = 0;  ///< warps not finished
    uint32_t live = 0;        ///< warps that have not issued their exit
    uint32_t at_barrier = 0;
  };

  /// A hook's WarpParking: marks the warps it parks in the SM's warp table.
  class HookParking final : public WarpParking {
   public:
    HookParking(SmCore& core, uint8_t hook) : core_(core), hook_(hook) {}
    void park(uint32_t slot, uint64_t until) override {
      Warp& w = core_.warps_[slot];
      w.parked_by = hook_;
      w.parked_until = until;
      const InstClass cls = w.stream->at(w.next).cls;
      w.parked_unit = cls == InstClass::Exit || cls == InstClass::Barrier
                          ? uint8_t(kUnitTypes)
                          : static_cast<uint8_t>(unit_of(cls));
      if (hook_ == 0 && until != kUntilReleased) core_.note_timed_park(slot, until);
      core_.reclassify(slot);
    }
    void release(uint32_t slot) override {
      if (core_.warps_[slot].parked_by != hook_) return;
      core_.warps_[slot].parked_by = kNotParked;
      core_.reclassify(slot);
    }

   private:
    SmCore& core_;
    uint8_t hook_;
  };
  /// Warp `w` is parked by hook `hook` at cycle `now`.
  static bool parked(const Warp& w, uint32_t hook, uint64_t now) {
    return w.parked_by == hook && now < w.parked_until;
  }

  /// The warp classes of the LRR scan (WarpScheduler::pick_classified): a warp for which
  /// can_issue does nothing, one it must be asked about, and one parked by the first hook
  /// until released, by the collector type its next instruction needs (kParked + type,
  /// kParked + kUnitTypes for none): once a cycle's parked probes are quiet, can_issue
  /// only counts such a warp as a hook wait, when a collector of its type is free.
  enum WarpClass : uint8_t { kInert = 0, kAsk = 1, kParked = 2 };
  static_assert(kParked + kUnitTypes < WarpScheduler::kClasses);
  /// `x` mod the number of schedulers, without a division for one or two (per issue).
  size_t scheduler_index(uint64_t x) const {
    const size_t count = schedulers_.size();
    return count == 1 ? 0 : count == 2 ? size_t(x & 1) : size_t(x % count);
  }
  WarpScheduler& scheduler_of(uint32_t slot) { return schedulers_[scheduler_index(slot)]; }
  /// Files warp `slot` under its class again after its state changed.
  void reclassify(uint32_t slot);
  /// The first hook parked warp `slot` before cycle `until`: it is filed as parked until
  /// then, and unpark_due files it again at that cycle.
  void note_timed_park(uint32_t slot, uint64_t until) {
    if (config_.policy != SchedulerPolicy::Lrr) return;  // only the LRR scan reads classes
    timed_parks_ |= uint64_t{1} << slot;
    next_unpark_ = std::min(next_unpark_, until);
  }
  /// Files again the warps whose park ran out by `now`.
  void unpark_due(uint64_t now);
  struct LrrScanRule;

  void launch_ctas(uint64_t now);
  void launch_cta(uint32_t cta_slot, uint32_t id, uint64_t now);
  void finish_warp(uint32_t slot, uint64_t now);
  void release_barrier_if_complete(uint32_t cta_slot);
  bool can_issue(uint32_t slot);
  /// can_issue for a warp the first hook parked, when its probe may have an effect.
  bool can_issue_parked(uint32_t slot);
  /// A hook holds the warp back this cycle: counted, and the two-level queue demotes it.
  bool held_by_hook(uint32_t slot);
  /// can_issue for a running warp: its next instruction's hazards, units and hooks.
  bool can_issue_next(uint32_t slot);
  IssueVerdict ask_hooks(uint32_t slot, uint64_t now);
  void issue(uint32_t slot, uint64_t now);
  /// Tells the operand path a warp was assigned collector `cu` (Wake transactions).
  void announce_collector(uint32_t slot, uint32_t cu, const WarpInst& inst, uint64_t now);
  void dispatch(uint64_t now);
  /// Dispatches type `t`'s ready collectors to free units; returns the cycle from which
  /// one of its busy collectors may be ready (kNever: none is busy).
  uint64_t dispatch_type(unsigned t, uint64_t now);
  void complete(const Event& e, uint64_t now);
  void write_done(const Event& e, uint64_t now);
  void retire(uint32_t slot, uint32_t inst, uint64_t now);
  void schedule(uint64_t cycle, EventKind kind, uint32_t warp, uint32_t inst);
  uint32_t latency_of(const WarpInst& inst, uint32_t slot);
  /// The L1's local-memory lines: true when the line of (warp slot, word) was kept; the
  /// line is (re)used now either way.
  bool touch_local_line(uint32_t slot, uint16_t word);
  uint64_t next_event_cycle(uint64_t now) const;
  int free_collector(UnitType t) const;

  SmConfig config_;
  Workload& workload_;
  OperandPort& port_;
  ShadowRegisterFile& shadow_;
  KernelShape kernel_;
  Occupancy occupancy_;

  std::vector<Warp> warps_;
  std::vector<Cta> ctas_;
  std::vector<Collector> collectors_;
  std::array<uint32_t, kUnitTypes> collector_begin_{};  ///< first collector of each type
  std::array<uint32_t, kUnitTypes> collector_rr_{};     ///< round-robin dispatch start per type
  std::array<std::vector<uint64_t>, kUnitTypes> unit_free_;  ///< per unit: first free cycle
  std::vector<WarpScheduler> schedulers_;
  CalendarQueue<Event> events_;
  std::array<uint32_t, kUnitTypes> free_collectors_{};
  /// Per type: its busy collectors, bit i for collector collector_begin_ + i.
  std::array<uint64_t, kUnitTypes> busy_collectors_{};
  /// Per type: no busy collector has its operands before this cycle (dispatch skips it).
  std::array<uint64_t, kUnitTypes> dispatch_from_{};
  std::vector<IssueHook*> hooks_;
  /// The hooks asked before an issue, by index into hooks_, in order: those that may
  /// hold a warp (IssueHook::may_hold). A hook that never holds one never parks one either.
  std::vector<uint8_t> asked_hooks_;
  std::vector<std::unique_ptr<HookParking>> parkings_;  ///< one per hook, same order
  /// Warps seen in this cycle's pick that cannot issue for a long time (held by a hook,
  /// waiting at a barrier): the two-level scheduler moves them out of its ready queue.
  std::vector<uint32_t> demote_after_pick_;
  uint32_t idle_rotations_ = 0;  ///< cycles in a row of ready-queue turns with nothing in flight
  RfTransaction txn_;
  WarpRegister writeback_buffer_;
  uint64_t issue_cycle_ = ~uint64_t(0);
  uint64_t step_cycle_ = 0;  ///< the cycle step() runs (reclassify files timed parks by it)
  /// Warp slots the first hook parked before a cycle (some may have been released since).
  uint64_t timed_parks_ = 0;
  uint64_t next_unpark_ = kNever;  ///< the earliest end of those parks
  /// The first hook's parked probes have no effect in this cycle (IssueHook::parked_probe).
  uint64_t parked_probes_quiet_ = ~uint64_t(0);

  bool started_ = false;
  uint32_t next_cta_ = 0;
  uint32_t ctas_done_ = 0;
  uint32_t running_ctas_ = 0;
  bool grid_drained_ = false;  ///< the CTA source has nothing more for this SM
  MemoryPort* memory_ = nullptr;
  CtaSource* cta_source_ = nullptr;
  uint64_t launch_age_ = 0;
  uint64_t last_retire_cycle_ = 0;
  uint64_t rng_state_;
  /// Local-memory lines kept in L1, (warp slot << 16 | word) with their last use.
  std::vector<std::pair<uint32_t, uint64_t>> local_lines_;
  uint64_t local_uses_ = 0;
  std::string failure_;
  std::string failure_kind_;
  Counters counters_;
};

}  // namespace warpreg

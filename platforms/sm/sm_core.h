#pragma once
// The baseline SM pipeline as plain C++: CTA dispatch, warp schedulers,
// scoreboard, operand collector units, execution units with a seeded memory
// latency model, and writeback. Register-file accesses leave through an
// OperandPort (the SM module turns them into TLM transactions), so the core is
// testable without SystemC and the operand path can be extended freely.
#include <array>
#include <bitset>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

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

enum class UnitType : uint8_t { Sp, Sfu, Mem };
constexpr unsigned kUnitTypes = 3;
UnitType unit_of(InstClass c);

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
  uint64_t seed = 1;
  uint64_t watchdog_cycles = 100000;
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
  void add_issue_hook(IssueHook* hook) { hooks_.push_back(hook); }

  /// A design's occupancy replaces the SM's (IssueHook::resident_occupancy), before the
  /// first step. Throws ConfigError when its warps do not fit the SM's warp slots.
  void override_occupancy(const Occupancy& occupancy);

  bool done() const { return ctas_done_ == kernel_.ctas; }
  /// True when the run must stop: an integrity mismatch or a watchdog expiry.
  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  const std::string& failure_kind() const { return failure_kind_; }
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
    uint64_t ctas_launched = 0;
    uint64_t issue_cycles = 0;  ///< cycles in which at least one instruction issued
    uint64_t last_cycle = 0;    ///< the cycle the last warp finished
    std::array<uint64_t, kInstClassCount> by_class{};
  };
  const Counters& counters() const { return counters_; }

 private:
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
    bool metadata_next = false;  ///< a hook answered Metadata: issue that instead
    WarpStream* stream = nullptr;
    std::bitset<256> pending_writes;
  };
  struct Collector {
    bool busy = false;
    UnitType type = UnitType::Sp;
    uint32_t warp = 0;
    uint32_t inst = 0;
    uint64_t ready_cycle = 0;  ///< all operands collected
    std::array<WarpRegister, kMaxSrc> operands;
  };
  enum class EventKind : uint8_t { Complete, WriteDone };
  struct Event {
    uint64_t cycle;
    uint64_t order;  ///< ties break in creation order: deterministic
    EventKind kind;
    uint32_t warp;
    uint32_t inst;
    bool operator>(const Event& o) const {
      return cycle != o.cycle ? cycle > o.cycle : order > o.order;
    }
  };
  struct Cta {
    bool busy = false;
    uint32_t id = 0;
    uint32_t warps_left = 0;  ///< warps not finished
    uint32_t live = 0;        ///< warps that have not issued their exit
    uint32_t at_barrier = 0;
  };

  void launch_ctas(uint64_t now);
  void launch_cta(uint32_t cta_slot, uint64_t now);
  void finish_warp(uint32_t slot, uint64_t now);
  void release_barrier_if_complete(uint32_t cta_slot);
  bool can_issue(uint32_t slot);
  IssueVerdict ask_hooks(uint32_t slot, uint64_t now);
  void issue(uint32_t slot, uint64_t now);
  /// Tells the operand path a warp was assigned collector `cu` (Wake transactions).
  void announce_collector(uint32_t slot, uint32_t cu, const WarpInst& inst, uint64_t now);
  void dispatch(uint64_t now);
  void complete(const Event& e, uint64_t now);
  void write_done(const Event& e, uint64_t now);
  void retire(uint32_t slot, uint32_t inst, uint64_t now);
  void schedule(uint64_t cycle, EventKind kind, uint32_t warp, uint32_t inst);
  uint32_t latency_of(const WarpInst& inst);
  uint64_t next_event_cycle(uint64_t now) const;
  int free_collector(UnitType t) const;
  void fail(const char* kind, std::string message);

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
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t event_order_ = 0;
  std::array<uint32_t, kUnitTypes> free_collectors_{};
  std::vector<IssueHook*> hooks_;
  /// Warps seen in this cycle's pick that cannot issue for a long time (held by a hook,
  /// waiting at a barrier): the two-level scheduler moves them out of its ready queue.
  std::vector<uint32_t> demote_after_pick_;
  uint32_t idle_rotations_ = 0;  ///< cycles in a row of ready-queue turns with nothing in flight
  RfTransaction txn_;
  WarpRegister writeback_buffer_;
  uint64_t issue_cycle_ = ~uint64_t(0);

  bool started_ = false;
  uint32_t next_cta_ = 0;
  uint32_t ctas_done_ = 0;
  uint64_t launch_age_ = 0;
  uint64_t last_retire_cycle_ = 0;
  uint64_t rng_state_;
  std::string failure_;
  std::string failure_kind_;
  Counters counters_;
};

}  // namespace warpreg

#pragma once
// LTRF's controller (seed 004 §3-4) as plain C++: the active-warp pool of the two-level
// scheduler, the PREFETCH of each register-interval's working set, the warp control
// blocks' bit-vectors (working set, valid, LTRF+ liveness), and what every operand read
// and result write does: served by the register-file cache (RegisterFileCacheCore, at the
// location the address allocation unit gives, AddressAllocationCore) or by the main
// register file behind it (MainRegisterFile: the SM's register file, reached through the
// ltrf stage's initiator socket). The same controller runs the hardware register-file
// cache without prefetching (RFC, Gebhart et al. ISCA'11) in front of the same main
// register file. Every method takes the cycle it happens in and returns the cycle it is
// done. docs/blocks/ltrf.md.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/inst.h"
#include "common/param_set.h"
#include "common/register_set.h"
#include "common/warp_register.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/ltrf/address_allocation_core.h"
#include "modules/ltrf/register_file_cache_core.h"

namespace warpreg {

enum class LtrfMode : uint8_t {
  Direct,   ///< no cache: every access goes to the main register file (BL, Ideal)
  Rfc,      ///< hardware register-file cache, allocate on write, FIFO (Gebhart ISCA'11)
  Ltrf,     ///< PREFETCH of the whole working set at each register-interval
  LtrfPlus  ///< LTRF+: liveness-aware fetch and write-back
};
const char* to_string(LtrfMode mode);

enum class RfcSharing : uint8_t { Shared, Pool };
enum class PrefetchUnit : uint8_t { Interval, Strand };

/// The controller's parameters (ltrf.*).
struct LtrfParams : ParamSet {
  explicit LtrfParams(const Params* values = nullptr) : ParamSet("ltrf", values) {}
  Choice<LtrfMode> mode{
      this,
      "mode",
      LtrfMode::Ltrf,
      {{"direct", LtrfMode::Direct},
       {"rfc", LtrfMode::Rfc},
       {"ltrf", LtrfMode::Ltrf},
       {"ltrf-plus", LtrfMode::LtrfPlus}},
      "Two-level register file (design ltrf): direct = no cache, every access goes to the main "
      "register file of ltrf.main_rf_config (the BL and Ideal points); rfc = hardware "
      "register-file cache without prefetching (allocate on write, FIFO); ltrf = PREFETCH of "
      "each register-interval's working set; ltrf-plus = LTRF with the liveness bit-vector "
      "(fetch and write back live registers only).",
      "seed 004 §5 'Comparison Points' (BL, RFC [19], LTRF, LTRF+, Ideal); §3-4"};
  Choice<RfcSharing> rfc_sharing{
      this,
      "rfc_sharing",
      RfcSharing::Shared,
      {{"shared", RfcSharing::Shared}, {"pool", RfcSharing::Pool}},
      "RFC only: shared = one 16 KB cache for every resident warp, FIFO over all entries, warps "
      "displace each other's registers (the RFC of LTRF's Figure 4 and §2.3); pool = Gebhart's "
      "partition of ltrf.regs_per_interval entries per active warp with the active pool of "
      "ltrf.active_warps, flushed when a warp leaves it.",
      "seed 004 §2.3 (reasons for the 8-30 % hit rate: 'Different warps can displace each "
      "other's registers'); §5 comparison point (2), [19]"};
  Choice<PrefetchUnit> prefetch_unit{
      this,
      "prefetch_unit",
      PrefetchUnit::Interval,
      {{"interval", PrefetchUnit::Interval}, {"strand", PrefetchUnit::Strand}},
      "What a PREFETCH covers: interval = a register-interval (Algorithms 1 and 2; a loop inside "
      "it is prefetched once); strand = LTRF with strands (§6.6): pieces of a basic block and of "
      "a register-interval that end after each load, prefetched again every time a warp "
      "reaches one (so every loop iteration).",
      "seed 004 §6.6 and Figure 14 ('LTRF (strand)'); strands of [20]"};
  Choice<bool> active_pool{
      this,
      "active_pool",
      true,
      {{"off", false}, {"on", true}},
      "Mode direct only: on = the warp scheduler's two-level active pool without a cache (at "
      "most ltrf.active_warps warps issue; a warp leaves on a load miss, a barrier or exit), so "
      "that BL and Ideal run on the same scheduler as RFC, LTRF and LTRF+; off = every "
      "resident warp may issue (the SM's own scheduler alone). RFC, LTRF and LTRF+ always have "
      "the pool (rfc_sharing = shared has none).",
      "seed 004 §3.2 and Table 3: 'Scheduler Two-level [19, 53]', 'Number of active warps 8 per "
      "SM'; 'The scheduler issues instructions from active warps in a fair manner (e.g., "
      "round-robin). Whenever a warp encounters a long latency operation, such as a data cache "
      "miss, it becomes inactive and gets replaced by another one from the active pool.'"};
  Param<uint32_t> miss_cycles{
      this,
      "miss_cycles",
      0,
      {0, 100000},
      "cycles",
      "A load still outstanding this long after issue counts as a data-cache miss: its warp "
      "leaves the active pool (writing back its working set) when another warp waits for a "
      "slot. 0 = 2 x mem.hit_latency.",
      "seed 004 §3.2: 'Whenever a warp encounters a long latency operation, such as a data "
      "cache miss, it becomes inactive and gets replaced by another one'; the threshold is an "
      "assumption (the SM decides hit or miss at dispatch)"};
};

constexpr uint32_t kNoInterval = 0xffffffffu;

/// Whose access of the main register file it is: the collector's own (an operand read the
/// cache does not serve, a result it does not take) or the cache's (a fill, a write-back).
enum class MainAccess : uint8_t { Operand, Result, Fill, WriteBack };

/// The main register file behind the cache, bound at elaboration: the ltrf stage sends
/// every access on as a Read or Write transaction named by phys_reg; core tests bind a
/// RegFileCore.
class MainRegisterFile {
 public:
  struct Read {
    uint64_t ready = 0;          ///< the cycle the value is out of the bank
    LaneMask lanes = kFullMask;  ///< the lanes read (a stage behind may read fewer)
  };
  virtual ~MainRegisterFile() = default;
  /// Reads register `reg` of warp `slot` into `out` at `cycle`. Operand: `out` is the
  /// buffer of the collector's read being served.
  virtual Read read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out,
                    MainAccess access) = 0;
  /// Writes the lanes `mask` of `value`; returns the cycle it is written. Result: `value`
  /// is the collector's result being served.
  virtual uint64_t write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                         LaneMask mask, MainAccess access) = 0;
};

struct LtrfCoreConfig {
  /// Rfc, Ltrf or LtrfPlus; Direct: the active pool alone, the stage passes every access on
  LtrfMode mode = LtrfMode::Ltrf;
  uint32_t max_warps = 48;      ///< hardware warp slots (WCBs)
  uint32_t regs_per_warp = 64;  ///< this kernel's registers per thread
  /// A load still outstanding this many cycles after issue is a cache miss: its warp
  /// gives its slot to a waiting warp.
  uint32_t miss_cycles = 56;
  /// RFC only: one cache shared by every resident warp (FIFO over all entries, no active
  /// pool: seed 004 §2.3) instead of a partition per active warp (Gebhart's design).
  bool rfc_shared = true;
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

/// The bit-vectors of a warp's warp control block (Figure 7); its register cache
/// address table and warp-offset address are the address allocation unit's.
struct WarpControlBlock {
  RegisterSet working_set;  ///< the current interval's PREFETCH vector
  RegisterSet cached;       ///< valid bits: the register has a cache entry
  RegisterSet live;         ///< LTRF+ liveness bit-vector (set on write, cleared by dead bits)
};

class LtrfCore {
 public:
  enum class Ask : uint8_t { Issue, Wait, Prefetch };

  /// `interval_sets[i]`: the working set (PREFETCH vector) of register-interval i. The
  /// allocation unit, the cache and the main register file are the blocks it drives.
  /// Throws std::invalid_argument for a bad configuration or a working set larger than
  /// the cache banks.
  LtrfCore(const LtrfCoreConfig& config, std::vector<RegisterSet> interval_sets,
           AddressAllocationCore& allocation, RegisterFileCacheCore& cache, MainRegisterFile& main);

  const LtrfCoreConfig& config() const { return config_; }

  // ------------------------------------------------------------ issue stage
  /// May warp `slot`, whose next instruction is in `interval` (kNoInterval: unknown),
  /// issue at `cycle`? Prefetch: it issues a PREFETCH instead (the set's fetch starts
  /// now); Wait: no cache slot yet, or the working set is not resident.
  /// `header`: the instruction starts its prefetch unit and reaching it again (a loop)
  /// prefetches again (strands, §6.6); `index`: the warp's dynamic instruction number.
  Ask before_issue(uint32_t slot, uint32_t interval, uint64_t cycle, bool header = false,
                   uint32_t index = 0);
  /// Where the issue stage parks the warps that wait: a queued warp until it gets a slot,
  /// an active one until its working set is resident (nullptr: none).
  void attach_parking(WarpParking* parking) { parking_ = parking; }
  /// What before_issue does for a parked warp besides answering Wait; true when no probe
  /// of a parked warp has an effect before the next cycle (replace_missed looked).
  bool parked_probe(uint32_t slot, uint64_t cycle) {
    replace_missed_if_waiting(warps_[slot], cycle);
    return replace_checked_ == cycle;
  }
  /// The warp issued `inst`; `dead` are the source registers whose value dies with it
  /// (LTRF+ dead operand bits).
  void issued(uint32_t slot, const WarpInst& inst, const RegisterSet& dead, uint64_t cycle);
  /// First cycle after `cycle` at which a waiting warp's working set becomes resident
  /// or an active warp's load turns into a miss while warps wait for a slot.
  uint64_t next_change(uint64_t cycle) const;

  // ------------------------------------------------------------ operand path
  /// Operand read of `reg` (source operand `operand`) into `out`; returns the cycle the
  /// operand is in the collector.
  uint64_t read(uint32_t slot, uint16_t reg, uint8_t operand, LaneMask lanes, uint64_t cycle,
                WarpRegister& out);
  /// Result write of the lanes `mask` of `value`; returns the cycle it is readable.
  uint64_t write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value,
                 uint64_t cycle);
  /// True when a result of `reg` written now would go to the cache, not the main RF.
  bool takes_result(uint32_t slot, uint16_t reg) const;
  /// A result of `reg` arrived (write() does this itself): a load waiting for it is done.
  void result_arrived(uint32_t slot, uint16_t reg);
  void launch(uint32_t slot, uint64_t cycle);
  void retire(uint32_t slot, uint64_t cycle);

  // ------------------------------------------------------------ inspection
  enum class Status : uint8_t { Inactive, Queued, Active };
  Status status(uint32_t slot) const { return warps_[slot].status; }
  const WarpControlBlock& wcb(uint32_t slot) const { return warps_[slot].wcb; }
  uint64_t resident_at(uint32_t slot) const { return warps_[slot].resident_at; }
  uint32_t interval(uint32_t slot) const { return warps_[slot].interval; }
  /// The cache's copy of a register (tests); nullptr when not cached.
  const WarpRegister* cached_value(uint32_t slot, uint16_t reg) const;
  const std::vector<RegisterSet>& interval_sets() const { return sets_; }
  std::string wait_report() const;

  /// The WCBs' working-set and liveness bit-vectors: max_warps x 2 x `table_entries`.
  uint64_t bit_vector_bits(uint32_t table_entries) const {
    return uint64_t{config_.max_warps} * 2 * table_entries;
  }

  struct Counters {
    uint64_t prefetches = 0;                  ///< PREFETCH operations (interval starts)
    uint64_t activations = 0;                 ///< warps given a warp-offset slot
    uint64_t deactivations = 0;               ///< warps that lost it (miss, barrier, exit)
    uint64_t miss_deactivations = 0;          ///< of which on a load that turned out a miss
    uint64_t fetched = 0;                     ///< registers read from the main RF into the cache
    uint64_t allocated_dead = 0;              ///< LTRF+: cache slot allocated, no fetch (dead)
    uint64_t written_back = 0;                ///< registers written from the cache to the main RF
    uint64_t dropped_dead = 0;                ///< LTRF+: dirty but dead, not written back
    uint64_t evicted = 0;                     ///< entries freed at an interval change or RFC victim
    uint64_t read_hits = 0, read_misses = 0;  ///< reads served by the cache / main RF
    uint64_t main_reads = 0, main_writes = 0;  ///< every main-RF access
    uint64_t direct_writes = 0;         ///< results written to the main RF (warp not caching)
    uint64_t unfetched_reads = 0;       ///< read of lanes never fetched (LTRF+ liveness said dead)
    uint64_t prefetch_wait_cycles = 0;  ///< sum over fetches of cycles until resident
    uint64_t max_prefetch_cycles = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Warp {
    Status status = Status::Inactive;
    WarpControlBlock wcb;
    uint32_t interval = kNoInterval;
    uint32_t pending_interval = kNoInterval;  ///< the interval it asked to run (queued)
    uint32_t pending_index = ~0u;             ///< and the dynamic instruction
    uint32_t header_index = ~0u;  ///< dynamic instruction whose unit start was prefetched
    uint64_t resident_at = 0;
    uint64_t load_since = ~uint64_t(0);  ///< issue cycle of the oldest outstanding load
    RegisterSet load_regs;               ///< destinations of outstanding loads
  };

  bool shared() const { return config_.mode == LtrfMode::Rfc && config_.rfc_shared; }
  bool prefetching() const {
    return config_.mode == LtrfMode::Ltrf || config_.mode == LtrfMode::LtrfPlus;
  }
  /// The cache entry of a cached register of an active warp (partitioned cache).
  CacheEntry& entry(uint32_t slot, uint16_t reg) {
    return cache_.entry(cache_.index(allocation_.offset(slot), allocation_.bank(slot, reg)));
  }
  uint64_t shared_read(uint32_t slot, uint16_t reg, LaneMask lanes, uint64_t t, WarpRegister& out);
  uint64_t shared_write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value,
                        uint64_t cycle);
  void shared_drop(uint32_t slot);
  /// A probe of a warp without a slot: replace_missed's first tests, before the call
  /// (most probes stop there).
  void replace_missed_if_waiting(const Warp& w, uint64_t cycle) {
    if (w.status != Status::Active && !queue_.empty() && allocation_.free_offsets() == 0 &&
        cycle != replace_checked_)
      replace_missed(cycle);
  }
  /// Warp `slot`'s answer may change: its status or working set changed.
  void release(uint32_t slot) {
    if (parking_) parking_->release(slot);
  }
  void activate(uint32_t slot, uint32_t interval, uint64_t cycle);
  void deactivate(uint32_t slot, uint64_t cycle, bool write_back);
  void activate_next(uint64_t cycle);
  /// Warps wait for a slot and none is free: active warps stalled on a miss leave.
  void replace_missed(uint64_t cycle);
  /// A warp with an outstanding load since `since` is active: replace_missed looks again
  /// from its miss cycle on.
  void note_load(uint64_t since);
  /// Allocates and (unless dead in LTRF+) fetches every working-set register not cached.
  void fetch_working_set(uint32_t slot, uint64_t cycle);
  /// The PREFETCH of warp `slot` entering `interval` at static instruction `index` (out of
  /// line: the probes that issue save no registers for it).
  [[gnu::noinline]] void prefetch(uint32_t slot, uint32_t interval, uint32_t index, uint64_t cycle);
  /// Frees the entry of `reg`, writing it back first when `write_back`.
  void evict(uint32_t slot, uint16_t reg, uint64_t cycle, bool write_back);
  MainRegisterFile::Read main_read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out,
                                   MainAccess access);
  uint64_t main_write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                      LaneMask mask, MainAccess access);

  LtrfCoreConfig config_;
  std::vector<RegisterSet> sets_;
  AddressAllocationCore& allocation_;
  RegisterFileCacheCore& cache_;
  MainRegisterFile& main_;
  std::vector<Warp> warps_;
  std::deque<uint32_t> queue_;          ///< warps waiting for a warp-offset slot, FIFO
  std::vector<uint32_t> active_;        ///< the active warps' slots, in no order
  AddressAllocationUnit shared_slots_;  ///< shared RFC: free / FIFO of entries
  std::vector<uint16_t> shared_index_;  ///< shared RFC: [warp][register] -> entry
  static constexpr uint16_t kNoEntry = 0xffff;
  WarpParking* parking_ = nullptr;
  uint64_t replace_checked_ = ~uint64_t(0);  ///< cycle replace_missed last looked
  /// No active warp's oldest load turns into a miss before this cycle (a lower bound).
  uint64_t earliest_miss_ = 0;
  Counters counters_;
};

}  // namespace warpreg

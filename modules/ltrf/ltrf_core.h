#pragma once
// LTRF (seed 004) as plain C++: the warp control blocks, the per-warp and global address
// allocation units, the register-file cache (bit-exact contents) and the slow main
// register file behind a narrow crossbar, with the active-warp pool of the two-level
// scheduler and the PREFETCH of each register-interval's working set. The same core
// also runs the hardware register-file cache without prefetching (RFC, Gebhart et al.
// ISCA'11) and a plain main register file (Direct: the baselines of Figures 9-11).
// Every method takes the cycle it happens in and returns the cycle it is done; the
// SystemC stage (ltrf_stage.h) turns these into annotated delays. docs/blocks/ltrf.md.
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/inst.h"
#include "common/register_set.h"
#include "common/warp_register.h"
#include "modules/ltrf/address_allocation.h"
#include "modules/regfile/regfile_core.h"

namespace warpreg {

enum class LtrfMode : uint8_t {
  Off,
  Direct,   ///< no cache: every access goes to the main register file (BL, Ideal)
  Rfc,      ///< hardware register-file cache, allocate on write, FIFO (Gebhart ISCA'11)
  Ltrf,     ///< PREFETCH of the whole working set at each register-interval
  LtrfPlus  ///< LTRF+: liveness-aware fetch and write-back
};
const char* to_string(LtrfMode mode);

constexpr uint32_t kNoInterval = 0xffffffffu;

struct LtrfCoreConfig {
  LtrfMode mode = LtrfMode::Ltrf;
  uint32_t regs_per_interval = 16;     ///< cache banks = registers a warp may cache (N)
  uint32_t active_warps = 8;           ///< warp-offset slots = entries per cache bank
  uint32_t max_warps = 48;             ///< hardware warp slots (WCBs)
  uint32_t resident_warps = 48;        ///< warps of this kernel resident at once (slots in use)
  uint32_t regs_per_warp = 64;         ///< this kernel's registers per thread (phys naming)
  uint32_t max_regs_per_thread = 256;  ///< address-table entries per warp (hardware size)
  uint32_t lookup_cycles = 1;          ///< extra cycle of a WCB lookup
  uint32_t wcb_read_ports = 2;         ///< WCB read ports: more operands take more cycles
  uint32_t cache_latency = 1;          ///< cache bank access
  uint32_t fill_cycles = 4;            ///< narrow crossbar: cycles per register transfer
  /// A load still outstanding this many cycles after issue is a cache miss: its warp
  /// gives its slot to a waiting warp.
  uint32_t miss_cycles = 56;
  /// RFC only: one cache shared by every resident warp (FIFO over all entries, no active
  /// pool: seed 004 §2.3) instead of a partition per active warp (Gebhart's design).
  bool rfc_shared = true;
  RegFileConfig main;  ///< the main register file (banks, latency)
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

/// Per-warp metadata of the warp control block (Figure 7).
struct WarpControlBlock {
  std::array<uint8_t, 256> bank{};  ///< register cache address table: bank per register
  uint32_t offset = AddressAllocationUnit::kNone;  ///< warp-offset address
  RegisterSet working_set;                         ///< the current interval's PREFETCH vector
  RegisterSet cached;                              ///< valid bits: the register has a cache entry
  RegisterSet live;  ///< LTRF+ liveness bit-vector (set on write, cleared by dead bits)
};

class LtrfCore {
 public:
  enum class Ask : uint8_t { Issue, Wait, Prefetch };

  /// `interval_sets[i]`: the working set (PREFETCH vector) of register-interval i.
  LtrfCore(const LtrfCoreConfig& config, std::vector<RegisterSet> interval_sets);

  const LtrfCoreConfig& config() const { return config_; }

  // ------------------------------------------------------------ issue stage
  /// May warp `slot`, whose next instruction is in `interval` (kNoInterval: unknown),
  /// issue at `cycle`? Prefetch: it issues a PREFETCH instead (the set's fetch starts
  /// now); Wait: no cache slot yet, or the working set is not resident.
  /// `header`: the instruction starts its prefetch unit and reaching it again (a loop)
  /// prefetches again (strands, §6.6); `index`: the warp's dynamic instruction number.
  Ask before_issue(uint32_t slot, uint32_t interval, uint64_t cycle, bool header = false,
                   uint32_t index = 0);
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
  void launch(uint32_t slot, uint64_t cycle);
  void retire(uint32_t slot, uint64_t cycle);

  // ------------------------------------------------------------ inspection
  enum class Status : uint8_t { Inactive, Queued, Active };
  Status status(uint32_t slot) const { return warps_[slot].status; }
  const WarpControlBlock& wcb(uint32_t slot) const { return warps_[slot].wcb; }
  const AddressAllocationUnit& bank_unit(uint32_t slot) const { return warps_[slot].banks; }
  const AddressAllocationUnit& offset_unit() const { return offsets_; }
  uint64_t resident_at(uint32_t slot) const { return warps_[slot].resident_at; }
  uint32_t interval(uint32_t slot) const { return warps_[slot].interval; }
  /// The cache's copy of a register (tests); nullptr when not cached.
  const WarpRegister* cached_value(uint32_t slot, uint16_t reg) const;
  const RegFileCore& main() const { return main_; }
  RegFileCore& main() { return main_; }
  const std::vector<RegisterSet>& interval_sets() const { return sets_; }
  std::string wait_report() const;

  /// WCB storage (Figure 7): max_warps x (regs x log2(banks) + log2(active) + 2 x regs).
  uint64_t wcb_storage_bits() const;
  uint64_t cache_storage_bits() const;
  uint64_t queue_storage_bits() const;  ///< per-warp and global allocation units

  struct Counters {
    uint64_t prefetches = 0;          ///< PREFETCH operations (interval starts)
    uint64_t activations = 0;         ///< warps given a warp-offset slot
    uint64_t deactivations = 0;       ///< warps that lost it (miss, barrier, exit)
    uint64_t miss_deactivations = 0;  ///< of which on a load that turned out a miss
    uint64_t fetched = 0;             ///< registers read from the main RF into the cache
    uint64_t allocated_dead = 0;      ///< LTRF+: cache slot allocated, no fetch (dead)
    uint64_t written_back = 0;        ///< registers written from the cache to the main RF
    uint64_t dropped_dead = 0;        ///< LTRF+: dirty but dead, not written back
    uint64_t evicted = 0;             ///< entries freed at an interval change or RFC victim
    uint64_t cache_reads = 0, cache_writes = 0;  ///< operand / result accesses of the cache
    uint64_t read_hits = 0, read_misses = 0;     ///< reads served by the cache / main RF
    uint64_t main_reads = 0, main_writes = 0;    ///< every main-RF access
    uint64_t direct_writes = 0;    ///< results written to the main RF (warp not caching)
    uint64_t unfetched_reads = 0;  ///< LTRF+: read of lanes never fetched (liveness said dead)
    uint64_t wcb_lookups = 0, wcb_port_stalls = 0;
    uint64_t crossbar_transfers = 0;
    uint64_t prefetch_wait_cycles = 0;  ///< sum over fetches of cycles until resident
    uint64_t max_prefetch_cycles = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Entry {
    WarpRegister value;
    LaneMask valid_lanes = 0;
    bool dirty = false;
    uint16_t reg = 0;
    uint16_t warp = 0;
  };
  struct Warp {
    Status status = Status::Inactive;
    WarpControlBlock wcb;
    AddressAllocationUnit banks;
    uint32_t interval = kNoInterval;
    uint32_t pending_interval = kNoInterval;  ///< the interval it asked to run (queued)
    uint32_t pending_index = ~0u;             ///< and the dynamic instruction
    uint32_t header_index = ~0u;  ///< dynamic instruction whose unit start was prefetched
    uint64_t resident_at = 0;
    uint64_t load_since = ~uint64_t(0);  ///< issue cycle of the oldest outstanding load
    RegisterSet load_regs;               ///< destinations of outstanding loads
  };

  bool caches() const { return config_.mode != LtrfMode::Direct; }
  bool shared() const { return config_.mode == LtrfMode::Rfc && config_.rfc_shared; }
  uint64_t shared_read(uint32_t slot, uint16_t reg, LaneMask lanes, uint64_t t, WarpRegister& out);
  uint64_t shared_write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value,
                        uint64_t cycle);
  void shared_drop(uint32_t slot);
  bool prefetching() const {
    return config_.mode == LtrfMode::Ltrf || config_.mode == LtrfMode::LtrfPlus;
  }
  uint32_t phys(uint32_t slot, uint16_t reg) const { return slot * config_.regs_per_warp + reg; }
  uint32_t main_bank(uint32_t slot, uint16_t reg) const {
    return main_.bank_of(phys(slot, reg), static_cast<uint16_t>(slot), reg);
  }
  Entry& entry(const Warp& w, uint16_t reg) {
    return entries_[size_t(w.wcb.offset) * config_.regs_per_interval + w.wcb.bank[reg]];
  }
  void activate(uint32_t slot, uint32_t interval, uint64_t cycle);
  void deactivate(uint32_t slot, uint64_t cycle, bool write_back);
  void activate_next(uint64_t cycle);
  /// Warps wait for a slot and none is free: active warps stalled on a miss leave.
  void replace_missed(uint64_t cycle);
  /// Allocates and (unless dead in LTRF+) fetches every working-set register not cached.
  void fetch_working_set(uint32_t slot, uint64_t cycle);
  /// Frees the entry of `reg`, writing it back first when `write_back`.
  void evict(uint32_t slot, uint16_t reg, uint64_t cycle, bool write_back);
  uint64_t transfer(uint32_t cache_bank, uint64_t cycle);
  uint64_t main_read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out);
  uint64_t main_write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                      LaneMask mask);

  LtrfCoreConfig config_;
  std::vector<RegisterSet> sets_;
  RegFileCore main_;
  std::vector<Warp> warps_;
  AddressAllocationUnit offsets_;
  std::deque<uint32_t> queue_;          ///< warps waiting for a warp-offset slot, FIFO
  std::vector<Entry> entries_;          ///< [offset][bank]; shared RFC: any order
  AddressAllocationUnit shared_slots_;  ///< shared RFC: free / FIFO of entries
  std::vector<uint16_t> shared_index_;  ///< shared RFC: [warp][register] -> entry
  static constexpr uint16_t kNoEntry = 0xffff;
  std::vector<uint64_t> cache_read_free_, cache_write_free_, fill_free_;  ///< per cache bank
  uint64_t replace_checked_ = ~uint64_t(0);  ///< cycle replace_missed last looked
  Counters counters_;
};

}  // namespace warpreg

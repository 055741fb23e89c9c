#pragma once
// A set-associative cache with LRU replacement, MSHRs that merge requests to a line
// being filled, a miss queue towards the next level and a configurable write policy:
// the algorithm of GPGPU-Sim's data_cache (gpu-cache.cc) in loosely-timed form. The
// L1 data cache, the constant cache and each L2 slice are one CacheCore each.
//
// Timing: a request takes the cache's port (one request per cycle) at the first free
// cycle at or after it asks, and reaches the tags `latency` cycles later (GPGPU-Sim's L1
// latency queue, the L2's ROP queue). There a hit's data is ready; a miss needs an MSHR,
// a merge slot of a pending MSHR, or a replaceable way, and each one exhausted is a stall
// until it frees; then the miss leaves for the next level and completes when its fill
// arrives. Lines being filled stay in the tag array with the cycle their data arrives, and
// MSHRs are kept as (allocated, freed) intervals, so requests that arrive out of time
// order see the state of their own cycle as far as the intervals tell. The miss queue
// holds what left for the next level until that level accepts it: a request that would
// find it full is accepted that much later (CacheDecision::accepted).
#include <cstdint>
#include <string_view>
#include <vector>

#include "modules/memory/mem_request.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

enum class SetIndexFunction : uint8_t {
  Linear,     ///< (address / line) mod sets (GPGPU-Sim 'L')
  FermiHash,  ///< GPGPU-Sim 'H' (Nugteren et al., HPCA 2014): 32 or 64 sets only
};

enum class WritePolicy : uint8_t {
  ReadOnly,  ///< constant cache (GPGPU-Sim 'R'): no writes
  /// Fermi L1D (GPGPU-Sim 'L', data_cache::wr_hit_global_we_local_wb): a global store
  /// that hits evicts the line and goes on to the L2; a local store that hits stays in
  /// the line (dirty), which is written back when evicted.
  LocalWriteBackGlobalWriteEvict,
  WriteBack,  ///< L2 (GPGPU-Sim 'B'): every write hit stays in the line
};

/// Energy per event (pJ) and leakage (mW) of one cache, supplied by a technology model
/// (0 until one does). The module counts the events; it never multiplies.
struct CacheEnergy {
  double tag_lookup_pj = 0;  ///< one tag-array lookup (every request the cache examines)
  double data_read_pj = 0;   ///< one data-array read (read hit, dirty line read out for write-back)
  double data_write_pj = 0;  ///< one data-array write (write hit or allocate, line fill)
  double mshr_access_pj = 0;  ///< one MSHR allocation or merge
  double leakage_mw = 0;      ///< the whole cache (tags, data, MSHRs), on
};

struct CacheConfig {
  uint32_t sets = 32;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  SetIndexFunction set_index = SetIndexFunction::FermiHash;
  WritePolicy write_policy = WritePolicy::LocalWriteBackGlobalWriteEvict;
  /// A write miss allocates the line (without fetching it: a later read of bytes the
  /// writes did not cover fetches it, GPGPU-Sim's lazy fetch-on-read); false: the write
  /// goes on to the next level and nothing is allocated.
  bool write_allocate = false;
  uint32_t mshr_entries = 32;       ///< lines that can be in flight
  uint32_t mshr_max_merge = 8;      ///< requests one MSHR holds (the first miss included)
  uint32_t miss_queue_entries = 8;  ///< requests waiting for the next level to accept them
  uint32_t latency = 35;            ///< cycles from acceptance to a hit's data
  double clock_mhz = 700;           ///< the cache's clock (the module's; the core counts cycles)
  CacheEnergy energy;               ///< the module's coefficients

  uint64_t capacity_bytes() const { return uint64_t(sets) * ways * line_bytes; }
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;

  /// GPGPU-Sim GTX480 presets (docs/memory.md cites every value).
  static CacheConfig gtx480_l1d();       ///< 16 KB: -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8
  static CacheConfig gtx480_l1d_48k();   ///< 48 KB: N:64:128:6 (cudaFuncCachePreferL1)
  static CacheConfig gtx480_l2_slice();  ///< -gpgpu_cache:dl2 N:64:128:8,L:B:m:W:L,A:32:4,4
  static CacheConfig gtx480_constant();  ///< -gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4
};

struct CacheRequest {
  uint64_t address = 0;        ///< byte address; the line of it is the tag
  uint64_t index_address = 0;  ///< address the set index is computed from
  ByteMask bytes;              ///< bytes of the line read or written
  MemKind kind = MemKind::Load;
  MemSpace space = MemSpace::Global;
};

enum class CacheOutcome : uint8_t {
  Hit,        ///< served here at `ready` (a write hit or write-allocate may carry a writeback)
  MshrMerge,  ///< the line is being filled: served when its fill arrives (`ready`)
  Miss,       ///< fetch the line at `send`, then complete_miss()
  Forward,    ///< a write not kept here: send it on at `send`, then complete_forward()
};

struct CacheDecision {
  CacheOutcome outcome = CacheOutcome::Hit;
  uint64_t start = 0;  ///< cycle the request took the port
  /// Cycle the cache accepted the request: `start`, later by the stalls (MSHR, merge, set,
  /// and once complete_*() know, a full miss queue).
  uint64_t accepted = 0;
  uint64_t ready = 0;  ///< Hit, MshrMerge: cycle the data (or write) is done
  uint64_t send = 0;   ///< Miss, Forward, writeback: cycle the request leaves for the next level
  bool writeback = false;  ///< a dirty victim leaves first at `send`: complete_writeback()
  uint64_t victim_address = 0;
  uint32_t line = 0;  ///< line index (Miss)
  uint32_t mshr = 0;  ///< MSHR index (Miss)
};

class CacheCore {
 public:
  explicit CacheCore(const CacheConfig& config, std::string_view name = "cache");

  const CacheConfig& config() const { return config_; }
  uint32_t set_of(uint64_t index_address) const;
  uint64_t line_of(uint64_t address) const { return address & ~uint64_t(config_.line_bytes - 1); }

  /// Looks the request up at `cycle` and reserves what it needs. Writes to a ReadOnly
  /// cache throw std::logic_error (the module refuses them first).
  CacheDecision access(const CacheRequest& request, uint64_t cycle);
  /// A request the cache passes on unexamined (atomics, L1 bypass): the port, then
  /// complete_forward() with the next level's acceptance.
  CacheDecision pass(uint64_t cycle);
  /// The fill of a Miss arrives at `fill_cycle`; the next level accepted the request at
  /// `accepted_cycle` (which may move `miss.accepted`: miss queue).
  void complete_miss(CacheDecision& miss, uint64_t fill_cycle, uint64_t accepted_cycle);
  void complete_forward(CacheDecision& forward, uint64_t accepted_cycle);
  void complete_writeback(CacheDecision& decision, uint64_t accepted_cycle);
  /// Forgets port reservations and MSHR intervals that ended before `cycle` (no request
  /// can arrive earlier; modules call it with the current SystemC time).
  void forget_before(uint64_t cycle);
  /// The next level refused a Miss's fetch: the MSHR is freed and the line dropped (a
  /// line holding written bytes keeps them).
  void abort_miss(const CacheDecision& miss);

  /// Is the line holding `address` present (filled or being filled)? No timing, no counting.
  bool contains(uint64_t address, uint64_t index_address) const;
  bool dirty(uint64_t address, uint64_t index_address) const;

  struct Counters {
    uint64_t reads = 0;   ///< loads and atomics looked up
    uint64_t writes = 0;  ///< stores and write-backs looked up
    uint64_t passed = 0;  ///< requests passed on unexamined
    uint64_t read_hits = 0;
    uint64_t read_misses = 0;  ///< line fetches (including fetches of a partially written line)
    uint64_t mshr_merges = 0;  ///< reads merged into the MSHR of a line being filled
    uint64_t write_hits = 0;
    uint64_t write_misses = 0;
    uint64_t write_evicts = 0;  ///< global store hits that invalidated their line
    uint64_t forwarded = 0;     ///< writes sent on to the next level
    uint64_t fills = 0;
    uint64_t evictions = 0;                             ///< valid lines replaced
    uint64_t writebacks = 0;                            ///< dirty lines written back
    uint64_t port_stalls = 0, port_stall_cycles = 0;    ///< one access per cycle
    uint64_t mshr_stalls = 0, mshr_stall_cycles = 0;    ///< every MSHR busy
    uint64_t merge_stalls = 0, merge_stall_cycles = 0;  ///< the line's MSHR full of merges
    uint64_t set_stalls = 0, set_stall_cycles = 0;      ///< every way of the set being filled
    uint64_t queue_stalls = 0, queue_stall_cycles = 0;  ///< miss queue full
    uint64_t mshr_busy_cycles = 0;        ///< time integral of MSHRs in use (entry-cycles)
    uint64_t miss_queue_busy_cycles = 0;  ///< time integral of the miss queue's occupancy
  };
  const Counters& counters() const { return counters_; }

 private:
  static constexpr uint64_t kPending = ~0ull;  ///< fill cycle not known yet
  struct Line {
    uint64_t tag = 0;    ///< line address
    uint64_t ready = 0;  ///< cycle the line's data is (or was) there
    uint64_t lru = 0;    ///< last use, in access order
    ByteMask
        valid;  ///< bytes holding data (all after a fill; the written ones after a write-allocate)
    bool present = false;
    bool dirty = false;
  };
  struct Mshr {
    uint64_t line = 0;
    uint64_t allocated = 0;  ///< busy from this cycle ...
    uint64_t ready = 0;      ///< ... up to this one (the fill)
    uint32_t merged = 0;
  };

  int find(uint64_t line, uint32_t set) const;
  /// MSHRs busy at `cycle`, and the first cycle one of them frees.
  uint32_t mshrs_busy(uint64_t cycle, uint64_t& first_free) const;
  int find_mshr(uint64_t line, uint64_t cycle) const;
  /// LRU way of the set not being filled at `cycle` (invalid ways first), or -1.
  int victim(uint32_t set, uint64_t cycle) const;
  uint64_t earliest_fill(uint32_t set) const;
  /// A request that left at `send` and was accepted at `accepted` waited in the miss
  /// queue; with more than miss_queue_entries ahead of it, the queue was full.
  void queue(CacheDecision& d, uint64_t accepted);
  void evict(Line& line, CacheDecision& d);
  void touch(Line& line) { line.lru = ++use_; }
  ByteMask full_line() const;

  CacheConfig config_;
  uint32_t line_shift_ = 0;
  std::vector<Line> lines_;
  std::vector<Mshr> mshrs_;  ///< allocations not yet forgotten (may exceed mshr_entries over time)
  Timeline port_;
  uint64_t use_ = 0;
  Counters counters_;
};

}  // namespace warpreg::memory

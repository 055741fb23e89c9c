#pragma once
// What the cache modules (L1Cache, L2Slice) share: serving a request through a
// CacheCore and the level below, their energy events, statistics and description.
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/memory/cache_core.h"
#include "modules/memory/mem_request.h"
#include "power/energy.h"

namespace warpreg::memory {

/// The result of sending a request to the level below.
struct Sent {
  bool ok = false;        ///< false: the payload carries the error response
  uint64_t done = 0;      ///< cycle (of the sender's clock) the answer is back
  uint64_t accepted = 0;  ///< cycle the level below accepted the request
};

/// Sends `payload` through `below` at `cycle` of `clock`.
Sent send_below(tlm::tlm_fw_transport_if<>& below, tlm::tlm_generic_payload& payload,
                const CycleClock& clock, uint64_t cycle);

/// A cache module's energy events (coefficients from CacheConfig::energy) and its bytes.
struct CacheActivity {
  power::EnergyAccount::EventId tag_lookups = 0, data_reads = 0, data_writes = 0, mshr_accesses = 0;
  uint64_t bytes_served = 0;      ///< bytes of the requests answered (to the level above)
  uint64_t bytes_from_below = 0;  ///< fills and data of passed-on reads
  uint64_t bytes_to_below = 0;    ///< write-backs and passed-on writes

  /// Declares the events and the cache's leakage group.
  void declare(power::EnergyAccount& energy, const CacheConfig& config);
};

/// A cache module's parts, as serve() uses them.
struct CacheParts {
  CacheCore& core;
  const CycleClock& clock;
  MemTransaction& down;  ///< the module's transaction for fills and write-backs
  power::EnergyAccount& energy;
  CacheActivity& activity;
  MemLevel level;  ///< L1 or L2
};

/// Serves `request` (whose MemRequest is `ext`) at `cycle` through the cache and, for
/// misses, write-backs and writes it does not keep, the level below. Sets the payload's
/// response, ext.served_by and ext.accepted; returns the cycle the answer is ready (the
/// payload carries an error response from below, if any).
uint64_t serve(CacheParts& parts, tlm::tlm_fw_transport_if<>& below,
               tlm::tlm_generic_payload& payload, MemRequest& ext, const CacheRequest& request,
               uint64_t cycle);

/// Passes a request on without looking it up (atomics and bypassing loads at the L1).
uint64_t pass(CacheParts& parts, tlm::tlm_fw_transport_if<>& below,
              tlm::tlm_generic_payload& payload, MemRequest& ext, uint64_t cycle);

/// The bytes of the line a request reads or writes, relative to the line.
ByteMask line_bytes_of(const tlm::tlm_generic_payload& payload, const MemRequest& ext,
                       uint32_t line_bytes);

/// {"events", "dynamic_pj", "leakage_pj", counters..., "mshr_occupancy_mean", ...}
nlohmann::json cache_stats(power::EnergyAccount& energy, const CacheCore& core,
                           const CacheActivity& activity, uint64_t end_cycle);
/// {"storage_bits", "organisation", "latency_cycles", "energy"}
nlohmann::json cache_describe(const CacheConfig& config, const power::EnergyAccount& energy);

}  // namespace warpreg::memory

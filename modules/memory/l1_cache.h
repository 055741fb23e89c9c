#pragma once
// An SM's L1 data cache (or, with a read-only CacheConfig, its constant cache) as a TLM
// block. cpu_side takes the SM's load/store unit: one request per coalesced segment
// (Coalescer), blocking, with the cycle it is issued as annotated delay; the delay
// returned is when the data (loads) or the next level's acknowledgement (stores) is
// back, and MemRequest::accepted is when the cache took the request, from which the unit
// may issue its next one. mem_side goes to the interconnect (Interconnect::sm_side).
//
// Global and local loads are cached; a global store that hits evicts its line and goes
// on, a local store that hits stays in the line and is written back when the line is
// evicted; write misses go on without allocating (Fermi's L1D in GPGPU-Sim). Atomics and
// ld.cg loads (MemRequest::bypass_l1) pass through. Shared-space requests are an address
// error: shared memory is the SM's own.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/memory/cache_block.h"
#include "modules/memory/cache_core.h"
#include "power/energy.h"

namespace warpreg::memory {

class L1Cache : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::simple_target_socket<L1Cache> cpu_side;
  tlm_utils::simple_initiator_socket<L1Cache> mem_side;

  /// Throws ConfigError naming the field of `config` (as "l1d.FIELD").
  L1Cache(sc_core::sc_module_name name, const CacheConfig& config = CacheConfig::gtx480_l1d());

  CacheCore& core() { return core_; }
  const CacheCore& core() const { return core_; }
  const CycleClock& clock() const { return clock_; }

  std::string block_name() const override { return name(); }
  /// `end_cycle` in this cache's clock (cycle_not_before(clock(), end time)).
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  CacheCore core_;
  CycleClock clock_;
  RequestRules rules_;
  MemTransaction down_;
  power::EnergyAccount energy_;
  CacheActivity activity_;
};

}  // namespace warpreg::memory

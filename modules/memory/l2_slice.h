#pragma once
// One L2 slice (GPGPU-Sim memory sub-partition) as a TLM block: icnt_side takes requests
// the interconnect routed here, dram_side goes to the slice's DRAM channel
// (DramChannel::l2_side). A request first waits `latency` cycles (GPGPU-Sim's ROP queue,
// -rop_latency), then looks the cache up with its partition address (the address without
// channel and sub-partition bits, as l2_cache_config::set_index does). Write-back, write
// allocate without fetch; atomics are performed here. A request for another slice's
// addresses is an address error.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/memory/address_map.h"
#include "modules/memory/cache_block.h"
#include "modules/memory/cache_core.h"
#include "power/energy.h"

namespace warpreg::memory {

class L2Slice : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::simple_target_socket<L2Slice> icnt_side;
  tlm_utils::simple_initiator_socket<L2Slice> dram_side;

  /// Throws ConfigError naming the field ("l2.FIELD", "address_map.FIELD") or a slice
  /// index beyond the address map's slices.
  L2Slice(sc_core::sc_module_name name, uint32_t slice,
          const CacheConfig& config = CacheConfig::gtx480_l2_slice(),
          const AddressMapConfig& map = AddressMapConfig::gtx480());

  uint32_t slice() const { return slice_; }
  CacheCore& core() { return core_; }
  const CacheCore& core() const { return core_; }
  const AddressMap& address_map() const { return map_; }
  const CycleClock& clock() const { return clock_; }

  std::string block_name() const override { return name(); }
  /// `end_cycle` in this slice's clock.
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  uint32_t slice_;
  CacheCore core_;
  AddressMap map_;
  CycleClock clock_;
  RequestRules rules_;
  MemTransaction down_;
  power::EnergyAccount energy_;
  CacheActivity activity_;
  uint64_t misrouted_ = 0;
};

}  // namespace warpreg::memory

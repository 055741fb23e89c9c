#pragma once
// The SM <-> L2 interconnect as a TLM block. sm_side is bound once per SM (the N-th
// binding is SM port N, normally the SM's L1Cache::mem_side); l2_side binds once per L2
// slice in slice order (slice s to L2Slice s). A request is routed by its address
// (AddressMap::slice_of), crosses the request network (InterconnectCore), is served by the
// slice, and its answer crosses the reply network back to the SM's port. The delay
// returned is when the reply's tail reaches the SM; MemRequest::accepted when the request
// left the SM's port.
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/memory/address_map.h"
#include "modules/memory/interconnect_core.h"
#include "modules/memory/mem_request.h"
#include "power/energy.h"

namespace warpreg::memory {

class Interconnect : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> sm_side;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> l2_side;

  /// Throws ConfigError naming the field ("interconnect.FIELD", "address_map.FIELD"), or
  /// when interconnect.slice_ports differs from the address map's slices.
  Interconnect(sc_core::sc_module_name name, const InterconnectConfig& config = {},
               const AddressMapConfig& map = AddressMapConfig::gtx480());

  InterconnectCore& core() { return core_; }
  const InterconnectCore& core() const { return core_; }
  const CycleClock& clock() const { return clock_; }

  std::string block_name() const override { return name(); }
  /// `end_cycle` in the interconnect's clock.
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  void end_of_elaboration() override;

  InterconnectCore core_;
  AddressMap map_;
  CycleClock clock_;
  RequestRules rules_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId request_flits_ = 0, reply_flits_ = 0;
};

}  // namespace warpreg::memory

#pragma once
// One DRAM channel (memory partition) as a TLM block: l2_side is bound by the channel's
// L2 slices (GPGPU-Sim: -gpgpu_n_sub_partition_per_mchannel of them). The address map
// gives the bank and row; DramCore the timing. The delay returned is when the last data
// beat is on the bus (a read's data, a write's completion); MemRequest::accepted is when
// the controller took the request. A request for another channel's addresses is an
// address error.
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/memory/address_map.h"
#include "modules/memory/dram_core.h"
#include "modules/memory/mem_request.h"
#include "power/energy.h"

namespace warpreg::memory {

class DramChannel : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::multi_passthrough_target_socket<DramChannel> l2_side;

  /// Throws ConfigError naming the field ("dram.FIELD", "address_map.FIELD") or a channel
  /// index beyond the address map's channels.
  DramChannel(sc_core::sc_module_name name, uint32_t channel, const DramConfig& config = {},
              const AddressMapConfig& map = AddressMapConfig::gtx480());

  uint32_t channel() const { return channel_; }
  DramCore& core() { return core_; }
  const DramCore& core() const { return core_; }
  const CycleClock& clock() const { return clock_; }

  std::string block_name() const override { return name(); }
  /// `end_cycle` in the DRAM clock.
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  uint32_t channel_;
  DramCore core_;
  AddressMap map_;
  CycleClock clock_;
  RequestRules rules_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId activates_ = 0, precharges_ = 0, read_atoms_ = 0, write_atoms_ = 0;
};

}  // namespace warpreg::memory

#include "modules/ltrf/address_allocation_module.h"

namespace warpreg {

WARPREG_REGISTER_STATS(AddressAllocationStats);

AddressAllocationModule::AddressAllocationModule(sc_core::sc_module_name name,
                                                 const AddressAllocationConfig& config,
                                                 const CycleClock& clock)
    : sc_core::sc_module(name), core_(config), energy_(this->name(), clock.ns_per_cycle()) {}

uint64_t AddressAllocationModule::storage_bits() const {
  return core_.address_table_bits() + core_.offset_field_bits() + core_.queue_bits();
}

nlohmann::json AddressAllocationModule::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  const AddressAllocationCore::Counters& c = core_.counters();
  stats_.wcb_lookups.set(c.lookups);
  stats_.wcb_port_stalls.set(c.port_stalls);
  stats_.bank_allocations.set(c.bank_allocations);
  stats_.bank_releases.set(c.bank_releases);
  stats_.offset_allocations.set(c.offset_allocations);
  stats_.offset_releases.set(c.offset_releases);
  stats_.storage_bits.set(storage_bits());
  nlohmann::json j = energy_.to_json();
  stats_.write(j);
  return j;
}

nlohmann::json AddressAllocationModule::describe() const {
  const AddressAllocationConfig& k = core_.config();
  return {{"storage_bits",
           {{"address_tables", core_.address_table_bits()},
            {"warp_offset_fields", core_.offset_field_bits()},
            {"allocation_queues", core_.queue_bits()},
            {"total", storage_bits()}}},
          {"organisation",
           {{"warp_control_blocks", k.max_warps},
            {"address_table_entries", k.table_entries},
            {"bank_bits", bits_for(k.banks)},
            {"warp_offset_bits", bits_for(k.offsets)},
            {"per_warp_unit_slots", k.banks},
            {"global_unit_slots", k.offsets}}},
          {"ports",
           {{"interface", "AddressAllocationCore, bound at elaboration (the ltrf controller)"},
            {"address_table_read", k.read_ports}}},
          {"latency_cycles", {{"lookup", k.lookup_cycles}}},
          {"energy", energy_.describe()},
          {"energy_note",
           "not priced: the seed gives no energy for the WCB or the allocation queues "
           "(lookups and allocations are counted)"}};
}

}  // namespace warpreg

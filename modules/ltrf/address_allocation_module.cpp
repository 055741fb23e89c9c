#include "modules/ltrf/address_allocation_module.h"

#include "power/tech_scaling.h"

namespace warpreg {

WARPREG_REGISTER_STATS(AddressAllocationStats);

AddressAllocationModule::AddressAllocationModule(sc_core::sc_module_name name,
                                                 const AddressAllocationConfig& config,
                                                 const power::TechTable& tech,
                                                 const CycleClock& clock)
    : sc_core::sc_module(name), core_(config), energy_(this->name(), clock.ns_per_cycle()) {
  // A lookup reads one bank number from the WCBs' address tables: rule S3 (docs/power.md)
  // from the table's wcb_lookup to this unit's bits and table size.
  tech.value_for(this->name(), "wcb_lookup");
  const double entry_bytes = bits_for(config.banks) / 8.0;
  const double table_bytes = double(core_.address_table_bits()) / 8.0;
  lookups_ = energy_.add_event("wcb_lookups",
                               "address-table lookups (one bank number per cached operand read)",
                               power::sram_access_pj(tech, "wcb_lookup", entry_bytes, table_bytes));
}

uint64_t AddressAllocationModule::storage_bits() const {
  return core_.address_table_bits() + core_.offset_field_bits() + core_.queue_bits();
}

nlohmann::json AddressAllocationModule::stats(uint64_t end_cycle) {
  const AddressAllocationCore::Counters& c = core_.counters();
  if (!counted_) {
    counted_ = true;
    energy_.count(lookups_, c.lookups);
  }
  energy_.finish(end_cycle);
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
           "WCB lookups priced by rule S3 from wcb_lookup; the allocation queues are counted, "
           "not priced (no value to derive them from)"}};
}

}  // namespace warpreg

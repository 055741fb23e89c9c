#include "modules/ltrf/address_allocation_core.h"

#include <stdexcept>
#include <string>

namespace warpreg {

void AddressAllocationConfig::validate() const {
  if (banks == 0 || banks > 256) throw std::invalid_argument("banks must be 1..256");
  if (offsets == 0 || offsets > 255) throw std::invalid_argument("offsets must be 1..255");
  if (table_entries == 0 || table_entries > 256)
    throw std::invalid_argument("table_entries must be 1..256");
  if (read_ports == 0) throw std::invalid_argument("read_ports must be at least 1");
}

AddressAllocationCore::AddressAllocationCore(const AddressAllocationConfig& config)
    : config_(config),
      units_(config.max_warps, AddressAllocationUnit(config.banks)),
      offsets_(config.offsets),
      table_(size_t(config.max_warps) * config.table_entries, 0),
      offset_(config.max_warps, kNone) {
  config_.validate();
}

uint32_t AddressAllocationCore::allocate_offset(uint32_t warp) {
  const uint32_t slot = offsets_.allocate();
  offset_[warp] = slot;
  if (slot != kNone) ++counters_.offset_allocations;
  return slot;
}

void AddressAllocationCore::release_offset(uint32_t warp) {
  if (offset_[warp] == kNone)
    throw std::logic_error("address allocation: warp " + std::to_string(warp) +
                           " holds no warp-offset slot");
  offsets_.deallocate(offset_[warp]);
  offset_[warp] = kNone;
  ++counters_.offset_releases;
}

uint32_t AddressAllocationCore::allocate_bank(uint32_t warp, uint16_t reg) {
  const uint32_t bank = units_[warp].allocate();
  if (bank == kNone) return kNone;
  table_[size_t(warp) * config_.table_entries + reg] = static_cast<uint8_t>(bank);
  ++counters_.bank_allocations;
  return bank;
}

void AddressAllocationCore::release_bank(uint32_t warp, uint16_t reg) {
  units_[warp].deallocate(bank(warp, reg));
  ++counters_.bank_releases;
}

void AddressAllocationCore::reset(uint32_t warp) {
  units_[warp].reset();
  offset_[warp] = kNone;
}

uint32_t AddressAllocationCore::lookup(uint32_t operand) {
  ++counters_.lookups;
  const uint32_t port_wait = operand / config_.read_ports;
  if (port_wait) ++counters_.port_stalls;
  return config_.lookup_cycles + port_wait;
}

uint64_t AddressAllocationCore::address_table_bits() const {
  return uint64_t{config_.max_warps} * config_.table_entries * bits_for(config_.banks);
}

uint64_t AddressAllocationCore::offset_field_bits() const {
  return uint64_t{config_.max_warps} * bits_for(config_.offsets);
}

uint64_t AddressAllocationCore::queue_bits() const {
  return uint64_t{config_.max_warps} * AddressAllocationUnit(config_.banks).storage_bits() +
         offsets_.storage_bits();
}

}  // namespace warpreg

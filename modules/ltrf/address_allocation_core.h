#pragma once
// LTRF's address allocation (seed 004 §4.1-4.2, Figures 7 and 8) as plain C++: one
// AddressAllocationUnit per warp hands out register-file-cache banks, a global one hands
// out warp-offset slots to active warps, and each warp's warp control block keeps the
// register cache address table (the bank of every architected register it caches) and
// its warp-offset address. A cached register lives at (offset, bank): every cached
// register of a warp has the same offset in all banks. The operand collector's lookup of
// the table costs lookup_cycles, and an instruction with more operands than the table's
// read ports looks them up over several cycles (§4.1, §4.3).
#include <cstdint>
#include <vector>

#include "modules/ltrf/address_allocation.h"

namespace warpreg {

struct AddressAllocationConfig {
  uint32_t max_warps = 48;       ///< warp control blocks (hardware warp slots)
  uint32_t banks = 16;           ///< cache banks in each warp's unit (registers per interval, N)
  uint32_t offsets = 8;          ///< warp-offset slots in the global unit (active warps)
  uint32_t table_entries = 256;  ///< address-table entries per warp (max registers per thread)
  uint32_t lookup_cycles = 1;    ///< extra cycles of a lookup
  uint32_t read_ports = 2;       ///< lookups per cycle of one instruction
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

class AddressAllocationCore {
 public:
  static constexpr uint32_t kNone = AddressAllocationUnit::kNone;

  explicit AddressAllocationCore(const AddressAllocationConfig& config);
  const AddressAllocationConfig& config() const { return config_; }

  // ------------------------------------------------------------ warp-offset slots
  /// The head of the global unit's unused queue becomes `warp`'s offset; kNone when
  /// every slot is taken.
  uint32_t allocate_offset(uint32_t warp);
  /// `warp`'s slot back to the global unit. Throws std::logic_error when it has none.
  void release_offset(uint32_t warp);
  uint32_t offset(uint32_t warp) const { return offset_[warp]; }
  uint32_t free_offsets() const { return offsets_.free_slots(); }
  uint32_t taken_offsets() const { return offsets_.occupied_slots(); }

  // ------------------------------------------------------------ banks and address table
  /// The head of `warp`'s unused queue becomes the bank of `reg` in its address table;
  /// kNone when the warp's unit has no free bank.
  uint32_t allocate_bank(uint32_t warp, uint16_t reg);
  /// The bank of `reg` back to `warp`'s unit (its address-table entry is left stale, as
  /// the hardware's: the valid bits say what is cached).
  void release_bank(uint32_t warp, uint16_t reg);
  /// The address table: the bank `reg` was given.
  uint32_t bank(uint32_t warp, uint16_t reg) const {
    return table_[size_t(warp) * config_.table_entries + reg];
  }
  /// `warp`'s oldest allocated bank (a FIFO victim); kNone when it has none.
  uint32_t oldest_bank(uint32_t warp) const { return units_[warp].oldest_occupied(); }
  /// A new warp takes the slot: its unit back to all banks unused, in order.
  void reset(uint32_t warp);

  /// A collector looks up the location of its source operand number `operand`: the
  /// cycles until it knows it (lookup_cycles, plus one per read-port round before it).
  uint32_t lookup(uint32_t operand);

  const AddressAllocationUnit& bank_unit(uint32_t warp) const { return units_[warp]; }
  const AddressAllocationUnit& offset_unit() const { return offsets_; }

  // ------------------------------------------------------------ storage (bits)
  /// max_warps x table_entries x ceil(log2 banks): the register cache address tables.
  uint64_t address_table_bits() const;
  /// max_warps x ceil(log2 offsets): the warp-offset address of every WCB.
  uint64_t offset_field_bits() const;
  /// The per-warp units and the global unit (two queues each).
  uint64_t queue_bits() const;

  struct Counters {
    uint64_t lookups = 0;      ///< address-table lookups (one per cached operand read)
    uint64_t port_stalls = 0;  ///< lookups that waited for a read port
    uint64_t bank_allocations = 0, bank_releases = 0;
    uint64_t offset_allocations = 0, offset_releases = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  AddressAllocationConfig config_;
  std::vector<AddressAllocationUnit> units_;  ///< per warp: its cache banks
  AddressAllocationUnit offsets_;             ///< global: warp-offset slots
  std::vector<uint8_t> table_;                ///< [warp][register]: bank
  std::vector<uint32_t> offset_;              ///< per warp: its offset or kNone
  Counters counters_;
};

}  // namespace warpreg

#pragma once
// RFV register renaming (seed 000 §7.1): per (warp, architected register) the physical
// warp register holding its live value, allocated at the first write and released
// after the read the compiler flagged (pir) or at a reconvergence point (pbr).
// Plain C++, no SystemC.
//
// The model, and how it maps onto the paper:
//  - Physical warp register p lives in register-file bank p mod B at entry p div B
//    (the regfile's "interleaved" mapping), so a bank's entries fill from the bottom.
//  - Exempt registers are never renamed. The paper's compiler renumbers them to the
//    lowest N ids and maps warp w's exempt register r to physical N*w + r. Here the
//    kernel keeps its numbering and the exempt set is given as a register set; its
//    registers take compact slots 0..N-1 in the kernel's order, which is the same
//    placement as the renumbered kernel. Physical registers [0, N*max_warps) are the
//    exempt area; the rest is the renaming pool.
//  - A renamed register is allocated in the bank the compiler assigned it without
//    renaming, (r + w) mod B (GPGPU-Sim's mapping), from a per-bank availability
//    vector, lowest free entry first: sub-arrays (ranges of entries) fill in order, so
//    an idle sub-array stays empty and can be power-gated (§8.2).
//  - The table itself has `table_banks` banks, entry (w, r) in bank r mod banks;
//    lookups of one instruction in the same bank serialise.
#include <cstdint>
#include <vector>

#include "common/inst.h"
#include "modules/interfaces/rf_access_kind.h"

namespace warpreg {

struct RenamingConfig {
  uint32_t max_warps = 48;             ///< warp slots of the SM
  uint32_t max_regs_per_thread = 63;   ///< architected registers the table can name
  uint32_t physical_registers = 1024;  ///< warp registers in the register file
  uint32_t rf_banks = 4;
  uint32_t table_banks = 4;
  uint32_t subarray_entries = 32;  ///< bank entries per sub-array (power-gating unit)
  /// Throws std::invalid_argument naming the field.
  void validate() const;
  uint32_t entries_per_bank() const { return physical_registers / rf_banks; }
  uint32_t subarrays_per_bank() const {
    return (entries_per_bank() + subarray_entries - 1) / subarray_entries;
  }
  /// log2 of the physical register count, rounded up: bits of one table entry.
  uint32_t entry_bits() const;
  /// The full table (every warp x every register): the paper's 48 x 63 x 10 bits.
  uint64_t full_table_bits() const {
    return uint64_t{max_warps} * max_regs_per_thread * entry_bits();
  }
};

class RenamingTable {
 public:
  explicit RenamingTable(const RenamingConfig& config);
  const RenamingConfig& config() const { return config_; }

  /// Kernel launch: `regs_per_thread` architected registers, of which those in
  /// `exempt` (bit r = Rr) are mapped directly. Clears every mapping. Throws
  /// std::invalid_argument if the exempt area does not fit in the register file.
  void start_kernel(uint32_t regs_per_thread, const std::vector<bool>& exempt);

  uint32_t exempt_count() const { return exempt_count_; }
  bool is_exempt(uint16_t reg) const { return exempt_slot_[reg] >= 0; }
  /// Registers a warp can hold in the table at once (renamed registers per thread).
  uint32_t renamed_per_warp() const { return regs_per_thread_ - exempt_count_; }

  /// The physical register of (warp, reg), kNoPhysical if a renamed register has no
  /// mapping. Exempt registers always have one.
  uint32_t lookup(uint16_t warp, uint16_t reg) const;
  /// The mapping for a write: the current one, or a new register in the compiler's
  /// bank. kNoPhysical when that bank has no free register (the caller stalls,
  /// throttles or spills); nothing changes then.
  uint32_t map_for_write(uint16_t warp, uint16_t reg);
  /// Frees (warp, reg)'s physical register; no effect on exempt or unmapped registers.
  /// Returns true if a register was freed.
  bool release(uint16_t warp, uint16_t reg);
  /// Frees every renamed register of the warp (warp exit). Returns how many.
  uint32_t release_warp(uint16_t warp);

  /// Cycles to look up `count` registers in the table's banks (1 + serialisations).
  uint32_t lookup_cycles(const uint16_t* regs, unsigned count) const;

  /// Bank the compiler assigned (warp, reg): (reg + warp) mod B.
  uint32_t compiler_bank(uint16_t warp, uint16_t reg) const {
    return (uint32_t{reg} + warp) % config_.rf_banks;
  }
  static uint32_t bank_of_physical(uint32_t phys, uint32_t banks) { return phys % banks; }
  uint32_t free_registers() const { return free_total_; }
  uint32_t free_in_bank(uint32_t bank) const { return free_per_bank_[bank]; }
  /// Renamed registers currently mapped.
  uint32_t mapped_registers() const { return mapped_; }
  /// Allocated entries (exempt area of resident warps counted as allocated) in
  /// sub-array s of bank b: 0 means the sub-array can be gated.
  uint32_t subarray_occupancy(uint32_t bank, uint32_t subarray) const {
    return subarray_used_[bank * config_.subarrays_per_bank() + subarray];
  }
  /// The sub-array holding physical register p.
  uint32_t subarray_of(uint32_t phys) const {
    return (phys / config_.rf_banks) / config_.subarray_entries;
  }
  /// Physical register p's (bank, sub-array) as one index, bank * subarrays_per_bank() +
  /// subarray_of(p): a look-up, since the operand path asks per access.
  uint32_t subarray_slot(uint32_t phys) const { return subarray_slot_[phys]; }
  /// subarray_occupancy of the sub-array with index `slot` (subarray_slot).
  uint32_t subarray_occupancy_at(uint32_t slot) const { return subarray_used_[slot]; }

  struct Counters {
    uint64_t allocations = 0;
    uint64_t releases = 0;
    uint64_t allocation_failures = 0;
    uint64_t lookups = 0;
    uint64_t max_mapped = 0;  ///< most renamed registers mapped at once
  };
  const Counters& counters() const { return counters_; }
  /// Lookups are counted by the caller (one per operand looked up).
  void count_lookups(uint64_t n) { counters_.lookups += n; }

 private:
  uint32_t slot(uint16_t warp, uint16_t reg) const {
    return uint32_t{warp} * config_.max_regs_per_thread + reg;
  }
  void mark(uint32_t phys, bool used);

  RenamingConfig config_;
  uint32_t regs_per_thread_ = 0;
  uint32_t exempt_count_ = 0;
  uint32_t pool_start_ = 0;           ///< first physical register of the renaming pool
  std::vector<int16_t> exempt_slot_;  ///< per architected register: 0..N-1, or -1
  std::vector<uint32_t> map_;         ///< per (warp, reg): physical or kNoPhysical
  std::vector<uint64_t> free_bits_;   ///< per bank: availability vector, bit e = entry e free
  std::vector<uint32_t> free_per_bank_;
  std::vector<uint32_t> subarray_used_;  ///< per (bank, sub-array): allocated entries
  std::vector<uint32_t> subarray_slot_;  ///< per physical register: its (bank, sub-array)
  uint32_t words_per_bank_ = 0;
  uint32_t free_total_ = 0;
  uint32_t mapped_ = 0;
  Counters counters_;
};

}  // namespace warpreg

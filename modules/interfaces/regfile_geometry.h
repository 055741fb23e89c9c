#pragma once
// The register file's organisation as every block on the operand path sees it: banks,
// lane slices, entries, the bank mapping and the banks' latencies. The platform builds
// it once from rf.* and hands it to the blocks, so that no block reads rf.* or
// re-implements the mapping.
#include <cstdint>

#include "common/warp_register.h"

namespace warpreg {

enum class BankMapping : uint8_t {
  Gpgpusim,     ///< bank = (arch_reg + warp_slot) mod B (GPGPU-Sim 3.x register_bank())
  Interleaved,  ///< bank = physical register mod B
};

struct RegFileGeometry {
  uint32_t banks = 16;
  uint32_t lane_slices = 1;  ///< a warp register's 32 lanes split over this many slices
  uint32_t entries_per_bank = 64;
  BankMapping mapping = BankMapping::Gpgpusim;
  /// Cycles from a bank's grant to the data at the collector (read) or to the value
  /// being readable (write): a block after which the banks answer dates their service
  /// from the completion (TRIC's content check).
  uint32_t read_latency = 1;
  uint32_t write_latency = 1;
  /// A bank's port takes a new access every cycle (true) or only once the previous one
  /// has completed its latency (false: LTRF's main register file, seed 004).
  bool pipelined = true;

  uint32_t physical_registers() const { return banks * entries_per_bank; }
  uint32_t slice_bytes() const { return kWarpRegisterBytes / lane_slices; }
  uint32_t lanes_per_slice() const { return kWarpSize / lane_slices; }
  uint64_t storage_bits() const { return uint64_t(physical_registers()) * kWarpRegisterBytes * 8; }
  /// The bank holding physical register `phys_reg`, named (warp_slot, arch_reg) by the program.
  uint32_t bank_of(uint32_t phys_reg, uint16_t warp_slot, uint16_t arch_reg) const {
    return mapping == BankMapping::Gpgpusim ? (uint32_t(arch_reg) + warp_slot) % banks
                                            : phys_reg % banks;
  }
};

}  // namespace warpreg

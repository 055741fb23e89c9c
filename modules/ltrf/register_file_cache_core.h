#pragma once
// LTRF's register-file cache (seed 004 §4.1, Figure 5) as plain C++: `banks` banks of
// `entries_per_bank` warp registers (16 x 8 x 128 B = 16 KB), bit-exact contents with a
// valid-lane mask and a dirty bit per entry, one read and one write port per bank (its
// arbiter), and one link per bank on the narrow crossbar from the main register file
// (§4.2: 4x narrower, a register occupies its link fill_cycles). Entry (offset, bank) is
// index offset x banks + bank. Every method takes the cycle it is asked at and returns
// the cycle it is done.
#include <cstdint>
#include <vector>

#include "common/warp_register.h"

namespace warpreg {

struct RegisterFileCacheConfig {
  uint32_t banks = 16;            ///< = registers a warp may cache (N)
  uint32_t entries_per_bank = 8;  ///< = active warps
  uint32_t latency = 1;           ///< cycles of a bank access
  uint32_t fill_cycles = 4;       ///< cycles a register occupies its bank's crossbar link
  uint32_t entries() const { return banks * entries_per_bank; }
  /// Throws std::invalid_argument naming the field.
  void validate() const;
};

struct CacheEntry {
  WarpRegister value;
  LaneMask valid_lanes = 0;  ///< lanes the entry holds (fetched or written)
  bool dirty = false;        ///< written since it was fetched
  uint16_t reg = 0;          ///< the architected register it holds
  uint16_t warp = 0;         ///< and its warp slot

  /// As a new CacheEntry{} holding `for_reg` of `of_warp`, without a memset.
  void reset(uint16_t for_reg = 0, uint16_t of_warp = 0) {
    value.clear();
    valid_lanes = 0;
    dirty = false;
    reg = for_reg;
    warp = of_warp;
  }
};

class RegisterFileCacheCore {
 public:
  explicit RegisterFileCacheCore(const RegisterFileCacheConfig& config);
  const RegisterFileCacheConfig& config() const { return config_; }

  uint32_t index(uint32_t offset, uint32_t bank) const { return offset * config_.banks + bank; }
  uint32_t bank_of(uint32_t index) const { return index % config_.banks; }
  CacheEntry& entry(uint32_t index) { return entries_[index]; }
  const CacheEntry& entry(uint32_t index) const { return entries_[index]; }

  /// A read through `bank`'s read port at `cycle` or its first free cycle after; returns
  /// the cycle the operand is out.
  uint64_t read(uint32_t bank, uint64_t cycle);
  /// A write through `bank`'s write port; returns the cycle the value is readable.
  uint64_t write(uint32_t bank, uint64_t cycle);
  /// A register crossing `bank`'s link of the narrow crossbar, from `cycle` or when the
  /// link is free; returns the cycle it has arrived.
  uint64_t transfer(uint32_t bank, uint64_t cycle);

  uint64_t storage_bits() const { return uint64_t{config_.entries()} * kWarpRegisterBytes * 8; }

  struct Counters {
    uint64_t reads = 0, writes = 0;  ///< operand reads and result writes of the banks
    uint64_t transfers = 0;          ///< registers moved over the narrow crossbar
  };
  const Counters& counters() const { return counters_; }

 private:
  RegisterFileCacheConfig config_;
  std::vector<CacheEntry> entries_;
  std::vector<uint64_t> read_free_, write_free_, link_free_;  ///< per bank
  Counters counters_;
};

}  // namespace warpreg

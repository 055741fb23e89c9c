#pragma once
// Where an address lives: memory channel (partition), L2 slice (sub-partition), DRAM
// bank, row and column. GPGPU-Sim's linear_to_raw_address_translation (addrdec.cc) for
// a -gpgpu_mem_addr_mapping string; with a channel count that is not a power of two
// (GTX480: 6) the channel is (address >> dramid) mod channels and the bits above are
// divided by the channel count before the bank, row and column bits are read.
#include <cstdint>
#include <string>
#include <string_view>

namespace warpreg::memory {

struct AddressMapConfig {
  uint32_t channels = 6;                    ///< -gpgpu_n_mem 6
  uint32_t sub_partitions_per_channel = 2;  ///< -gpgpu_n_sub_partition_per_mchannel 2
  /// -gpgpu_mem_addr_mapping: "dramid@S;" (channel bits inserted at bit S) then 64
  /// characters from bit 63 down: R row, B bank, C column, S burst (also column), 0
  /// unused, D channel (only without dramid@); '.', ' ' and '|' are separators.
  std::string mapping =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";

  uint32_t slices() const { return channels * sub_partitions_per_channel; }
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;
  /// The defaults (GTX480), for default arguments.
  static const AddressMapConfig& gtx480();
};

struct DecodedAddress {
  uint32_t channel = 0;
  uint32_t slice = 0;  ///< channel x sub_partitions + low bank bit(s)
  uint32_t bank = 0;
  uint32_t row = 0;
  uint32_t column = 0;
};

class AddressMap {
 public:
  explicit AddressMap(const AddressMapConfig& config, std::string_view name = "address_map");

  const AddressMapConfig& config() const { return config_; }
  DecodedAddress decode(uint64_t address) const;
  uint32_t slice_of(uint64_t address) const { return decode(address).slice; }
  /// The address without its channel and sub-partition bits (GPGPU-Sim's
  /// partition_address): what an L2 slice indexes its sets with.
  uint64_t partition_address(uint64_t address) const;
  uint32_t banks() const { return 1u << __builtin_popcountll(bank_mask_); }

 private:
  /// The bits of `value` selected by `mask`, packed from bit 0 up (addrdec_packbits).
  static uint64_t pack(uint64_t mask, uint64_t value);
  /// Address with the channel removed, as the bank/row/column masks read it.
  uint64_t in_channel(uint64_t address, uint32_t& channel) const;

  AddressMapConfig config_;
  int chip_start_ = -1;  ///< dramid@ bit, or -1 with explicit D bits
  bool gap_ = false;     ///< channel count not a power of two
  uint64_t chip_mask_ = 0, bank_mask_ = 0, row_mask_ = 0, column_mask_ = 0;
  uint64_t sub_partition_mask_ = 0;
};

}  // namespace warpreg::memory

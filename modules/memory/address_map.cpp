#include "modules/memory/address_map.h"

#include <cctype>
#include <cstdio>

#include "common/errors.h"

namespace warpreg::memory {

namespace {

bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

uint32_t floor_log2(uint32_t v) {
  return v == 0 ? 0 : 31u - static_cast<uint32_t>(__builtin_clz(v));
}

struct ParsedMapping {
  int chip_start = -1;
  uint64_t chip = 0, bank = 0, row = 0, column = 0;
};

// addrdec_parseoption: "dramid@S;" then one character per bit from bit 63 down.
ParsedMapping parse(const std::string& text, const std::string& field) {
  ParsedMapping m;
  std::string_view bits = text;
  if (bits.rfind("dramid@", 0) == 0) {
    const size_t semicolon = bits.find(';');
    if (semicolon == std::string_view::npos)
      throw ConfigError(field + ": 'dramid@S' must be followed by ';' and the bit map");
    int start = -1;
    if (std::sscanf(text.c_str(), "dramid@%d", &start) != 1 || start < 0 || start > 40)
      throw ConfigError(field + ": 'dramid@S' needs a bit position S from 0 to 40");
    m.chip_start = start;
    bits = bits.substr(semicolon + 1);
  }
  int bit = 63;
  for (const char ch : bits) {
    if (ch == '.' || ch == ' ' || ch == '|') continue;
    if (bit < 0) throw ConfigError(field + ": more than 64 bit characters");
    const uint64_t b = 1ull << bit;
    switch (std::toupper(static_cast<unsigned char>(ch))) {
      case 'D':
        if (m.chip_start >= 0)
          throw ConfigError(field + ": 'D' bits and 'dramid@' cannot be combined");
        m.chip |= b;
        break;
      case 'B':
        m.bank |= b;
        break;
      case 'R':
        m.row |= b;
        break;
      case 'C':
      case 'S':
        m.column |= b;
        break;
      case '0':
        break;
      default:
        throw ConfigError(field + ": invalid character '" + std::string(1, ch) +
                          "' (expected D, B, R, C, S, 0 or separators)");
    }
    --bit;
  }
  if (bit != -1)
    throw ConfigError(field + ": " + std::to_string(63 - bit) +
                      " bit characters, expected 64 (one per address bit)");
  return m;
}

}  // namespace

const AddressMapConfig& AddressMapConfig::gtx480() {
  static const AddressMapConfig config;
  return config;
}

void AddressMapConfig::validate(std::string_view name) const {
  const std::string n(name);
  if (channels == 0 || channels > 64)
    throw ConfigError(n + ".channels must be 1 to 64 (got " + std::to_string(channels) + ")");
  if (!power_of_two(sub_partitions_per_channel) || sub_partitions_per_channel > 8)
    throw ConfigError(n + ".sub_partitions_per_channel must be 1, 2, 4 or 8 (got " +
                      std::to_string(sub_partitions_per_channel) + ")");
  const ParsedMapping m = parse(mapping, n + ".mapping");
  if (m.chip_start < 0) {
    if (!power_of_two(channels))
      throw ConfigError(n + ".mapping: explicit 'D' channel bits need a power-of-two " + n +
                        ".channels (got " + std::to_string(channels) + "); use dramid@S");
    if ((1ull << __builtin_popcountll(m.chip)) != channels)
      throw ConfigError(n + ".mapping has " + std::to_string(__builtin_popcountll(m.chip)) +
                        " 'D' bits for " + std::to_string(channels) + " channels");
  }
  if ((1ull << __builtin_popcountll(m.bank)) < sub_partitions_per_channel)
    throw ConfigError(n + ".mapping has too few bank bits to select among " +
                      std::to_string(sub_partitions_per_channel) + " sub-partitions");
  if (m.row == 0 || m.column == 0)
    throw ConfigError(n + ".mapping needs row (R) and column (C or S) bits");
}

AddressMap::AddressMap(const AddressMapConfig& config, std::string_view name) : config_(config) {
  config_.validate(name);
  const ParsedMapping m = parse(config_.mapping, std::string(name) + ".mapping");
  chip_start_ = m.chip_start;
  chip_mask_ = m.chip;
  bank_mask_ = m.bank;
  row_mask_ = m.row;
  column_mask_ = m.column;
  uint32_t chip_bits = floor_log2(config_.channels);
  gap_ = config_.channels != (1u << chip_bits);
  if (gap_) ++chip_bits;
  if (chip_start_ >= 0 && !gap_) {
    // A power-of-two channel count: the channel bits are inserted at dramid, the bank,
    // row and column bits above it move up (linear_to_raw_address_translation::init).
    const uint64_t low = (1ull << chip_start_) - 1;
    const auto shift_up = [&](uint64_t mask) {
      return ((mask & ~low) << chip_bits) | (mask & low);
    };
    bank_mask_ = shift_up(bank_mask_);
    row_mask_ = shift_up(row_mask_);
    column_mask_ = shift_up(column_mask_);
    for (uint32_t i = 0; i < chip_bits; ++i) chip_mask_ |= 1ull << (chip_start_ + i);
  }
  // The sub-partition is selected by the lowest bank bit(s).
  uint64_t bank_bits = bank_mask_;
  for (uint32_t picked = 1; picked < config_.sub_partitions_per_channel; picked <<= 1) {
    const uint64_t lowest = bank_bits & (~bank_bits + 1);
    sub_partition_mask_ |= lowest;
    bank_bits &= ~lowest;
  }
}

uint64_t AddressMap::pack(uint64_t mask, uint64_t value) {
  uint64_t result = 0;
  for (uint32_t pos = 0; mask != 0; ++pos) {
    const uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(mask));
    result |= ((value >> bit) & 1ull) << pos;
    mask &= mask - 1;
  }
  return result;
}

uint64_t AddressMap::in_channel(uint64_t address, uint32_t& channel) const {
  if (!gap_) {
    channel = static_cast<uint32_t>(pack(chip_mask_, address));
    return address;
  }
  const uint64_t above = address >> chip_start_;
  channel = static_cast<uint32_t>(above % config_.channels);
  return ((above / config_.channels) << chip_start_) | (address & ((1ull << chip_start_) - 1));
}

DecodedAddress AddressMap::decode(uint64_t address) const {
  DecodedAddress d;
  const uint64_t rest = in_channel(address, d.channel);
  d.bank = static_cast<uint32_t>(pack(bank_mask_, rest));
  d.row = static_cast<uint32_t>(pack(row_mask_, rest));
  d.column = static_cast<uint32_t>(pack(column_mask_, rest));
  d.slice = d.channel * config_.sub_partitions_per_channel +
            (d.bank & (config_.sub_partitions_per_channel - 1));
  return d;
}

uint64_t AddressMap::partition_address(uint64_t address) const {
  if (!gap_) return pack(~(chip_mask_ | sub_partition_mask_), address);
  uint32_t channel = 0;
  return pack(~sub_partition_mask_, in_channel(address, channel));
}

}  // namespace warpreg::memory

#include "modules/regfile/regfile_core.h"

#include <stdexcept>

namespace warpreg {

void RegFileConfig::validate() const {
  if (banks == 0) throw std::invalid_argument("rf.banks must be at least 1");
  if (lane_slices == 0 || kWarpSize % lane_slices != 0)
    throw std::invalid_argument("rf.lane_slices must divide 32 (got " +
                                std::to_string(lane_slices) + ")");
  if (entries_per_bank == 0) throw std::invalid_argument("register file has no entries per bank");
  if (read_latency == 0 || write_latency == 0)
    throw std::invalid_argument("rf.read_latency and rf.write_latency must be at least 1 cycle");
}

RegFileCore::RegFileCore(const RegFileConfig& config) : config_(config) {
  config_.validate();
  data_.resize(config_.physical_registers());
  read_free_.assign(size_t(config_.banks) * config_.lane_slices, 0);
  write_free_.assign(size_t(config_.banks) * config_.lane_slices, 0);
  bank_accesses_.assign(config_.banks, 0);
  const uint32_t lanes = config_.lanes_per_slice();
  for (uint32_t s = 0; s < config_.lane_slices; ++s)
    slice_lane_masks_[s] = (lanes == 32 ? kFullMask : ((1u << lanes) - 1u)) << (s * lanes);
}

uint32_t RegFileCore::slice_mask(LaneMask mask) const {
  if (config_.lane_slices == 1) return mask ? 1u : 0u;
  uint32_t slices = 0;
  for (uint32_t s = 0; s < config_.lane_slices; ++s)
    if (mask & slice_lane_masks_[s]) slices |= 1u << s;
  return slices;
}

uint64_t RegFileCore::reserve(std::vector<uint64_t>& next_free, uint32_t bank, uint32_t slices,
                              uint64_t cycle, uint32_t latency) {
  uint64_t* port = &next_free[size_t(bank) * config_.lane_slices];
  uint64_t grant = cycle;
  for (uint32_t s = 0; s < config_.lane_slices; ++s)
    if ((slices >> s) & 1u && port[s] > grant) grant = port[s];
  const uint64_t busy = config_.pipelined ? 1 : latency;
  for (uint32_t s = 0; s < config_.lane_slices; ++s)
    if ((slices >> s) & 1u) port[s] = grant + busy;
  return grant;
}

BankGrant RegFileCore::read(uint32_t phys_reg, uint32_t bank, uint64_t cycle, WarpRegister& out,
                            LaneMask lanes) {
  const uint32_t slices = slice_mask(lanes);
  BankGrant g;
  g.bank = bank;
  g.slices = static_cast<uint32_t>(__builtin_popcount(slices));
  g.grant_cycle = reserve(read_free_, bank, slices, cycle, config_.read_latency);
  g.ready_cycle = g.grant_cycle + config_.read_latency;
  LaneMask read_mask = 0;
  for (uint32_t s = 0; s < config_.lane_slices; ++s)
    if (slices & (1u << s)) read_mask |= slice_lane_masks_[s];
  out.merge(data_[phys_reg], read_mask);
  ++counters_.reads;
  counters_.slice_reads += g.slices;
  ++bank_accesses_[bank];
  if (g.grant_cycle != cycle) {
    ++counters_.conflicted_reads;
    counters_.conflict_cycles += g.grant_cycle - cycle;
  }
  return g;
}

BankGrant RegFileCore::write(uint32_t phys_reg, uint32_t bank, uint64_t cycle,
                             const WarpRegister& value, LaneMask mask) {
  const uint32_t slices = slice_mask(mask);
  BankGrant g;
  g.bank = bank;
  g.slices = static_cast<uint32_t>(__builtin_popcount(slices));
  g.grant_cycle = reserve(write_free_, bank, slices, cycle, config_.write_latency);
  g.ready_cycle = g.grant_cycle + config_.write_latency;
  data_[phys_reg].merge(value, mask);
  ++counters_.writes;
  counters_.slice_writes += g.slices;
  ++bank_accesses_[bank];
  if (g.grant_cycle != cycle) ++counters_.conflicted_writes;
  return g;
}

}  // namespace warpreg

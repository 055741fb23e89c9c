#include "modules/regfile/regfile_core.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

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
  slices_ = LaneSlices(config_.lane_slices);
  data_.resize(config_.physical_registers());
  for (Ports* ports : {&read_ports_, &write_ports_}) {
    ports->bank_max.assign(config_.banks, 0);
    ports->bank_floor.assign(config_.banks, 0);
    ports->groups.assign(size_t(config_.banks) * config_.lane_slices, Group{});
    ports->group_count.assign(config_.banks, 0);
  }
  bank_accesses_.assign(config_.banks, 0);
}

uint64_t RegFileCore::reserve(Ports& ports, uint32_t bank, uint32_t slices, uint64_t cycle,
                              uint32_t latency) {
  uint64_t& bank_max = ports.bank_max[bank];
  uint64_t& bank_floor = ports.bank_floor[bank];
  const uint64_t busy = config_.pipelined ? 1 : latency;
  // Most accesses are whole warps: every slice, whose latest port is the bank's. The
  // slices' new time is kept once, as the bank's floor, instead of in each slice.
  if (slices == slices_.all()) {
    const uint64_t grant = std::max(cycle, bank_max);
    bank_floor = bank_max = grant + busy;
    return grant;
  }
  if (slices == 0) return cycle;  // no lane active: no port taken
  return reserve_slices(ports, bank, slices, cycle, busy);
}

uint64_t RegFileCore::reserve_slices(Ports& ports, uint32_t bank, uint32_t slices, uint64_t cycle,
                                     uint64_t busy) {
  uint64_t& bank_max = ports.bank_max[bank];
  const uint64_t bank_floor = ports.bank_floor[bank];
  Group* const groups = &ports.groups[size_t(bank) * config_.lane_slices];
  const uint32_t count = ports.group_count[bank];
  // Without a branch per group (the masks and cycles vary from access to access): a group
  // sharing no slice with `slices` counts as free at 0, and each group is copied to the
  // place of the next kept one, which advances when the group is kept (its rest of slices
  // is not empty and busy past the floor).
  uint64_t grant = std::max(cycle, bank_floor);
  for (uint32_t k = 0; k < count; ++k) {
    const uint64_t free = (groups[k].slices & slices) != 0 ? groups[k].free : 0;
    grant = std::max(grant, free);
  }
  const uint64_t free = grant + busy;
  uint32_t kept = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const Group g{groups[k].slices & ~slices, groups[k].free};
    groups[kept] = g;
    kept += (g.slices != 0) & (g.free > bank_floor);
  }
  groups[kept++] = {slices, free};
  ports.group_count[bank] = static_cast<uint8_t>(kept);
  bank_max = std::max(bank_max, free);
  return grant;
}

BankGrant RegFileCore::read(uint32_t phys_reg, uint32_t bank, uint64_t cycle, WarpRegister& out,
                            LaneMask lanes) {
  const uint32_t slices = slice_mask(lanes);
  BankGrant g;
  g.bank = bank;
  g.slices = static_cast<uint32_t>(popcount32(slices));
  g.grant_cycle = reserve(read_ports_, bank, slices, cycle, config_.read_latency);
  g.ready_cycle = g.grant_cycle + config_.read_latency;
  out.merge(data_[phys_reg], slices_.lanes_of(slices));
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
  g.slices = static_cast<uint32_t>(popcount32(slices));
  g.grant_cycle = reserve(write_ports_, bank, slices, cycle, config_.write_latency);
  g.ready_cycle = g.grant_cycle + config_.write_latency;
  data_[phys_reg].merge(value, mask);
  ++counters_.writes;
  counters_.slice_writes += g.slices;
  ++bank_accesses_[bank];
  if (g.grant_cycle != cycle) ++counters_.conflicted_writes;
  return g;
}

}  // namespace warpreg

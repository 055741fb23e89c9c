#include "designs/ltrf/ltrf_program.h"

namespace warpreg {

namespace {
const RegisterSet kNoRegisters;
}  // namespace

LtrfProgram::LtrfProgram(std::vector<RegisterSet> interval_sets,
                         const std::vector<std::pair<uint64_t, uint32_t>>& pc_intervals)
    : sets_(std::move(interval_sets)) {
  for (const auto& [pc, interval] : pc_intervals) {
    index_of_pc_[pc] = static_cast<uint32_t>(interval_.size());
    interval_.push_back(interval);
    dead_.emplace_back();
    header_.push_back(false);
  }
  index_of_pc_.seal();
}

uint32_t LtrfProgram::interval_at(uint32_t index) const {
  return index == PcIndex::kNone ? kNoInterval : interval_[index];
}

bool LtrfProgram::starts_unit_at(uint32_t index) const {
  return index != PcIndex::kNone && header_[index];
}

const RegisterSet& LtrfProgram::dead_at(uint32_t index) const {
  return index == PcIndex::kNone ? kNoRegisters : dead_[index];
}

}  // namespace warpreg

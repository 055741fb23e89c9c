#include "designs/ltrf/ltrf_program.h"

namespace warpreg {

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

}  // namespace warpreg

#pragma once
// LTRF register-interval formation (Sadrosadati et al., ASPLOS'18, §3.3, Algorithms 1
// and 2): partitions a kernel's CFG into single-entry subgraphs whose register working
// set fits the per-warp register-cache partition of N registers, so one PREFETCH at the
// start of each interval serves every access inside it. Plain C++; the rules as
// implemented, and where they depart from the paper and the authors' code, are in
// docs/pass-register-intervals.md.
#include <cstdint>
#include <vector>

#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// Instructions [begin, end) of one basic block: a whole block, or the part of a block
/// that Algorithm 1 split because the interval's working set would exceed N.
struct IntervalPiece {
  uint32_t block = 0;
  uint32_t begin = 0;
  uint32_t end = 0;  ///< exclusive
};

struct RegisterInterval {
  uint32_t id = 0;
  /// The pieces of the interval in formation order; pieces.front() begins with the
  /// interval's single entry instruction (its header).
  std::vector<IntervalPiece> pieces;
  RegisterSet working_set;  ///< every register accessed in the interval, |.| <= N
  /// LTRF's PREFETCH bit-vector: the whole working set is loaded at the header.
  RegisterSet prefetch;
  /// LTRF+: the working-set registers live just before the header; the others get a
  /// cache slot but no main-register-file read (their first access is a write).
  RegisterSet live_only_prefetch;
  uint32_t instructions = 0;

  const IntervalPiece& header() const { return pieces.front(); }
};

struct IntervalPartition {
  uint32_t regs_per_interval = 0;           ///< N
  std::vector<RegisterInterval> intervals;  ///< intervals[i].id == i
  /// Per block, per instruction: the id of the interval holding it.
  std::vector<std::vector<uint32_t>> interval_of;
  uint32_t second_pass_rounds = 0;  ///< Algorithm 2 repetitions that merged something
};

/// Algorithms 1 and 2 (the second repeated until it merges nothing). Throws
/// std::invalid_argument for N == 0 or an instruction whose own registers exceed N
/// (the message names its PC and text).
IntervalPartition form_register_intervals(const Kernel& kernel, uint32_t regs_per_interval);

/// Algorithm 1 only (basic blocks grouped into intervals, blocks split at N).
IntervalPartition form_register_intervals_first_pass(const Kernel& kernel,
                                                     uint32_t regs_per_interval);

struct IntervalStats {
  uint32_t intervals = 0;
  double mean_instructions = 0.0;
  uint32_t min_instructions = 0;
  uint32_t max_instructions = 0;
  double mean_working_set = 0.0;
};

/// Static (per interval, not per dynamic execution) size statistics; zeros when empty.
IntervalStats interval_statistics(const IntervalPartition& partition);

}  // namespace warpreg

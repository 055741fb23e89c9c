// The LTRF compiler pass (seed 004 §3-4, Algorithms 1 and 2): register-intervals (or
// strands, §6.6) and the dead operand bits from static liveness, per PC.
#include <stdexcept>

#include "common/errors.h"
#include "designs/ltrf/compiler/register_intervals.h"
#include "designs/ltrf/ltrf_program.h"
#include "modules/ltrf/ltrf_core.h"
#include "modules/ltrf/register_file_cache_module.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/compiler/pass_registry.h"

namespace warpreg {

LtrfProgram::LtrfProgram(const Kernel& kernel, uint32_t regs_per_interval, bool strands)
    : strands_(strands) {
  const IntervalPartition partition = form_register_intervals(kernel, regs_per_interval);
  const Liveness liveness = compute_liveness(kernel);
  if (!strands) {
    for (const RegisterInterval& interval : partition.intervals)
      sets_.push_back(interval.working_set);
    mean_length_ = interval_statistics(partition).mean_instructions;
  }
  uint64_t strand_instructions = 0;
  for (const BasicBlock& block : kernel.blocks) {
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const StaticInst& inst = block.insts[i];
      RegisterSet dead;
      for (uint16_t r : inst.src)
        if (!liveness.live_after[block.id][i].test(r)) dead.set(r);
      index_of_pc_[inst.pc] = static_cast<uint32_t>(interval_.size());
      dead_.push_back(dead);
      if (!strands) {
        interval_.push_back(partition.interval_of[block.id][i]);
        header_.push_back(false);
        continue;
      }
      // A strand is a piece of one register-interval inside one basic block that ends
      // after a load (a long-latency operation) and at every block end (backward
      // branches end strands; forward ones too here, a conservative choice).
      const bool starts =
          i == 0 || block.insts[i - 1].cls == InstClass::Load ||
          partition.interval_of[block.id][i] != partition.interval_of[block.id][i - 1];
      if (starts) sets_.emplace_back();
      for (uint16_t r : inst.src) sets_.back().set(r);
      for (uint16_t r : inst.dst) sets_.back().set(r);
      interval_.push_back(static_cast<uint32_t>(sets_.size() - 1));
      header_.push_back(starts);
      ++strand_instructions;
    }
  }
  if (strands && !sets_.empty()) mean_length_ = double(strand_instructions) / double(sets_.size());
  index_of_pc_.seal();
}

void warpreg_register_passes_ltrf(PassRegistry& registry) {
  registry.add<LtrfProgram>(
      kLtrfProgram, "LTRF: register-intervals (or strands) and dead operand bits per PC",
      [](const Kernel& kernel, const PassContext& context) {
        const RegisterFileCacheParams cache(&context.params);
        const LtrfParams ltrf(&context.params);
        try {
          return LtrfProgram(kernel, cache.regs_per_interval,
                             ltrf.prefetch_unit == PrefetchUnit::Strand);
        } catch (const std::invalid_argument& e) {
          throw ConfigError(std::string("ltrf.regs_per_interval: ") + e.what());
        }
      });
}

}  // namespace warpreg

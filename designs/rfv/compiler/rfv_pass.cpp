// The RFV compiler pass (seed 000 §6-7): liveness, release flags (pir/pbr) and the
// renaming candidates under the table budget, turned into the per-PC program the
// hardware follows. Runs in the stimulus layer, once per kernel.
#include <algorithm>
#include <stdexcept>

#include "designs/rfv/compiler/release_flags.h"
#include "designs/rfv/compiler/renaming_candidates.h"
#include "designs/rfv/rfv_program.h"
#include "designs/rfv/rfv_stage.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/compiler/pass_registry.h"

namespace warpreg {

RfvProgram::RfvProgram(const Kernel& kernel, const ReleaseFlags& flags, const RenamingPlan& plan) {
  const auto renamed = [&plan](uint16_t r) { return r < plan.exempt.size() && !plan.exempt[r]; };
  std::vector<std::vector<uint32_t>> slot_of(kernel.blocks.size());
  for (const BasicBlock& block : kernel.blocks) {
    slot_of[block.id].resize(block.insts.size());
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const StaticInst& s = block.insts[i];
      Inst inst;
      for (size_t k = 0; k < s.src.size() && k < kFlagsPerInst; ++k)
        if ((flags.flags[block.id][i] >> k & 1u) && renamed(s.src[k]))
          inst.release[inst.release_count++] = s.src[k];
      slot_of[block.id][i] = static_cast<uint32_t>(insts_.size());
      index_.insert(s.pc, static_cast<uint32_t>(insts_.size()));
      insts_.push_back(inst);
    }
  }
  for (const PirInst& pir : flags.pir) {
    const uint32_t id = static_cast<uint32_t>(pir_pcs_.size());
    pir_pcs_.push_back(kernel.blocks[pir.block].insts[pir.first_inst].pc);
    pir_flags_.push_back(pir.encoded);
    for (uint32_t j = 0; j < pir.covered; ++j) {
      Inst& inst = insts_[slot_of[pir.block][pir.first_inst + j]];
      inst.pir = id;
      inst.first_of_pir = j == 0;
    }
  }
  for (const PbrInst& pbr : flags.pbr) {
    const BasicBlock& block = kernel.blocks[pbr.block];
    if (block.insts.empty()) continue;
    Pbr kept;
    for (uint16_t r : pbr.regs)
      if (renamed(r)) kept.regs.push_back(r);
    if (kept.regs.empty()) continue;  // the compiler emits pbrs for renamed registers only
    Inst& first = insts_[slot_of[pbr.block][0]];
    if (first.pbr_count == 0) first.pbr_first = static_cast<uint32_t>(pbrs_.size());
    ++first.pbr_count;
    pbrs_.push_back(std::move(kept));
  }
  index_.seal();
}

namespace {

RfvMetadata compile_rfv(const Kernel& kernel, const PassContext& context) {
  const RfvParams rfv(&context.params);
  const RenamingTableParams table(&context.params);
  const RenamingConfig renaming = table.core_config(context.regfile, context.limits.max_warps);
  const KernelShape& shape = context.kernel;
  const Liveness liveness = compute_liveness(kernel);
  RfvMetadata out;
  out.plan = select_renaming_candidates(kernel, liveness, shape.regs_per_thread,
                                        uint64_t{table.table_bytes} * 8, renaming.entry_bits(),
                                        std::max<uint32_t>(context.occupancy.warps(), 1));
  if (rfv.mode == RfvMode::Compiler) {
    try {
      out.program = RfvProgram(kernel, compute_release_flags(kernel, liveness), out.plan);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(std::string("rfv: ") + e.what());
    }
  }
  return out;
}

}  // namespace

void warpreg_register_passes_rfv(PassRegistry& registry) {
  registry.add<RfvMetadata>(kRfvMetadata,
                            "RFV: renaming candidates under rfv.table_bytes, release flags "
                            "(pir/pbr) and the per-PC release program",
                            compile_rfv);
}

}  // namespace warpreg

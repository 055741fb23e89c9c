#pragma once
// What the RFV hardware needs from the compiler, indexed by PC: each instruction's
// released source registers (its pir flags, kept for renamed registers only), the
// pir that covers it, and the pbr instructions at the start of a reconvergence
// block. Built once per kernel from the release-flag pass and the renaming plan.
// Plain C++.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "common/pc_index.h"

namespace warpreg {

struct Kernel;
struct ReleaseFlags;

/// Release flags per instruction: one per source operand slot 0..2 (seed 000 §6.1).
constexpr size_t kFlagsPerInst = 3;

/// Which architected registers the renaming table renames (the rest are exempt:
/// mapped directly, never released), chosen by the compiler under the table budget.
struct RenamingPlan {
  uint32_t regs_per_thread = 0;
  uint32_t renamed_per_warp = 0;      ///< K
  std::vector<bool> exempt;           ///< per architected register 0..regs_per_thread-1
  std::vector<uint64_t> lifetime;     ///< per architected register: live instruction points
  std::vector<uint32_t> definitions;  ///< per architected register: static writes
  /// Table bits the plan uses: K x entry_bits x resident warps.
  uint64_t table_bits = 0;
  uint32_t exempt_count() const {
    return static_cast<uint32_t>(std::count(exempt.begin(), exempt.end(), true));
  }
};

class RfvProgram {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  struct Inst {
    /// Registers released after this instruction reads them (at most three).
    std::array<uint16_t, kFlagsPerInst> release{};
    uint8_t release_count = 0;
    uint32_t pir = kNone;                   ///< the pir whose flags cover this instruction
    bool first_of_pir = false;              ///< the pir is fetched (or found in the cache) here
    uint32_t pbr_first = 0, pbr_count = 0;  ///< pbrs issued before this instruction
  };
  struct Pbr {
    std::vector<uint16_t> regs;  ///< renamed registers it releases
  };

  RfvProgram() = default;
  /// `plan` decides which flags survive: an exempt register is never released. Built by
  /// the compiler (designs/rfv/compiler/rfv_pass.cpp).
  RfvProgram(const Kernel& kernel, const ReleaseFlags& flags, const RenamingPlan& plan);

  /// The instruction at `pc`, nullptr for a PC the kernel does not have.
  const Inst* find(uint64_t pc) const {
    const uint32_t i = index_.find(pc);
    return i == PcIndex::kNone ? nullptr : &insts_[i];
  }
  const Pbr& pbr(uint32_t i) const { return pbrs_[i]; }
  /// The PC that indexes the release flag cache for pir `i` (its first covered instruction).
  uint64_t pir_pc(uint32_t i) const { return pir_pcs_[i]; }
  uint64_t pir_flags(uint32_t i) const { return pir_flags_[i]; }
  size_t pir_count() const { return pir_pcs_.size(); }
  size_t pbr_count() const { return pbrs_.size(); }
  size_t instruction_count() const { return insts_.size(); }

 private:
  std::vector<Inst> insts_;
  PcIndex index_;
  std::vector<Pbr> pbrs_;
  std::vector<uint64_t> pir_pcs_;
  std::vector<uint64_t> pir_flags_;
};

/// The compiler's metadata for RFV, kind kRfvMetadata: which registers are renamed
/// (the plan) and, in compiler mode, the release program.
struct RfvMetadata {
  RenamingPlan plan;
  RfvProgram program;
};
inline const char* const kRfvMetadata = "rfv.program";

}  // namespace warpreg

#pragma once
// A kernel recompiled to use fewer registers: the compiler's answer to a smaller
// register file (seed 000 §8.1, the "compiler spill" point of Figure 11a), spilled as a
// register allocator does it:
//  - which registers: the cheapest to spill, cost = sum over the instructions naming the
//    register of 10^(loop depth) (Chaitin's spill cost; loops are the kernel's backward
//    branches), or its uses in one warp's stream when there is no static code;
//  - where: the thread's local memory, one 4-byte word per spilled register (a warp's
//    words are one 128-byte line, kept in L1 like GPGPU-Sim's local memory: see mem.*);
//  - how: a fill loads a spilled value into one of kScratch scratch registers before its
//    first read in a basic block and the later reads of the block use it (the value is
//    kept for its live range there); a write goes to a scratch register and is stored;
//    at a block boundary, a branch or a change of the active mask the scratch registers
//    are forgotten, as a compiler's local allocation cannot keep them across.
// The values the program computes are unchanged, so the integrity check still holds.
#include <array>
#include <bitset>
#include <memory>
#include <vector>

#include "modules/interfaces/workload.h"

namespace warpreg {

class Params;

class SpillingWorkload : public Workload {
 public:
  /// Scratch registers the rewritten code has: one per source (kMaxSrc).
  static constexpr uint32_t kScratch = kMaxSrc;

  /// `register_limit`: registers per thread of the recompiled kernel (kept + kScratch);
  /// throws WorkloadError when it leaves no room below the scratch registers or is not
  /// below what the kernel uses.
  SpillingWorkload(std::unique_ptr<Workload> inner, uint32_t register_limit);

  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;
  WorkloadNotes notes() const override { return inner_->notes(); }
  /// The kernel's own instructions keep their addresses; spill code is local.
  bool lane_addresses(const WarpInst& inst, const GridSite& site,
                      std::array<uint64_t, kWarpSize>& out) const override {
    return inner_->lane_addresses(inst, site, out);
  }

  /// Registers kept in the register file.
  uint32_t kept_registers() const { return kept_; }
  /// The spilled architected registers (the kernel's numbering).
  const std::bitset<256>& spilled() const { return spilled_; }
  /// The register allocator's spill cost of each architected register (lower spills first).
  const std::vector<double>& spill_costs() const { return cost_; }

 private:
  void choose_spilled();

  /// One slot's warp: the inner stream rewritten instruction by instruction, with the
  /// warp's spill state (its spilled values, what its scratch registers hold).
  class Rewrite : public WarpStream {
   public:
    explicit Rewrite(const SpillingWorkload& code) : code_(code) {}
    void start(WarpStream& inner);

   private:
    struct Scratch {
      uint16_t reg = kZeroRegister;  ///< the spilled register whose value it holds
      uint64_t used = 0;             ///< last use, for least-recently-used replacement
    };
    void generate() override;
    /// The scratch register for spilled `reg` in the instruction being rewritten: the one
    /// holding it, else a free or least recently used one not in `busy`; `fill` says
    /// whether its value must be loaded.
    uint16_t scratch_for(uint16_t reg, uint32_t busy, bool& fill);
    /// Emits a fill (Load) or spill (Store) of `reg` through scratch register `j`.
    void spill_op(InstClass cls, const WarpInst& at, uint16_t reg, uint16_t j);

    const SpillingWorkload& code_;
    WarpStream* inner_ = nullptr;
    uint32_t next_ = 0;                 ///< the inner instruction to rewrite next
    std::vector<WarpRegister> memory_;  ///< the spilled registers' values of this warp
    std::array<Scratch, kScratch> scratch_{};
    uint64_t uses_ = 0;
    bool boundary_ = true;  ///< the next instruction starts a new local allocation
    LaneMask mask_ = 0;
  };

  std::unique_ptr<Workload> inner_;
  KernelShape shape_;
  uint32_t kept_ = 0;
  std::vector<double> cost_;
  std::bitset<256> spilled_;
  std::vector<uint16_t> renamed_;     ///< kept register -> its number below kept_
  std::vector<uint16_t> local_word_;  ///< spilled register -> its local-memory word
  std::vector<uint64_t> leaders_;     ///< PCs that start a basic block (sorted)
  std::vector<std::unique_ptr<Rewrite>> slots_;
};

/// The registers per thread a compiler allows the kernel so that the warps resident
/// with `reference_registers` (the register file it was written for) stay resident
/// with the SM's sm.registers: floor(sm.registers / 32 / warps) rounded down to the
/// allocation granularity. The kernel's own count when it already fits.
uint32_t recompiled_register_limit(const KernelShape& kernel, const Params& params,
                                   uint32_t reference_registers);

/// Wraps `inner` when kernel.recompile_for_registers is set and the kernel does not
/// fit the SM's register file at the reference occupancy. Returns `inner` otherwise.
std::unique_ptr<Workload> apply_register_limit(std::unique_ptr<Workload> inner,
                                               const Params& params);

}  // namespace warpreg

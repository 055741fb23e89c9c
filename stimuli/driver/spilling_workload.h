#pragma once
// A kernel recompiled to use fewer registers: the compiler's answer to a smaller
// register file (seed 000 §8.1, the "compiler spill" point of Figure 11a). Registers
// at or above a limit K live in local memory: every read of one is preceded by a load
// into a scratch register and every write is followed by a store from one. The values
// the program computes are unchanged, so the integrity check still holds.
#include <memory>
#include <vector>

#include "modules/interfaces/workload.h"

namespace warpreg {

class Params;

class SpillingWorkload : public Workload {
 public:
  /// Scratch registers the rewritten code needs: one per source (kMaxSrc).
  static constexpr uint32_t kScratch = kMaxSrc;

  /// `register_limit`: registers per thread of the recompiled kernel (K + kScratch);
  /// throws WorkloadError when it leaves no room below the scratch registers or is not
  /// below what the kernel uses.
  SpillingWorkload(std::unique_ptr<Workload> inner, uint32_t register_limit);

  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;
  WorkloadNotes notes() const override { return inner_->notes(); }

  /// Registers kept in the register file (the others are spilled).
  uint32_t kept_registers() const { return kept_; }

 private:
  /// One slot's warp: the inner stream rewritten instruction by instruction.
  class Rewrite : public WarpStream {
   public:
    explicit Rewrite(uint32_t kept) : kept_(kept) {}
    void start(WarpStream& inner);

   private:
    void generate() override;
    uint32_t kept_;
    WarpStream* inner_ = nullptr;
    uint32_t next_ = 0;                 ///< the inner instruction to rewrite next
    std::vector<WarpRegister> memory_;  ///< the spilled registers' values of this warp
  };

  std::unique_ptr<Workload> inner_;
  KernelShape shape_;
  uint32_t kept_ = 0;
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

#pragma once
// The integrity check: a reference copy of every architected warp register.
#include <cstdint>
#include <vector>

#include "common/inst.h"
#include "common/warp_register.h"

namespace warpreg {

/// Reference copy of every warp register, written at writeback; every operand the
/// platform delivers is compared against it.
class ShadowRegisterFile {
 public:
  struct Mismatch {
    uint32_t warp_slot = 0;
    uint16_t reg = 0;
    uint64_t pc = 0;
    uint32_t lane = 0;
    uint32_t expected = 0;
    uint32_t got = 0;
  };

  ShadowRegisterFile(uint32_t warp_slots, uint32_t regs_per_warp_max);
  /// Forgets a slot's values (CTA launch): unwritten lanes are never compared.
  void reset_warp(uint32_t slot);
  void write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value);
  /// Compares the lanes in `mask` that have been written; counts the check and returns
  /// false on a mismatch (the first one is kept).
  bool check(uint32_t slot, uint16_t reg, uint64_t pc, LaneMask mask, const WarpRegister& got);

  uint64_t checked_reads() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  bool has_mismatch() const { return mismatches_ != 0; }
  const Mismatch& first_mismatch() const { return first_; }

 private:
  uint32_t regs_;
  std::vector<WarpRegister> values_;
  std::vector<LaneMask> written_;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  Mismatch first_;
};

}  // namespace warpreg

#include "platforms/sm/shadow_register_file.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpreg {

namespace {
[[noreturn]] __attribute__((noinline, cold)) void out_of_range(uint32_t slot, uint16_t reg,
                                                               uint32_t regs, size_t entries) {
  throw std::out_of_range("ShadowRegisterFile: warp slot " + std::to_string(slot) + ", register " +
                          std::to_string(reg) + " outside " +
                          std::to_string(regs ? entries / regs : 0) + " slots x " +
                          std::to_string(regs) + " registers");
}

/// Position of (slot, reg) in the flat arrays. An id outside them is a bug in the
/// platform, not bad input, so it throws rather than being ignored.
inline size_t entry_index(uint32_t slot, uint16_t reg, uint32_t regs, size_t entries) {
  size_t index = size_t{slot} * regs + reg;
  if (reg >= regs || index >= entries) out_of_range(slot, reg, regs, entries);
  return index;
}
}  // namespace

ShadowRegisterFile::ShadowRegisterFile(uint32_t warp_slots, uint32_t regs_per_warp_max)
    : regs_(regs_per_warp_max),
      values_(size_t{warp_slots} * regs_per_warp_max),
      written_(size_t{warp_slots} * regs_per_warp_max, 0) {}

void ShadowRegisterFile::reset_warp(uint32_t slot) {
  if ((size_t{slot} + 1) * regs_ > written_.size())
    throw std::out_of_range("ShadowRegisterFile: no warp slot " + std::to_string(slot));
  std::fill_n(written_.begin() + size_t{slot} * regs_, regs_, LaneMask{0});
}

void ShadowRegisterFile::write(uint32_t slot, uint16_t reg, LaneMask mask,
                               const WarpRegister& value) {
  if (reg == kZeroRegister) return;
  size_t index = entry_index(slot, reg, regs_, written_.size());
  values_[index].merge(value, mask);
  written_[index] |= mask;
}

bool ShadowRegisterFile::check(uint32_t slot, uint16_t reg, uint64_t pc, LaneMask mask,
                               const WarpRegister& got) {
  if (reg == kZeroRegister) return true;
  size_t index = entry_index(slot, reg, regs_, written_.size());
  ++checked_;
  LaneMask compared = mask & written_[index];
  const WarpRegister& expected = values_[index];
  if (expected.equal_on(got, compared)) return true;
  if (mismatches_++ == 0) {
    unsigned lane = 0;
    while (!((compared >> lane) & 1u) || expected.lane[lane] == got.lane[lane]) ++lane;
    first_ = Mismatch{slot, reg, pc, lane, expected.lane[lane], got.lane[lane]};
  }
  return false;
}

}  // namespace warpreg

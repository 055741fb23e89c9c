#include "modules/regmutex/regmutex_core.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

const char* to_string(RegMutexMode mode) {
  switch (mode) {
    case RegMutexMode::Off:
      return "off";
    case RegMutexMode::Shared:
      return "shared";
    case RegMutexMode::Paired:
      return "paired";
    case RegMutexMode::Owf:
      return "owf";
  }
  return "?";
}

bool RegMutexGeometry::lone_paired_cta(uint32_t w) const {
  const uint32_t cta = w / warps_per_cta;
  return mode == RegMutexMode::Paired && cta % 2 == 0 && cta + 1 >= resident_ctas;
}

uint32_t RegMutexGeometry::unit_of(uint32_t w) const {
  if (cta_pairs()) {
    const uint32_t cta = w / warps_per_cta, k = w % warps_per_cta;
    return (cta / 2) * warps_per_cta + (lone_paired_cta(w) ? k / 2 : k);
  }
  return w / 2;
}

uint32_t RegMutexGeometry::side_of(uint32_t w) const {
  if (!cta_pairs()) return w % 2;
  return lone_paired_cta(w) ? w % warps_per_cta % 2 : (w / warps_per_cta) % 2;
}

uint32_t RegMutexGeometry::pair_units() const {
  if (!pair_ctas) return (max_warps + 1) / 2;
  return resident_ctas / 2 * warps_per_cta + resident_ctas % 2 * ((warps_per_cta + 1) / 2);
}

uint32_t RegMutexGeometry::registers_needed(uint32_t resident_warps) const {
  switch (mode) {
    case RegMutexMode::Shared:
      return resident_warps * bs + sections * es;
    case RegMutexMode::Paired:
    case RegMutexMode::Owf: {
      if (mode == RegMutexMode::Paired && !pair_ctas)
        return (resident_warps + 1) / 2 * pair_registers();
      const uint32_t ctas = (resident_warps + warps_per_cta - 1) / warps_per_cta;
      // A lone last CTA: OWF gives each warp its own extended set, paired warps pair
      // adjacent warps of that CTA.
      const uint32_t lone_extended =
          mode == RegMutexMode::Owf ? warps_per_cta : (warps_per_cta + 1) / 2;
      return ctas / 2 * warps_per_cta * pair_registers() +
             ctas % 2 * (warps_per_cta * bs + lone_extended * es);
    }
    case RegMutexMode::Off:
      break;
  }
  return resident_warps * (bs + es);
}

uint32_t RegMutexGeometry::cta_pair_physical(uint32_t w, uint32_t x) const {
  const uint32_t cta = w / warps_per_cta, k = w % warps_per_cta, pair = cta / 2;
  const uint32_t pair_base = pair * warps_per_cta * pair_registers();
  if (x < bs) return pair_base + (cta % 2) * warps_per_cta * bs + k * bs + x;
  const bool partnered = 2 * pair + 1 < resident_ctas;
  const uint32_t set = partnered || mode == RegMutexMode::Owf ? k : k / 2;
  return pair_base + (partnered ? 2 : 1) * warps_per_cta * bs + set * es + (x - bs);
}

namespace {
uint32_t ceil_log2(uint32_t n) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < n) ++bits;
  return bits;
}
}  // namespace

RegMutexAllocator::RegMutexAllocator(const RegMutexGeometry& geometry)
    : geometry_(geometry),
      status_((geometry.max_warps + 63) / 64, 0),
      srp_((geometry.max_warps + 63) / 64, 0),
      lut_(geometry.max_warps, 0),
      owner_((geometry.max_warps + 1) / 2, -1) {
  if (geometry.max_warps == 0) throw std::invalid_argument("regmutex: N_w must be positive");
  if (geometry.mode == RegMutexMode::Shared && geometry.sections > geometry.max_warps)
    throw std::invalid_argument("regmutex: more SRP sections than warps (N_w)");
  if (geometry.warps_per_cta == 0) throw std::invalid_argument("regmutex: warps_per_cta = 0");
  start_kernel();
}

void RegMutexAllocator::start_kernel() {
  std::fill(status_.begin(), status_.end(), 0);
  std::fill(srp_.begin(), srp_.end(), 0);
  std::fill(lut_.begin(), lut_.end(), 0);
  std::fill(owner_.begin(), owner_.end(), -1);
  if (geometry_.mode == RegMutexMode::Shared)
    for (uint32_t i = geometry_.sections; i < geometry_.max_warps; ++i) put(srp_, i, true);
}

uint32_t RegMutexAllocator::find_first_zero() const {
  for (size_t w = 0; w < srp_.size(); ++w) {
    if (~srp_[w] == 0) continue;
    const uint32_t i = static_cast<uint32_t>(w * 64 + __builtin_ctzll(~srp_[w]));
    return i < geometry_.max_warps ? i : geometry_.max_warps;
  }
  return geometry_.max_warps;
}

uint32_t RegMutexAllocator::free_sections() const {
  uint32_t n = 0;
  if (geometry_.mode == RegMutexMode::Shared) {
    for (uint32_t i = 0; i < geometry_.max_warps; ++i) n += !get(srp_, i);
  } else if (geometry_.mode == RegMutexMode::Paired) {
    for (uint32_t i = 0; i < geometry_.pair_units(); ++i) n += !get(srp_, i);
  } else {
    for (int32_t o : owner_) n += o < 0;
  }
  return n;
}

AcquireOutcome RegMutexAllocator::acquire(uint32_t warp, uint32_t cta_slot) {
  if (status(warp)) return AcquireOutcome::AlreadyHeld;
  switch (geometry_.mode) {
    case RegMutexMode::Shared: {
      const uint32_t idx = find_first_zero();
      if (idx >= geometry_.max_warps) return AcquireOutcome::NoSection;
      lut_[warp] = idx;
      put(srp_, idx, true);
      break;
    }
    case RegMutexMode::Paired: {
      const uint32_t unit = geometry_.unit_of(warp);
      if (get(srp_, unit)) return AcquireOutcome::NoSection;
      put(srp_, unit, true);
      lut_[warp] = unit;
      break;
    }
    case RegMutexMode::Owf: {
      int32_t& owner = owner_[cta_slot / 2];
      if (owner >= 0 && owner != int32_t(cta_slot)) return AcquireOutcome::NoSection;
      owner = int32_t(cta_slot);
      lut_[warp] = geometry_.unit_of(warp);
      break;
    }
    case RegMutexMode::Off:
      return AcquireOutcome::NoSection;
  }
  put(status_, warp, true);
  return AcquireOutcome::Acquired;
}

bool RegMutexAllocator::release(uint32_t warp) {
  if (!status(warp) || geometry_.mode == RegMutexMode::Owf) return false;
  warp_exited(warp);
  return true;
}

void RegMutexAllocator::warp_exited(uint32_t warp) {
  if (!status(warp)) return;
  put(status_, warp, false);
  if (geometry_.mode != RegMutexMode::Owf) put(srp_, lut_[warp], false);
}

void RegMutexAllocator::cta_finished(uint32_t cta_slot) {
  if (geometry_.mode != RegMutexMode::Owf) return;
  int32_t& owner = owner_[cta_slot / 2];
  if (owner == int32_t(cta_slot)) owner = -1;
}

RegMutexAllocator::StorageBits RegMutexAllocator::storage_bits() const {
  StorageBits s;
  const uint32_t nw = geometry_.max_warps;
  switch (geometry_.mode) {
    case RegMutexMode::Shared:
      s.warp_status = nw;
      s.srp_bitmask = nw;
      s.lut = uint64_t{nw} * ceil_log2(nw);
      break;
    case RegMutexMode::Paired:
      // Pairing CTAs uses at most ⌈N_w/2⌉ units too (an odd last CTA pairs its own warps).
      s.pair_bitmask = std::max(nw / 2, geometry_.pair_units());
      break;
    case RegMutexMode::Owf:
      // Per warp its acquired bit; per CTA pair a lock bit and which CTA owns it.
      s.warp_status = nw;
      s.owner = 2 * uint64_t{(nw / geometry_.warps_per_cta + 1) / 2};
      break;
    case RegMutexMode::Off:
      break;
  }
  return s;
}

}  // namespace warpreg

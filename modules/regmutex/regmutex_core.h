#pragma once
// RegMutex hardware (seed 003 §III-B, §III-C) as plain C++: the shared-register-pool
// allocator of the issue stage (warp-status bitmask, SRP bitmask, lookup table), its
// paired-warps specialisation, the owner-warp-first lock of Jatala et al. used as the
// paper's Figure 9 comparison, and the operand collector's architected-to-physical
// mapping unit. docs/blocks/regmutex.md.
#include <cstdint>
#include <vector>

namespace warpreg {

enum class RegMutexMode : uint8_t {
  Off,
  Shared,  ///< the paper's design: any warp takes any free SRP section
  Paired,  ///< paired-warps specialisation: warps 2p and 2p+1 (or, pairing CTAs, warp k
           ///< of CTA slots 2c and 2c+1) share one extended set
  Owf      ///< Jatala et al. [7] with owner-warp-first: a CTA pair's extended sets go to
           ///< the CTA whose warp asks first, until that CTA finishes (no in-kernel release)
};
const char* to_string(RegMutexMode mode);

/// What the compiler and the launch hand the hardware (§III-B2: |B_s|, |E_s| and
/// SRP_offset are given to the operand collector at kernel launch).
struct RegMutexGeometry {
  RegMutexMode mode = RegMutexMode::Shared;
  uint32_t max_warps = 48;  ///< N_w
  uint32_t warps_per_cta = 1;
  uint32_t bs = 0, es = 0;
  uint32_t sections = 0;       ///< SRP sections (Shared)
  uint32_t srp_offset = 0;     ///< first warp register of the SRP (Shared)
  uint32_t resident_ctas = 0;  ///< Owf, CTA pairs: CTAs resident at once (the last may be unpaired)
  /// Paired: pair warp k of CTA slot 2c with warp k of slot 2c+1 (the OWF layout) instead of
  /// warps 2p and 2p+1 of one CTA.
  bool pair_ctas = false;  ///< an unpaired last CTA pairs its own adjacent warps

  /// Owf, or Paired with pair_ctas: units are per pair of CTA slots.
  bool cta_pairs() const {
    return mode == RegMutexMode::Owf || (mode == RegMutexMode::Paired && pair_ctas);
  }
  /// Paired: how many pair units (bits of the pair bitmask) the launch uses.
  uint32_t pair_units() const;
  /// Paired with pair_ctas: warp slot `w` is in the unpaired last CTA slot, whose warps
  /// pair adjacent warps (2p, 2p+1) among themselves.
  bool lone_paired_cta(uint32_t w) const;

  /// Warp registers one pair unit holds (Paired, Owf): 2|B_s| + |E_s|.
  uint32_t pair_registers() const { return 2 * bs + es; }
  /// Paired/Owf: the pair unit of warp slot `w` and which side of it the warp is.
  uint32_t unit_of(uint32_t w) const;
  uint32_t side_of(uint32_t w) const;
  /// Warp registers the resident warps occupy (base sets + pool, or pair units).
  uint32_t registers_needed(uint32_t resident_warps) const;
  /// CTA-pair layout (Owf, Paired with pair_ctas), per pair of CTA slots: the even CTA's
  /// base sets, the odd CTA's base sets, then one extended set per warp position; an
  /// unpaired last CTA has its bases and then its own extended sets (Owf: one per warp;
  /// Paired: one per pair of adjacent warps).
  uint32_t cta_pair_physical(uint32_t w, uint32_t x) const;
};

enum class AcquireOutcome : uint8_t {
  Acquired,     ///< a section was taken
  AlreadyHeld,  ///< a second acquire without a release between: no effect
  NoSection     ///< none free: the warp waits and retries
};

/// The issue-stage allocator. Storage as in Figure 4: status (N_w bits), SRP bitmask
/// (N_w bits), LUT (N_w × ⌈log2 N_w⌉ bits); Paired: N_w/2 bits; Owf: one owner per CTA
/// pair. The model keeps, in every mode, which warp holds what (for reports and the
/// "no effect" rules); the storage figures count what the hardware needs.
class RegMutexAllocator {
 public:
  explicit RegMutexAllocator(const RegMutexGeometry& geometry);

  /// Kernel placement: clears every bit and sets the SRP bits of sections beyond the pool.
  void start_kernel();
  AcquireOutcome acquire(uint32_t warp, uint32_t cta_slot);
  /// Clears the warp's section. False (no effect) when it holds none, and always in Owf
  /// mode (one acquire per warp lifetime: the set goes back when its CTA finishes).
  bool release(uint32_t warp);
  /// The warp exits: it gives back what it holds (every mode).
  void warp_exited(uint32_t warp);
  /// Owf: a CTA finished; a pair it owned becomes free.
  void cta_finished(uint32_t cta_slot);

  bool holds(uint32_t warp) const { return status(warp); }
  /// The section (Shared: LUT entry; Paired/Owf: the pair unit) the warp holds.
  uint32_t section_of(uint32_t warp) const { return lut_[warp]; }
  uint32_t free_sections() const;

  /// Mapping unit (Figure 6b): X < |B_s| -> W × |B_s| + X (Paired/Owf: the warp's half
  /// of its pair unit); otherwise SRP_offset + LUT(W) × |E_s| + (X − |B_s|) (Paired/Owf:
  /// the unit's shared extended set). Precondition for X >= |B_s|: holds(warp).
  uint32_t physical(uint32_t warp, uint32_t x) const {
    const RegMutexGeometry& g = geometry_;
    if (g.mode == RegMutexMode::Shared)
      return x < g.bs ? warp * g.bs + x : g.srp_offset + lut_[warp] * g.es + (x - g.bs);
    if (g.cta_pairs()) return g.cta_pair_physical(warp, x);
    const uint32_t unit_base = g.unit_of(warp) * g.pair_registers();
    return x < g.bs ? unit_base + g.side_of(warp) * g.bs + x : unit_base + 2 * g.bs + (x - g.bs);
  }

  struct StorageBits {
    uint64_t warp_status = 0, srp_bitmask = 0, lut = 0, pair_bitmask = 0, owner = 0;
    uint64_t total() const { return warp_status + srp_bitmask + lut + pair_bitmask + owner; }
  };
  StorageBits storage_bits() const;
  const RegMutexGeometry& geometry() const { return geometry_; }
  /// Bit i of the SRP bitmask (Shared), of the pair bitmask (Paired).
  bool srp_bit(uint32_t i) const { return get(srp_, i); }

 private:
  static bool get(const std::vector<uint64_t>& bits, uint32_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1;
  }
  static void put(std::vector<uint64_t>& bits, uint32_t i, bool v) {
    if (v)
      bits[i >> 6] |= uint64_t{1} << (i & 63);
    else
      bits[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  bool status(uint32_t warp) const { return get(status_, warp); }
  /// Find First Zero over the SRP bitmask; N_w when every bit is set.
  uint32_t find_first_zero() const;

  RegMutexGeometry geometry_;
  std::vector<uint64_t> status_;  ///< warp status (acquired / not)
  std::vector<uint64_t> srp_;     ///< Shared: SRP sections taken; Paired: pair sets taken
  std::vector<uint32_t> lut_;     ///< per warp: its section (Shared) or unit (Paired/Owf)
  std::vector<int32_t> owner_;    ///< Owf: per CTA pair, the owning CTA slot or -1
};

}  // namespace warpreg

#pragma once
// RegMutex's shared-register-pool allocator (seed 003 §III-B, Figures 4-6) as a block:
// the warp-status bitmask, the SRP bitmask and the lookup table of the issue stage
// (RegMutexAllocator, bit-exact), with their counters and energy. It has no TLM
// sockets: its two users call it directly, bound at elaboration (the design's stage
// owns it as a child module):
//
// - the issue stage: acquire() (find first zero, LUT and bitmask writes), release()
//   (LUT read, bitmask writes), warp_exited(), cta_finished();
// - the operand collector's mapping unit: physical(), once per register access (a
//   compare and, for an extended register, a LUT read; no added cycle).
//
// |B_s|, |E_s|, SRP_offset and the sections are given at kernel launch (§III-B2):
// the geometry of the compiler's plan. docs/blocks/regmutex.md.
#include <systemc>
#include <vector>

#include "common/cycle_clock.h"
#include "common/stat_set.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/waveform.h"
#include "modules/regmutex/regmutex_core.h"
#include "power/energy.h"

namespace warpreg {

/// What the SRP allocator reports besides its energy account, whose events count its
/// operations: acquires, failed_acquires, releases, lut_reads.
struct SrpAllocatorStats : StatSet {
  SrpAllocatorStats() : StatSet("regmutex.srp_allocator") {}
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "Warp status, SRP bitmask and LUT (or the pair bitmask, or "
                                   "the OWF locks): 384 bits for 48 warps."};
};

class SrpAllocator : public sc_core::sc_module, public ReportingBlock, public TracedBlock {
 public:
  /// Throws TechError when the technology table lacks srp_allocator_access or
  /// srp_lut_read, std::invalid_argument for an impossible geometry.
  SrpAllocator(sc_core::sc_module_name name, const RegMutexGeometry& geometry,
               const power::TechTable& tech, const CycleClock& clock);

  // Issue stage (seed 003 Figure 5).
  /// Warp `warp` of CTA slot `cta_slot` asks for an extended set at `cycle`. A failed
  /// search is counted once per warp and cycle (the issue stage may ask again).
  AcquireOutcome acquire(uint32_t warp, uint32_t cta_slot, uint64_t cycle);
  /// Frees the warp's section; false (no effect) when it holds none, and in OWF mode.
  bool release(uint32_t warp);
  /// The warp exits: it gives back what it holds.
  void warp_exited(uint32_t warp) { core_.warp_exited(warp); }
  void cta_finished(uint32_t cta_slot) { core_.cta_finished(cta_slot); }
  bool holds(uint32_t warp) const { return core_.holds(warp); }

  // Operand collector (seed 003 Figure 6b): the mapping unit.
  /// The physical register of warp `warp`'s register index `x`. Precondition for
  /// x >= |B_s|: holds(warp).
  uint32_t physical(uint32_t warp, uint32_t x) {
    if (x >= core_.geometry().bs) energy_.count(lut_read_event_);
    return core_.physical(warp, x);
  }
  /// The first physical register of the extended set the warp holds (|E_s| follow).
  uint32_t extended_base(uint32_t warp) const { return core_.physical(warp, core_.geometry().bs); }

  const RegMutexAllocator& core() const { return core_; }
  const RegMutexGeometry& geometry() const { return core_.geometry(); }

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }
  /// Waveform: the free sections of the shared register pool (pair units in the paired
  /// and OWF modes) and the warps holding an extended set.
  void add_signals(Waveform& wave) override {
    const std::string prefix = name() + std::string(".");
    wave.add(prefix + "free_sections", 16, [this](uint64_t) { return core_.free_sections(); });
    wave.add(prefix + "holders", 8, [this](uint64_t) {
      uint32_t n = 0;
      for (uint32_t w = 0; w < core_.geometry().max_warps; ++w) n += core_.holds(w) ? 1 : 0;
      return n;
    });
  }

 private:
  RegMutexAllocator core_;
  std::vector<uint64_t> last_failed_;  ///< per warp: cycle of its last failed search
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId acquire_event_, failed_event_, release_event_, lut_read_event_;
  SrpAllocatorStats stats_;
};

}  // namespace warpreg

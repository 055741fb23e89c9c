#pragma once
// A design's say at the SM's issue stage: register renaming throttles warps and
// issues release metadata (RFV), a shared-pool allocator stalls a warp until it gets a
// section (RegMutex), a register-file cache makes a warp wait for its PREFETCH (LTRF).
// Operand-path stages that also derive from IssueHook are registered with the SM by
// the platform; the baseline has none.
#include <cstdint>
#include <string>

#include "common/inst.h"
#include "modules/interfaces/occupancy.h"

namespace warpreg {

enum class IssueVerdict : uint8_t {
  Issue,    ///< the instruction may issue
  Wait,     ///< not now: the scheduler tries other warps; asked again on a later cycle
  Metadata  ///< the warp issues a metadata instruction (pir, pbr, acquire, PREFETCH ...)
            ///< this cycle instead: it takes the scheduler's issue slot but no collector,
            ///< and the instruction is asked about again from the next cycle
};

/// The SM's side of parking, one per registered hook (IssueHook::attach_parking). A warp
/// the hook parks is not asked about any more: where the SM's scan would call
/// before_issue for it, it counts a Wait and calls parked_probe instead. A hook parks a
/// warp only while before_issue would answer Wait with no effect other than
/// parked_probe's: parking saves the scan's calls, it changes no answer.
class WarpParking {
 public:
  static constexpr uint64_t kUntilReleased = ~uint64_t(0);
  virtual ~WarpParking() = default;
  /// Warp `slot` is parked before cycle `until` (kUntilReleased: until release()). Only
  /// from before_issue, for the warp asked about: the SM's own tests for it (scoreboard,
  /// collector type) then hold until it issues.
  virtual void park(uint32_t slot, uint64_t until) = 0;
  /// The hook's answer for warp `slot` may have changed: ask before_issue again.
  virtual void release(uint32_t slot) = 0;
};

class IssueHook {
 public:
  virtual ~IssueHook() = default;
  /// Warp `slot` of CTA slot `cta_slot` could issue its instruction number `index`
  /// (`inst`) now: every other condition (scoreboard, collector) holds. Only a
  /// Metadata verdict may be taken as "this happened"; after Wait the SM may ask
  /// again in the same cycle.
  virtual IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index,
                                    const WarpInst& inst, uint64_t now) = 0;
  /// False for a hook whose before_issue always answers Issue and does nothing else (it
  /// only listens, e.g. to issued()): the SM then never asks it, which saves a call per
  /// warp and probe. Asked once, when the SM registers the hook.
  virtual bool may_hold() const { return true; }
  /// Where this hook parks warps, given once when the SM registers it; a hook that never
  /// parks ignores it.
  virtual void attach_parking(WarpParking* /*parking*/) {}
  /// Warp `slot`, parked, was probed where before_issue would have been asked: what
  /// before_issue would have done besides answering Wait. It may release the warp, and
  /// the SM then asks before_issue in the same probe. True when no parked probe can have
  /// an effect before the next cycle (the SM stops calling until then).
  virtual bool parked_probe(uint32_t /*slot*/, uint64_t /*now*/) { return true; }
  /// The instruction issued; its operand reads follow in the same cycle.
  virtual void issued(uint32_t /*slot*/, uint32_t /*cta_slot*/, const WarpInst& /*inst*/,
                      uint64_t /*now*/) {}
  /// A CTA took slot `cta_slot` with `warps` warps of `regs_per_warp` registers.
  virtual void cta_launched(uint32_t /*cta_slot*/, uint32_t /*warps*/, uint32_t /*regs_per_warp*/,
                            uint64_t /*now*/) {}
  virtual void cta_finished(uint32_t /*cta_slot*/, uint64_t /*now*/) {}
  /// The first cycle after `now` at which a Wait may turn into Issue without any SM
  /// event (a wake-up or a fill that completes at a known cycle); ~0 when only SM
  /// events (writebacks, warp exits, other issues) can change the hook's answer.
  virtual uint64_t next_change(uint64_t /*now*/) const { return ~uint64_t(0); }
  /// One or more lines for the SM's watchdog and deadlock report: what the hook is
  /// holding warps for. Empty when it holds none.
  virtual std::string wait_report() const { return {}; }
  /// Nothing can issue and nothing is in flight: the last chance to break the stall
  /// (e.g. spill a waiting warp's registers). True if something changed, so the SM
  /// tries again next cycle instead of reporting a deadlock.
  virtual bool resolve_stall(uint64_t /*now*/) { return false; }
  /// A design that changes how many CTAs fit (RegMutex allocates only the base set per
  /// warp) returns the occupancy the SM must use instead of its own; asked once, before
  /// the run. nullptr: the SM's occupancy stands.
  virtual const Occupancy* resident_occupancy() const { return nullptr; }
};

}  // namespace warpreg

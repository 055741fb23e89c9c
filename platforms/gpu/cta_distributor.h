#pragma once
// Spreads a grid's CTAs over the SMs the way GPGPU-Sim's issue_block2core does: round
// robin, one CTA per SM in turn while SMs have free CTA slots (so CTA i of the first
// wave goes to SM i mod N), then each CTA to the SM that frees a slot and asks first.
// The SMs run loosely timed, each up to a quantum ahead of the others, so "first" is
// within a quantum (docs/gpu.md).
#include <cstdint>
#include <vector>

#include "platforms/sm/sm_core.h"

namespace warpreg {

class CtaDistributor {
 public:
  /// `ctas` in the grid, `sms` SMs with `ctas_per_sm` resident CTA slots each.
  CtaDistributor(uint32_t ctas, uint32_t sms, uint32_t ctas_per_sm);

  /// SM `sm`'s view (SmCore::attach_cta_source).
  CtaSource& source(uint32_t sm) { return sources_.at(sm); }
  /// CTAs handed out to SM `sm` so far.
  uint32_t issued_to(uint32_t sm) const { return sources_.at(sm).issued; }

 private:
  class Source final : public CtaSource {
   public:
    Source(CtaDistributor& owner, uint32_t sm) : owner_(&owner), sm_(sm) {}
    bool next_cta(uint64_t cycle, uint32_t& cta) override;
    uint32_t issued = 0;

   private:
    CtaDistributor* owner_;
    uint32_t sm_;
  };

  uint32_t ctas_;
  uint32_t sms_;
  uint32_t first_wave_;  ///< CTAs of the round-robin first wave
  uint32_t next_ = 0;    ///< the next CTA after the first wave
  std::vector<Source> sources_;
};

}  // namespace warpreg

#include "platforms/gpu/cta_distributor.h"

#include <algorithm>

namespace warpreg {

CtaDistributor::CtaDistributor(uint32_t ctas, uint32_t sms, uint32_t ctas_per_sm)
    : ctas_(ctas),
      sms_(sms),
      first_wave_(static_cast<uint32_t>(std::min<uint64_t>(ctas, uint64_t(sms) * ctas_per_sm))),
      next_(first_wave_) {
  sources_.reserve(sms);
  for (uint32_t s = 0; s < sms; ++s) sources_.emplace_back(*this, s);
}

bool CtaDistributor::Source::next_cta(uint64_t, uint32_t& cta) {
  CtaDistributor& d = *owner_;
  // The first wave: SM s gets CTAs s, s + N, s + 2N, ... up to its slots.
  const uint64_t first = uint64_t(issued) * d.sms_ + sm_;
  if (first < d.first_wave_) {
    cta = static_cast<uint32_t>(first);
    ++issued;
    return true;
  }
  if (d.next_ >= d.ctas_) return false;
  cta = d.next_++;
  ++issued;
  return true;
}

}  // namespace warpreg

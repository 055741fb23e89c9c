#pragma once
// Cycle-denominated time: every block counts in cycles and converts to and from
// SystemC time with integer arithmetic on the kernel's time resolution.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <systemc>

namespace warpreg {

class CycleClock {
 public:
  CycleClock() = default;
  /// The period is rounded to the SystemC time resolution (1 ps by default).
  explicit CycleClock(double mhz)
      : ticks_(std::max<uint64_t>(
            1, static_cast<uint64_t>(
                   std::llround(1e-6 / mhz / sc_core::sc_get_time_resolution().to_seconds())))),
        ns_per_cycle_(1e3 / mhz) {}

  uint64_t ticks_per_cycle() const { return ticks_; }
  double ns_per_cycle() const { return ns_per_cycle_; }
  sc_core::sc_time period() const { return sc_core::sc_time::from_value(ticks_); }

  uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / ticks_; }
  /// The cycle at which an access with annotated `delay` happens.
  uint64_t cycle_at(const sc_core::sc_time& delay) const {
    return (sc_core::sc_time_stamp().value() + delay.value()) / ticks_;
  }
  sc_core::sc_time cycles(uint64_t n) const { return sc_core::sc_time::from_value(n * ticks_); }
  /// Moves an annotated delay so that the access completes at `cycle`.
  void complete_at(sc_core::sc_time& delay, uint64_t cycle) const {
    delay = sc_core::sc_time::from_value(cycle * ticks_ - sc_core::sc_time_stamp().value());
  }

 private:
  uint64_t ticks_ = 1000;
  double ns_per_cycle_ = 1.0;
};

}  // namespace warpreg

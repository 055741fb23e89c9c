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
  CycleClock() { set_divisor(); }
  /// The period is rounded to the SystemC time resolution (1 ps by default).
  explicit CycleClock(double mhz)
      : ticks_(std::max<uint64_t>(
            1, static_cast<uint64_t>(
                   std::llround(1e-6 / mhz / sc_core::sc_get_time_resolution().to_seconds())))),
        ns_per_cycle_(1e3 / mhz) {
    set_divisor();
  }

  uint64_t ticks_per_cycle() const { return ticks_; }
  double ns_per_cycle() const { return ns_per_cycle_; }
  sc_core::sc_time period() const { return time_of_ticks(ticks_); }

  uint64_t cycle_of(const sc_core::sc_time& t) const { return cycle_of_ticks(t.value()); }
  /// The cycle at which an access with annotated `delay` happens.
  uint64_t cycle_at(const sc_core::sc_time& delay) const {
    return cycle_of_ticks(now_->value() + delay.value());
  }
  sc_core::sc_time cycles(uint64_t n) const { return time_of_ticks(n * ticks_); }
  /// Moves an annotated delay so that the access completes at `cycle`.
  void complete_at(sc_core::sc_time& delay, uint64_t cycle) const {
    delay = time_of_ticks(cycle * ticks_ - now_->value());
  }
  /// The annotated delay from now to the start of `cycle`; zero for a cycle already begun.
  sc_core::sc_time delay_until(uint64_t cycle) const {
    const uint64_t at = cycle * ticks_, now = now_->value();
    return time_of_ticks(at > now ? at - now : 0);
  }
  /// The kernel's current time in ticks.
  uint64_t now_ticks() const { return now_->value(); }
  /// The cycle that time `t` (in ticks) falls in: t / ticks_per_cycle().
  uint64_t cycle_of_ticks(uint64_t t) const {
    if (ticks_ == 1) return t;
    if (t < exact_below_) return static_cast<uint64_t>((__uint128_t(t) * reciprocal_) >> 64);
    return t / ticks_;
  }
  /// sc_time::from_value(ticks) without its library call: one tick scaled by an exact
  /// double (sc_time's inline operator*= rounds ticks + 0.5, exact below 2^52 ticks).
  /// Forced inline: GCC kept it out of line in RFV's transport, a call per access.
  [[gnu::always_inline]] sc_core::sc_time time_of_ticks(uint64_t ticks) const {
    if (ticks >= (uint64_t{1} << 52)) return sc_core::sc_time::from_value(ticks);
    sc_core::sc_time t = one_tick_;
    t *= static_cast<double>(ticks);
    return t;
  }

 private:
  // Every access converts time to cycles on every hop: a multiplication by a rounded-up
  // reciprocal instead of a 64-bit division. floor(t * m / 2^64) equals floor(t / ticks)
  // while t * (m * ticks - 2^64) < 2^64, i.e. up to exact_below_ ticks (for 1 ns cycles
  // at 1 ps resolution, about five hours of simulated time); beyond it, the division.
  void set_divisor() {
    if (ticks_ == 1) return;
    reciprocal_ = ~uint64_t(0) / ticks_ + 1;
    const auto excess = static_cast<uint64_t>(__uint128_t(reciprocal_) * ticks_);  // mod 2^64
    exact_below_ = excess == 0 ? ~uint64_t(0) : ~uint64_t(0) / excess;
  }

  uint64_t ticks_ = 1000;
  double ns_per_cycle_ = 1.0;
  uint64_t reciprocal_ = 0;
  uint64_t exact_below_ = 0;
  /// The kernel's current time: sc_time_stamp() returns a reference to it, which stays
  /// valid for the simulation's lifetime, so no library call per conversion.
  const sc_core::sc_time* now_ = &sc_core::sc_time_stamp();
  sc_core::sc_time one_tick_ = sc_core::sc_time::from_value(1);
};

}  // namespace warpreg

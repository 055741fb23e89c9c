#pragma once
// Time in the memory system: each module counts in its own clock (the core, the
// interconnect, the L2 and the DRAM each have one, as in GPGPU-Sim's clock domains) and
// meets the others in SystemC time. A request arriving between two edges of a module's
// clock is served from the next edge.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <systemc>
#include <vector>

#include "common/cycle_clock.h"
#include "common/errors.h"

namespace warpreg::memory {

/// Throws ConfigError unless `mhz` is a usable clock (0.001 MHz to 100 GHz).
inline void check_clock(std::string_view name, double mhz) {
  if (!std::isfinite(mhz) || mhz < 1e-3 || mhz > 1e5)
    throw ConfigError(std::string(name) + ".clock_mhz must be 0.001 to 100000 MHz (got " +
                      std::to_string(mhz) + ")");
}

/// Throws ConfigError unless an energy coefficient is finite and not negative.
inline void check_energy(std::string_view name, const char* field, double value) {
  if (!std::isfinite(value) || value < 0)
    throw ConfigError(std::string(name) + "." + field + " must be a finite value >= 0 (got " +
                      std::to_string(value) + ")");
}

/// The first cycle of `clock` at or after now + `delay`.
inline uint64_t arrival_cycle(const CycleClock& clock, const sc_core::sc_time& delay) {
  return clock.cycle_of_ticks(clock.now_ticks() + delay.value() + clock.ticks_per_cycle() - 1);
}

/// SystemC time of the start of `cycle`.
inline sc_core::sc_time time_of(const CycleClock& clock, uint64_t cycle) {
  return clock.cycles(cycle);
}

/// The first cycle of `clock` at or after absolute time `t`.
inline uint64_t cycle_not_before(const CycleClock& clock, const sc_core::sc_time& t) {
  return clock.cycle_of_ticks(t.value() + clock.ticks_per_cycle() - 1);
}

/// When a resource (a port, a data bus) is busy: a request takes the first free gap of
/// its length at or after the cycle it asks for. Requests reach a shared resource out of
/// time order (each SM runs up to a quantum ahead of the others, and a miss's reply is
/// computed before a later hit's); a plain next-free cycle would queue an early request
/// behind every later reservation, a timeline lets it use the gaps.
class Timeline {
 public:
  /// Reserves `length` cycles from the first cycle >= `cycle` that starts a free gap of
  /// that length; returns that cycle.
  uint64_t reserve(uint64_t cycle, uint64_t length);
  /// Drops what ends at or before `cycle` (no request can ask for an earlier cycle).
  void forget_before(uint64_t cycle);
  uint64_t busy_cycles() const { return busy_cycles_; }
  /// Intervals held (for tests of the bookkeeping).
  size_t intervals() const { return busy_.size() - first_; }

 private:
  struct Interval {
    uint64_t begin, end;  ///< [begin, end)
  };
  std::vector<Interval> busy_;  ///< from first_ on: sorted, disjoint, not touching
  size_t first_ = 0;
  uint64_t busy_cycles_ = 0;
};

/// The oldest cycle of `clock` a request may still arrive at (now, rounded down).
inline uint64_t current_cycle(const CycleClock& clock) {
  return clock.cycle_of_ticks(clock.now_ticks());
}

}  // namespace warpreg::memory

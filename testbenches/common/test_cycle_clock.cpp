// CycleClock converts kernel time to cycles with a reciprocal multiplication; it must
// agree with the division it replaces everywhere, also past its exact range.
#include <catch2/catch.hpp>
#include <random>

#include "common/cycle_clock.h"

using warpreg::CycleClock;

TEST_CASE("cycle clock: ticks to cycles equals the division for every clock", "[common]") {
  std::mt19937_64 rng(7);
  for (const double mhz : {1400.0, 1000.0, 700.0, 1.0, 1e6, 3.3e5, 925.0, 1e3 / 3}) {
    const CycleClock clock(mhz);
    const uint64_t ticks = clock.ticks_per_cycle();
    const auto check = [&](uint64_t t) {
      INFO("clock " << mhz << " MHz (" << ticks << " ticks), time " << t);
      REQUIRE(clock.cycle_of(sc_core::sc_time::from_value(t)) == t / ticks);
    };
    for (uint64_t k = 0; k < 2000; ++k) {
      check(k * ticks);
      check(k * ticks + ticks - 1);
      check(k);
    }
    for (int i = 0; i < 20000; ++i) {
      check(rng() >> (rng() % 64));  // every magnitude, past the exact range too
      const uint64_t cycle = rng() >> 24;
      check(cycle * ticks - 1);
      check(cycle * ticks);
    }
    check(~uint64_t(0));
    check(~uint64_t(0) - 1);
  }
}

TEST_CASE("cycle clock: times from ticks equal sc_time::from_value", "[common]") {
  const CycleClock clock(1400.0);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t ticks = rng() >> (rng() % 64);
    INFO("ticks " << ticks);
    REQUIRE(clock.time_of_ticks(ticks).value() == sc_core::sc_time::from_value(ticks).value());
  }
  for (uint64_t ticks : {uint64_t{0}, uint64_t{1}, (uint64_t{1} << 52) - 1, uint64_t{1} << 52,
                         (uint64_t{1} << 53) + 1, ~uint64_t(0)})
    REQUIRE(clock.time_of_ticks(ticks).value() == sc_core::sc_time::from_value(ticks).value());
  REQUIRE(clock.cycles(3).value() == 3 * clock.ticks_per_cycle());
}

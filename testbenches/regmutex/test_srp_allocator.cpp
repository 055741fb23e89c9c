// The SRP allocator block on its own: its direct interface (acquire, release, the
// mapping unit) on the paper's example geometry, its events and energy from the
// technology table, and the error for a table without its coefficients.
#include <catch2/catch.hpp>

#include "modules/regmutex/srp_allocator.h"

using namespace warpreg;

namespace {

/// Seed 003's example (as in test_regmutex_core.cpp), set as the plan would.
RegMutexGeometry paper_geometry() {
  RegMutexGeometry g;
  g.max_warps = 48;
  g.warps_per_cta = 8;
  g.bs = 18;
  g.es = 6;
  g.sections = 26;
  g.srp_offset = g.max_warps * g.bs;
  return g;
}

}  // namespace

TEST_CASE("srp allocator: acquire, release and mapping count their events", "[regmutex][srp]") {
  const power::TechTable tech = power::TechTable::load("fermi40");
  const CycleClock clock(1400);
  SrpAllocator allocator("srp_allocator", paper_geometry(), tech, clock);
  for (uint32_t w = 0; w < 26; ++w)
    REQUIRE(allocator.acquire(w, w / 8, 10) == AcquireOutcome::Acquired);
  // The 27th finds no section; asked again in the same cycle it is one search.
  CHECK(allocator.acquire(30, 3, 11) == AcquireOutcome::NoSection);
  CHECK(allocator.acquire(30, 3, 11) == AcquireOutcome::NoSection);
  CHECK(allocator.acquire(30, 3, 12) == AcquireOutcome::NoSection);
  CHECK(allocator.acquire(5, 0, 12) == AcquireOutcome::AlreadyHeld);
  CHECK(allocator.release(7));
  CHECK_FALSE(allocator.release(7));  // no effect: holds none
  CHECK(allocator.acquire(30, 3, 13) == AcquireOutcome::Acquired);
  // The mapping unit: base registers need no LUT read, extended ones one each.
  CHECK(allocator.physical(30, 4) == 30 * 18 + 4);
  CHECK(allocator.physical(30, 18) == 48 * 18 + 7 * 6);
  CHECK(allocator.physical(30, 23) == 48 * 18 + 7 * 6 + 5);
  CHECK(allocator.extended_base(30) == 48 * 18 + 7 * 6);

  const nlohmann::json s = allocator.stats(20);
  CHECK(s["events"]["acquires"] == 27);
  CHECK(s["events"]["failed_acquires"] == 2);
  CHECK(s["events"]["releases"] == 1);
  CHECK(s["events"]["lut_reads"] == 2);
  CHECK(s["storage_bits"] == 384);
  CHECK(s["dynamic_pj"].get<double>() ==
        Approx((27 + 2 + 1) * tech.value("srp_allocator_access") + 2 * tech.value("srp_lut_read")));
  CHECK(s["leakage_pj"] == 0.0);
  for (const auto& item : s.items()) {
    INFO(item.key());
    const bool energy = item.key() == "events" || item.key() == "dynamic_pj" ||
                        item.key() == "leakage_pj" || item.key() == "residency";
    CHECK((energy || allocator.statistics()->declares(item.key())));
  }
  const nlohmann::json d = allocator.describe();
  CHECK(d["storage_bits"]["lookup_table"] == 288);
  CHECK(d["launch_geometry"]["srp_sections"] == 26);
}

TEST_CASE("srp allocator: a table without its coefficients names the block and the key",
          "[regmutex][srp]") {
  const power::TechTable tech = power::TechTable::load("wrf32");
  const CycleClock clock(1400);
  CHECK_THROWS_WITH(SrpAllocator("srp_allocator", paper_geometry(), tech, clock),
                    Catch::Contains("srp_allocator") && Catch::Contains("srp_allocator_access") &&
                        Catch::Contains("wrf32"));
}

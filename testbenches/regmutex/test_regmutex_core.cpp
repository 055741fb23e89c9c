// RegMutex cores without SystemC: the SRP allocator (shared, paired, OWF), the mapping
// unit, the acquire-region pass and the plan's deadlock rules.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "common/errors.h"
#include "designs/regmutex/compiler/regmutex_points.h"
#include "designs/regmutex/regmutex_plan.h"
#include "modules/regmutex/regmutex_core.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using warpreg::testing::make_kernel;

namespace {

/// Seed 003's example: N_w = 48, |B_s| = 18, |E_s| = 6, 26 sections.
RegMutexGeometry example(RegMutexMode mode = RegMutexMode::Shared) {
  RegMutexGeometry g;
  g.mode = mode;
  g.max_warps = 48;
  g.warps_per_cta = 8;
  g.bs = 18;
  g.es = 6;
  g.sections = 26;
  g.srp_offset = 48 * 18;
  return g;
}

/// The message of the ConfigError `plan` throws; "no error" when it throws none.
template <typename Plan>
std::string config_error(Plan&& plan) {
  try {
    plan();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

/// Kernel "k" with 8 registers per thread, launched as `ctas` CTAs of `threads` threads.
KernelShape small_launch(uint32_t ctas, uint32_t threads) {
  KernelShape shape;
  shape.name = "k";
  shape.ctas = ctas;
  shape.threads_per_cta = threads;
  shape.regs_per_thread = 8;
  return shape;
}

}  // namespace

TEST_CASE("srp allocator: find-first-zero hands out sections in order and stalls when full",
          "[regmutex][core]") {
  RegMutexAllocator a(example());
  CHECK(a.free_sections() == 26);
  for (uint32_t w = 0; w < 26; ++w) {
    REQUIRE(a.acquire(w, 0) == AcquireOutcome::Acquired);
    CHECK(a.section_of(w) == w);
  }
  CHECK(a.free_sections() == 0);
  // Sections 26..47 are preset at launch: the 27th warp finds no zero bit.
  CHECK(a.acquire(30, 0) == AcquireOutcome::NoSection);
  CHECK_FALSE(a.holds(30));
  REQUIRE(a.release(7));
  CHECK(a.acquire(30, 0) == AcquireOutcome::Acquired);
  CHECK(a.section_of(30) == 7);
}

TEST_CASE("srp allocator: a second acquire or release without the other has no effect",
          "[regmutex][core]") {
  RegMutexAllocator a(example());
  REQUIRE(a.acquire(4, 0) == AcquireOutcome::Acquired);
  REQUIRE(a.acquire(5, 0) == AcquireOutcome::Acquired);
  CHECK(a.acquire(4, 0) == AcquireOutcome::AlreadyHeld);
  CHECK(a.section_of(4) == 0);
  CHECK(a.free_sections() == 24);
  CHECK(a.release(4));
  CHECK_FALSE(a.release(4));
  CHECK(a.free_sections() == 25);
  CHECK(a.holds(5));
  CHECK(a.srp_bit(1));
  CHECK_FALSE(a.srp_bit(0));
  CHECK_FALSE(a.release(9));  // never acquired
  CHECK(a.free_sections() == 25);
}

TEST_CASE("srp allocator: storage is 48 + 48 + 288 = 384 bits for N_w = 48", "[regmutex][core]") {
  const RegMutexAllocator shared(example());
  CHECK(shared.storage_bits().warp_status == 48);
  CHECK(shared.storage_bits().srp_bitmask == 48);
  CHECK(shared.storage_bits().lut == 288);
  CHECK(shared.storage_bits().total() == 384);
  const RegMutexAllocator paired(example(RegMutexMode::Paired));
  CHECK(paired.storage_bits().total() == 24);  // N_w / 2, no LUT (§III-C)
}

TEST_CASE("mapping unit: base set at W x B_s + X and extended set in the warp's SRP section",
          "[regmutex][core]") {
  RegMutexAllocator a(example());
  REQUIRE(a.acquire(10, 0) == AcquireOutcome::Acquired);  // section 0
  REQUIRE(a.acquire(3, 0) == AcquireOutcome::Acquired);   // section 1
  CHECK(a.physical(3, 0) == 3 * 18);
  CHECK(a.physical(3, 17) == 3 * 18 + 17);
  CHECK(a.physical(3, 18) == 864 + 1 * 6 + 0);
  CHECK(a.physical(3, 23) == 864 + 1 * 6 + 5);
  CHECK(a.physical(10, 20) == 864 + 0 * 6 + 2);
  // Every (warp, X) of the 48 warps' base sets and the 26 sections is distinct and in range.
  std::set<uint32_t> seen;
  for (uint32_t w = 0; w < 48; ++w)
    for (uint32_t x = 0; x < 18; ++x) seen.insert(a.physical(w, x));
  for (uint32_t w = 0; w < 48; ++w) {
    if (!a.holds(w) && a.acquire(w, 0) != AcquireOutcome::Acquired) continue;
    for (uint32_t x = 18; x < 24; ++x) seen.insert(a.physical(w, x));
  }
  CHECK(seen.size() == 48 * 18 + 26 * 6);
  CHECK(*seen.rbegin() == 48 * 18 + 26 * 6 - 1);
}

TEST_CASE("paired warps: two warps time-share one extended set at 2 B_s + E_s per pair",
          "[regmutex][core]") {
  RegMutexAllocator a(example(RegMutexMode::Paired));
  CHECK(a.physical(4, 0) == 2 * 42);
  CHECK(a.physical(5, 0) == 2 * 42 + 18);
  REQUIRE(a.acquire(4, 0) == AcquireOutcome::Acquired);
  CHECK(a.physical(4, 18) == 2 * 42 + 36);
  CHECK(a.acquire(5, 0) == AcquireOutcome::NoSection);  // its partner holds the set
  CHECK(a.acquire(6, 0) == AcquireOutcome::Acquired);   // another pair is independent
  CHECK(a.release(4));
  CHECK(a.acquire(5, 0) == AcquireOutcome::Acquired);
  CHECK(a.physical(5, 23) == 2 * 42 + 36 + 5);
  CHECK(example(RegMutexMode::Paired).registers_needed(48) == 24 * 42);
}

TEST_CASE("owf: the first CTA of a pair to ask owns its extended sets until it finishes",
          "[regmutex][core]") {
  RegMutexGeometry g = example(RegMutexMode::Owf);  // 8 warps per CTA
  g.resident_ctas = 6;
  RegMutexAllocator a(g);
  // CTA slots 0 and 1 are a pair: their base sets side by side, then the shared sets.
  CHECK(a.physical(2, 0) == 2 * 18);
  CHECK(a.physical(10, 0) == 8 * 18 + 2 * 18);
  REQUIRE(a.acquire(10, 1) == AcquireOutcome::Acquired);
  CHECK(a.acquire(11, 1) == AcquireOutcome::Acquired);  // same CTA: shares the ownership
  CHECK(a.acquire(2, 0) == AcquireOutcome::NoSection);
  CHECK_FALSE(a.release(10));  // no in-kernel release
  a.warp_exited(10);
  CHECK(a.acquire(2, 0) == AcquireOutcome::NoSection);  // the CTA has not finished
  a.cta_finished(1);
  CHECK(a.acquire(2, 0) == AcquireOutcome::Acquired);
  CHECK(a.physical(2, 18) == a.physical(10, 18));
}

TEST_CASE("owf layout: paired CTAs share extended sets and an unpaired last CTA has its own",
          "[regmutex][core]") {
  RegMutexGeometry g = example(RegMutexMode::Owf);
  g.resident_ctas = 5;  // pairs (0,1), (2,3); CTA 4 alone
  CHECK(g.registers_needed(40) == 2 * 8 * 42 + 8 * 24);
  std::set<uint32_t> base, ext;
  for (uint32_t w = 0; w < 40; ++w) {
    for (uint32_t x = 0; x < 18; ++x) CHECK(base.insert(g.cta_pair_physical(w, x)).second);
    for (uint32_t x = 18; x < 24; ++x) ext.insert(g.cta_pair_physical(w, x));
  }
  // 2 pairs x 8 shared sets + 8 private sets of the lone CTA, none overlapping a base set.
  CHECK(ext.size() == (2 * 8 + 8) * 6);
  for (uint32_t p : ext) CHECK(base.count(p) == 0);
  CHECK(std::max(*base.rbegin(), *ext.rbegin()) == g.registers_needed(40) - 1);
  CHECK(g.cta_pair_physical(4 * 8 + 3, 18) != g.cta_pair_physical(3 * 8 + 3, 18));
  CHECK(g.cta_pair_physical(0 * 8 + 3, 18) == g.cta_pair_physical(1 * 8 + 3, 18));
}

TEST_CASE("paired warps across CTAs: warp k of CTA slots 2c and 2c+1 share one extended set",
          "[regmutex][core]") {
  RegMutexGeometry g = example(RegMutexMode::Paired);
  g.sections = 0;
  g.srp_offset = 0;
  g.pair_ctas = true;
  g.resident_ctas = 5;  // pairs (0,1), (2,3); CTA 4 alone pairs its adjacent warps
  CHECK(g.pair_units() == 2 * 8 + 4);
  CHECK(g.registers_needed(40) == 2 * 8 * 42 + 8 * 18 + 4 * 6);
  RegMutexAllocator a(g);
  CHECK(a.free_sections() == 20);
  REQUIRE(a.acquire(3, 0) == AcquireOutcome::Acquired);
  // Warp 3 of CTA 1 is the partner and waits; warp 4 of CTA 0 has a unit of its own.
  CHECK(a.acquire(8 + 3, 1) == AcquireOutcome::NoSection);
  CHECK(a.acquire(4, 0) == AcquireOutcome::Acquired);
  CHECK(a.physical(3, 18) == g.cta_pair_physical(3, 18));
  CHECK(a.physical(3, 0) != a.physical(8 + 3, 0));
  CHECK(a.release(3));
  REQUIRE(a.acquire(8 + 3, 1) == AcquireOutcome::Acquired);
  CHECK(a.physical(8 + 3, 18) == a.physical(3, 18));
  // The lone CTA pairs warps 2 and 3, 4 and 5 of its own.
  CHECK(a.acquire(32 + 3, 4) == AcquireOutcome::Acquired);
  CHECK(a.acquire(32 + 4, 4) == AcquireOutcome::Acquired);
  CHECK(a.acquire(32 + 2, 4) == AcquireOutcome::NoSection);
  CHECK(a.free_sections() == 20 - 4);
  CHECK(a.storage_bits().pair_bitmask == 24);
  // Every base set and extended set of the launch is distinct and inside 840 registers.
  std::set<uint32_t> base, ext;
  for (uint32_t w = 0; w < 40; ++w) {
    for (uint32_t x = 0; x < 18; ++x) CHECK(base.insert(g.cta_pair_physical(w, x)).second);
    for (uint32_t x = 18; x < 24; ++x) ext.insert(g.cta_pair_physical(w, x));
  }
  CHECK(ext.size() == 20 * 6);
  for (uint32_t p : ext) CHECK(base.count(p) == 0);
  CHECK(std::max(*base.rbegin(), *ext.rbegin()) == g.registers_needed(40) - 1);
  // The default pairs adjacent warps of one CTA: warp 3 with warp 2.
  g.pair_ctas = false;
  CHECK(g.unit_of(3) == g.unit_of(2));
  CHECK(g.unit_of(3) != g.unit_of(8 + 3));
}

TEST_CASE("acquire regions: compaction moves the short-lived register into E_s",
          "[regmutex][compiler]") {
  // R0..R3 live throughout; R4 lives only between its write and its read.
  const Kernel k =
      make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]",
                    "MOV R3, c[0x0][0x2c]", "IADD R4, R0, R1", "IADD R2, R4, R2", "IADD R0, R0, R2",
                    "IADD R1, R1, R3", "IADD R0, R0, R1", "STS [R3], R0", "EXIT"}},
                  {});
  const Liveness lv = compute_liveness(k);
  const RegMutexRegions r = place_regmutex_regions(k, lv, 4, 2);
  CHECK(r.extended.count() == 1);
  CHECK(r.extended[4]);
  CHECK(r.index_of[4] == 4);
  CHECK(r.index_of[3] == 3);
  // In the acquire state: the write of R4 and its read (R4 live after / read).
  CHECK(r.acquire_state_instructions == 2);
  CHECK(r.in_acquire_state(4 * 8));
  CHECK(r.in_acquire_state(5 * 8));
  CHECK_FALSE(r.in_acquire_state(6 * 8));
  CHECK(r.acquire_points == 1);
  CHECK(r.release_points == 1);
}

TEST_CASE("acquire regions: registers live at a barrier stay in the base set",
          "[regmutex][compiler]") {
  const Kernel k =
      make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]",
                    "BAR.SYNC 0x0", "IADD R0, R0, R1", "IADD R0, R0, R2", "STS [R0], R0", "EXIT"}},
                  {});
  const Liveness lv = compute_liveness(k);
  // R0, R1, R2 are all live at the barrier: none can go to E_s with B_s = 2.
  CHECK_THROWS_AS(place_regmutex_regions(k, lv, 2, 2), std::invalid_argument);
  const RegMutexRegions r = place_regmutex_regions(k, lv, 3, 2);
  CHECK(r.extended.none());
  CHECK(r.acquire_state_instructions == 0);
}

TEST_CASE("plan: a forced E_s that breaks a deadlock rule is a ConfigError before the run",
          "[regmutex][deadlock]") {
  const Kernel k = make_kernel(
      {{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]", "BAR.SYNC 0x0",
        "IADD R0, R0, R1", "MOV R5, R2", "IADD R0, R0, R5", "STS [R0], R0", "EXIT"}},
      {});
  const KernelShape shape = small_launch(4, 256);
  const SmLimits sm;
  // Rule 2: three registers live at the barrier, B_s = 8 - 6 = 2.
  CHECK_THAT(config_error(
                 [&] { plan_regmutex(k, shape, sm, RegMutexMode::Shared, 6, sm.registers / 32); }),
             Catch::Contains("deadlock rule") && Catch::Contains("barrier"));
  // Rule 1: a register file that the base sets fill leaves no room for one E_s.
  CHECK_THAT(config_error([&] { plan_regmutex(k, shape, sm, RegMutexMode::Shared, 2, 8 * 6); }),
             Catch::Contains("deadlock rule") && Catch::Contains("less than one"));
  const RegMutexPlan ok = plan_regmutex(k, shape, sm, RegMutexMode::Shared, 4, sm.registers / 32);
  CHECK(ok.applied);
  CHECK(ok.geometry.bs == 4);
  CHECK(ok.geometry.sections > 0);
}

TEST_CASE("regmutex plan: pairing CTAs is for paired mode and changes the pair layout",
          "[regmutex][compiler]") {
  const Kernel k = make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "IADD R5, R0, R1",
                                 "IADD R0, R0, R5", "STS [R0], R0", "EXIT"}},
                               {});
  const KernelShape shape = small_launch(16, 96);  // 3 warps: adjacent pairs straddle CTAs
  const SmLimits sm;
  CHECK_THAT(config_error([&] {
               plan_regmutex(k, shape, sm, RegMutexMode::Shared, 4, sm.registers / 32, true);
             }),
             Catch::Contains("regmutex.pairing = ctas"));
  const RegMutexPlan warps = plan_regmutex(k, shape, sm, RegMutexMode::Paired, 4, 120);
  const RegMutexPlan ctas = plan_regmutex(k, shape, sm, RegMutexMode::Paired, 4, 120, true);
  CHECK_FALSE(warps.geometry.pair_ctas);
  CHECK(ctas.geometry.pair_ctas);
  CHECK_THAT(ctas.decision, Catch::Contains("pairs of CTAs"));
  // 120 warp registers, 2|B_s| + |E_s| = 12 per unit: adjacent pairs fit 10 units = 20
  // warps = 6 CTAs; CTA pairs need 3 units of 12 per pair of CTAs and 3 x 4 + 2 x 4 for a
  // lone CTA: 3 pairs (108) and no room for a seventh CTA's 20.
  CHECK(warps.geometry.resident_ctas == 6);
  CHECK(ctas.geometry.resident_ctas == 6);
  CHECK(ctas.geometry.registers_needed(18) == 3 * 3 * 12);
}

TEST_CASE("plan: per-release compaction bounds B_s by the most live at one barrier, not the union",
          "[regmutex][deadlock]") {
  // Two barriers: R0, R1 live at the first, R2, R3 at the second. The union is 4
  // registers, each barrier has 2.
  const Kernel k = make_kernel(
      {{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "BAR.SYNC 0x0", "IADD R2, R0, R1",
        "IADD R3, R0, R1", "BAR.SYNC 0x0", "IADD R2, R2, R3", "STS [R2], R2", "EXIT"}},
      {});
  const KernelShape shape = small_launch(4, 256);
  const SmLimits sm;
  // |E_s| = 5 leaves |B_s| = 3: too few for the union, enough for either barrier.
  CHECK_THAT(config_error([&] {
               plan_regmutex(k, shape, sm, RegMutexMode::Shared, 5, sm.registers / 32, false,
                             RegMutexCompaction::Static);
             }),
             Catch::Contains("deadlock rule") && Catch::Contains("4 registers"));
  const RegMutexPlan plan = plan_regmutex(k, shape, sm, RegMutexMode::Shared, 5, sm.registers / 32,
                                          false, RegMutexCompaction::PerRelease);
  CHECK(plan.applied);
  CHECK(plan.barrier_live == 2);
  CHECK(plan.geometry.bs == 3);
  CHECK(plan.regions.per_release);
  // OWF renumbers once per kernel whatever the parameter says.
  CHECK_THROWS_AS(plan_regmutex(k, shape, sm, RegMutexMode::Owf, 5, sm.registers / 32, false,
                                RegMutexCompaction::PerRelease),
                  ConfigError);
}

TEST_CASE("acquire regions with per-release compaction: the paper's count of live registers",
          "[regmutex][compiler]") {
  // R0..R3 live throughout, R4 briefly: with B_s = 4 only the instructions with five
  // registers live or written are in the acquire state, whichever register it is.
  const Kernel k =
      make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]",
                    "MOV R3, c[0x0][0x2c]", "IADD R4, R0, R1", "IADD R2, R4, R2", "IADD R0, R0, R2",
                    "IADD R1, R1, R3", "IADD R0, R0, R1", "STS [R3], R0", "EXIT"}},
                  {});
  const Liveness lv = compute_liveness(k);
  const RegMutexRegions r = place_per_release_regions(k, lv, 4, 2);
  CHECK(r.per_release);
  CHECK(r.acquire_state_instructions == 2);  // the write of R4 and its read
  CHECK(r.acquire_state_instructions == r.over_base_instructions);
  CHECK(r.in_acquire_state(4 * 8));
  CHECK(r.in_acquire_state(5 * 8));
  CHECK(r.acquire_points == 1);
  CHECK(r.release_points == 1);
  REQUIRE(r.live_before(6 * 8) != nullptr);
  CHECK(r.live_before(6 * 8)->count() == 4);  // R0..R3 (R2 just written)
  CHECK(r.live_before(0x1000) == nullptr);
  // Nothing is live at the entry: the first indices are the registers in order.
  for (uint16_t reg = 0; reg < 6; ++reg) CHECK(r.index_of[reg] == reg);
  // A barrier with more than B_s registers live is deadlock rule 2.
  const Kernel busy =
      make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]",
                    "BAR.SYNC 0x0", "IADD R0, R0, R1", "IADD R0, R0, R2", "STS [R0], R0", "EXIT"}},
                  {});
  CHECK_THROWS_AS(place_per_release_regions(busy, compute_liveness(busy), 2, 2),
                  std::invalid_argument);
}

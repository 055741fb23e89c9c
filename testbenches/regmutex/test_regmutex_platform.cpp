// Whole-platform runs of the RegMutex presets on RegMutex profiles: zero integrity
// mismatches, occupancy from the base set, stalls that resolve, and the deadlock rule
// reported before the run.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;

namespace {

nlohmann::json run_platform(const std::string& preset, const std::string& workload,
                            const std::vector<std::string>& sets,
                            const std::vector<std::string>& designs = {}) {
  const Params params = Params::load(preset, sets, designs);
  SmPlatform platform(params, open_workload(workload, params));
  return platform.run();
}

void check_clean(const nlohmann::json& s) {
  INFO(s.value("error", std::string()));
  CHECK(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 1000);
}

}  // namespace

// TPACF: 28 (32) registers, B_s = 20; its pressure bursts reach the acquire state.
// (BFS, Table I's first row, keeps at most B_s registers live once calibrated to the
// real BFS: RegMutex applies there but no warp ever acquires.)
TEST_CASE("regmutex preset on tpacf: more warps resident and zero mismatches",
          "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex", "regmutex-tpacf", {"profile.ctas=12"});
  check_clean(s);
  const nlohmann::json& b = s["blocks"]["regmutex"];
  CHECK(b["applied"] == true);
  CHECK(b["base_regs"] == 20);
  CHECK(s["occupancy"]["warps"] == 48);
  CHECK(b["baseline_warps"] == 32);
  CHECK(b["acquires"].get<uint64_t>() > 0);
  CHECK(b["releases"].get<uint64_t>() + b["released_at_exit"].get<uint64_t>() ==
        b["acquires"].get<uint64_t>());
  CHECK(b["extended_accesses"].get<uint64_t>() > 0);
  CHECK(b["compaction"] == "per_release");
  CHECK(b["compaction_moves"].get<uint64_t>() > 0);
  CHECK(s["metadata_instructions"] == b["acquires"].get<uint64_t>() +
                                          b["releases"].get<uint64_t>() +
                                          b["compaction_moves"].get<uint64_t>());
}

TEST_CASE("regmutex-paired preset on lavamd: zero mismatches", "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex-paired", "regmutex-lavamd", {"profile.ctas=12"});
  check_clean(s);
  const nlohmann::json& b = s["blocks"]["regmutex"];
  CHECK(b["mode"] == "paired");
  CHECK(b["applied"] == true);
  CHECK(b["acquires"].get<uint64_t>() > 0);
  CHECK(s["occupancy"]["warps"].get<uint32_t>() > b["baseline_warps"].get<uint32_t>());
}

TEST_CASE("regmutex-paired-ctas preset on tpacf: pairs across CTAs and a lone CTA, zero mismatches",
          "[regmutex][platform]") {
  // 8-warp CTAs, 5 resident: CTA slots 0-1 and 2-3 pair, slot 4 pairs its own warps.
  const nlohmann::json s =
      run_platform("regmutex-paired-ctas", "regmutex-tpacf", {"profile.ctas=12"});
  check_clean(s);
  const nlohmann::json& b = s["blocks"]["regmutex"];
  CHECK(b["mode"] == "paired");
  CHECK_THAT(b["decision"].get<std::string>(), Catch::Contains("pairs of CTAs"));
  CHECK(b["acquires"].get<uint64_t>() > 0);
  CHECK(s["occupancy"]["warps"] == 40);
  CHECK(b["baseline_warps"] == 32);
}

TEST_CASE("regmutex-64k preset on gaussian: zero mismatches", "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex-64k", "regmutex-gaussian", {"profile.ctas=12"});
  check_clean(s);
  CHECK(s["params"]["sm.registers"] == 16384);
  CHECK(s["blocks"]["regmutex"]["applied"] == true);
  CHECK(s["blocks"]["regmutex"]["acquires"].get<uint64_t>() > 0);
}

TEST_CASE("regmutex-owf preset on bfs: zero mismatches", "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex-owf", "regmutex-bfs", {"profile.ctas=12"});
  check_clean(s);
  const nlohmann::json& b = s["blocks"]["regmutex"];
  CHECK(b["applied"] == true);
  CHECK(b["acquires"].get<uint64_t>() > 0);
  CHECK(b["releases"] == 0);  // one acquire per warp lifetime
  CHECK(s["metadata_instructions"] == 0);
}

TEST_CASE("regmutex: a small pool makes warps stall and retry and the kernel still finishes",
          "[regmutex][platform]") {
  // |E_s| = 12 of 24 registers: B_s = 12, many warps, few large sections.
  const nlohmann::json s =
      run_platform("regmutex", "regmutex-bfs", {"profile.ctas=12", "regmutex.extended_regs=12"});
  check_clean(s);
  const nlohmann::json& b = s["blocks"]["regmutex"];
  CHECK(b["failed_acquire_attempts"].get<uint64_t>() > 0);
  CHECK(b["acquire_success_rate"].get<double>() < 1.0);
  CHECK(s["issue_hook_waits"].get<uint64_t>() > 0);
}

TEST_CASE("regmutex: breaking the barrier deadlock rule is a ConfigError before the run",
          "[regmutex][platform][deadlock]") {
  // CUTCP has a CTA barrier; forcing nearly every register into E_s puts barrier-live
  // registers there.
  const Params params = Params::load("regmutex", {"regmutex.extended_regs=24"});
  try {
    SmPlatform platform(params, open_workload("regmutex-cutcp", params));
    FAIL("the platform elaborated");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("deadlock rule"));
  }
}

TEST_CASE("regmutex: a workload without static code is a clear ConfigError",
          "[regmutex][platform]") {
  const Params params = Params::load("regmutex", {});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("synthetic", params)),
                    Catch::Contains("static code"));
}

TEST_CASE("regmutex on a real kernel: regions follow the operands the driver executes",
          "[regmutex][platform]") {
  // parboil BFS's multi-block kernel has LDS.128 R12 (R12-R15); the driver carries two
  // destinations, so R14 keeps an older value that is read again: the regions must keep
  // it in the acquire state, or a released section loses it (an integrity mismatch).
  const std::string dot = warpreg::testing::shared_cfg("bfs_parboil.dot") +
                          ":_Z26BFS_kernel_multi_blk_inGPUPiS_P4int2S1_S_S_S_S_iiS_S_S_S_";
  const nlohmann::json s = run_platform("regmutex", dot, {"dot.ctas=24"});
  check_clean(s);
  CHECK(s["blocks"]["regmutex"]["applied"] == true);
  CHECK(s["blocks"]["regmutex"]["acquires"].get<uint64_t>() > 0);
}

TEST_CASE("regmutex with warped-compression: names are translated before the codec",
          "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex", "regmutex-tpacf", {"profile.ctas=12"}, {"wc"});
  check_clean(s);
  CHECK(s["blocks"]["regmutex"]["applied"] == true);
  CHECK(s["blocks"]["regmutex"]["acquires"].get<uint64_t>() > 0);
  CHECK(s["blocks"].contains("wc"));
}

TEST_CASE("regmutex and rfv together are a clear ConfigError", "[regmutex][platform]") {
  const Params params = Params::load("regmutex", {}, {"rfv"});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("regmutex-bfs", params)),
                    Catch::Contains("designs 'regmutex' and 'rfv' cannot be combined: both "
                                    "take over the register names"));
}

// RegMutex is a translation stage: TRIC and COMA after it see physical names, and TRIC
// sees RegMutex's own Launch / Retire of base sets and SRP sections, so no access finds
// its entry OFF (fermi40 has every block's coefficients). Per-release compaction's MOVs
// wake their base destination and write it the ALU's latency after the read, as any
// instruction, so TRIC (3-cycle wake-up) has it ON: written right after the read, 22 of
// TPACF's MOVs found it still waking (drowsy_access).
TEST_CASE("regmutex with tric and coma: clean content check on physical ranges",
          "[regmutex][platform]") {
  const nlohmann::json s = run_platform(
      "regmutex", "regmutex-tpacf", {"profile.ctas=12", "power.tech=fermi40"}, {"tric", "coma"});
  check_clean(s);
  const nlohmann::json& tric = s["blocks"]["tric"];
  const nlohmann::json& regmutex = s["blocks"]["regmutex"];
  REQUIRE(regmutex["applied"] == true);
  REQUIRE(regmutex["compaction_moves"].get<uint64_t>() > 0);
  CHECK(tric["violations"]["off_access"] == 0);
  CHECK(tric["violations"]["drowsy_access"] == 0);
  CHECK(tric["late_calls"] == 0);
  CHECK(s["blocks"]["coma"]["mask_mismatches"] == 0);
  // Entries allocated: every section taken, on top of the base sets.
  CHECK(tric["launches"].get<uint64_t>() >=
        regmutex["acquires"].get<uint64_t>() * regmutex["extended_regs"].get<uint64_t>());
  const nlohmann::json& allocator = s["blocks"]["regmutex.srp_allocator"];
  CHECK(allocator["events"]["acquires"] == regmutex["acquires"]);
  // The mapping unit also names the extended destinations TRIC and COMA are woken for.
  CHECK(allocator["events"]["lut_reads"].get<uint64_t>() >
        regmutex["extended_accesses"].get<uint64_t>());
  CHECK(allocator["storage_bits"] == 384);
}

TEST_CASE("regmutex preset: the SRP allocator's energy comes from wc45", "[regmutex][platform]") {
  const nlohmann::json s = run_platform("regmutex", "regmutex-tpacf", {"profile.ctas=12"});
  check_clean(s);
  const nlohmann::json& allocator = s["blocks"]["regmutex.srp_allocator"];
  const nlohmann::json& events = allocator["events"];
  const double expected =
      0.245983 * (events["acquires"].get<double>() + events["failed_acquires"].get<double>() +
                  events["releases"].get<double>()) +
      0.0289893 * events["lut_reads"].get<double>();
  CHECK(allocator["dynamic_pj"].get<double>() == Approx(expected));
  CHECK(expected > 0);
  CHECK(events["lut_reads"] == s["blocks"]["regmutex"]["extended_accesses"]);
}

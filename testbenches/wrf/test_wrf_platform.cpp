// Whole-platform runs of the Warped Register File presets on the synthetic
// workload: zero integrity mismatches, zero content-check violations, and the
// blocks' books agreeing with the register file's.
#include <catch2/catch.hpp>

#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;

namespace {

const std::vector<std::string> kSmall = {"synth.ctas=12", "synth.insts_per_warp=120"};

nlohmann::json run(const std::string& preset, std::vector<std::string> sets = kSmall) {
  const Params params = Params::load(preset, sets);
  SmPlatform platform(params, open_workload("synthetic", params));
  return platform.run();
}

void check_clean(const nlohmann::json& s) {
  INFO(s.value("error", std::string()));
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 1000);
}

void check_tric(const nlohmann::json& s) {
  const nlohmann::json& tric = s["blocks"]["tric"];
  CHECK(tric["violations"]["off_access"] == 0);
  CHECK(tric["violations"]["drowsy_access"] == 0);
  // Every source read and every destination write woke an entry or found it on.
  CHECK(tric["wakeups"].get<uint64_t>() + tric["stay_on"].get<uint64_t>() >=
        s["rf"]["reads"].get<uint64_t>());
  CHECK(tric["sleeps"].get<uint64_t>() > 0);
  CHECK(tric["late_calls"] == 0);
  const nlohmann::json& entries = tric["entry_cycles"];
  CHECK(entries["on"].get<uint64_t>() + entries["drowsy"].get<uint64_t>() +
            entries["off"].get<uint64_t>() ==
        1024 * s["cycles"].get<uint64_t>());
  // The register file accounts the cells TRIC controls: its leakage is TRIC's saving
  // off the file all ON, and TRIC has none of its own.
  const nlohmann::json& regfile = s["blocks"]["regfile"];
  CHECK(regfile["power_controllers"] == nlohmann::json({"tric"}));
  CHECK(tric["leakage_pj"] == 0.0);
  CHECK(regfile["leakage_pj"].get<double>() == Approx(tric["all_on_leakage_pj"].get<double>() *
                                                      (1 - tric["leakage_saving"].get<double>())));
  CHECK(regfile["leakage_pj"].get<double>() < 0.5 * tric["all_on_leakage_pj"].get<double>());
  const nlohmann::json& cells = regfile["residency"]["cells"];
  const uint64_t slices = s["params"]["rf.lane_slices"].get<uint64_t>();
  CHECK(cells["on"].get<uint64_t>() == entries["on"].get<uint64_t>() * slices);
  CHECK(cells["drowsy"].get<uint64_t>() == entries["drowsy"].get<uint64_t>() * slices);
}

void check_coma(const nlohmann::json& s) {
  const nlohmann::json& coma = s["blocks"]["coma"];
  CHECK(coma["mask_mismatches"] == 0);
  CHECK(coma["events"]["table_reads"] == s["rf"]["reads"]);
  CHECK(coma["events"]["table_writes"] == s["blocks"]["collectors"]["allocations"]);
  // One lane slice per lane: the banks switched exactly the lanes COMA let through.
  const nlohmann::json& rf = s["blocks"]["regfile"]["events"];
  CHECK(rf["slice_reads"].get<uint64_t>() + rf["slice_writes"].get<uint64_t>() ==
        coma["lanes_accessed"].get<uint64_t>());
  CHECK(coma["lanes_gated"].get<uint64_t>() > 0);
  uint64_t histogram_reads = 0;
  for (const auto& n : coma["read_active_lanes"]) histogram_reads += n.get<uint64_t>();
  CHECK(histogram_reads == s["rf"]["reads"].get<uint64_t>());
}

}  // namespace

TEST_CASE("wrf platform: wrf-tric runs clean with entries drowsy most of the time",
          "[wrf][platform]") {
  const nlohmann::json s = run("wrf-tric");
  check_clean(s);
  check_tric(s);
  CHECK(s["blocks"]["tric"]["delay_cycles"].get<uint64_t>() > 0);  // 3-cycle wake-up
  // Without COMA the dynamic saving is 0: at 5:1 the total is the leakage saving
  // weighted by the leakage's share of the baseline's power, 1 / (5 a + 1), where wrf32's
  // access (8 pJ) is twice a bank's leakage per cycle, so a = dynamic / (2 x all ON).
  const nlohmann::json& tric = s["blocks"]["tric"];
  CHECK(tric["dynamic_saving"] == 0.0);
  const double a = s["blocks"]["regfile"]["dynamic_pj"].get<double>() /
                   (2 * tric["all_on_leakage_pj"].get<double>());
  CHECK(tric["access_to_bank_leakage"].get<double>() == Approx(a));
  CHECK(tric["weighted_saving"]["r5"].get<double>() ==
        Approx(tric["leakage_saving"].get<double>() / (5 * a + 1)));
}

TEST_CASE("wrf platform: wrf-coma runs clean with reads gated by the active mask",
          "[wrf][platform]") {
  const nlohmann::json s = run("wrf-coma");
  check_clean(s);
  check_coma(s);
}

TEST_CASE("wrf platform: wrf runs clean with TRIC and COMA together", "[wrf][platform]") {
  const nlohmann::json s = run("wrf");
  check_clean(s);
  check_tric(s);
  check_coma(s);
  CHECK(s["blocks"]["tric"]["storage_bits"] == 2 * 1024);
  CHECK(s["blocks"]["coma"]["storage_bits"] == 512);
}

TEST_CASE("wrf platform: a one-cycle wake-up never delays an access", "[wrf][platform]") {
  const nlohmann::json s =
      run("wrf-tric", {"synth.ctas=12", "synth.insts_per_warp=120", "tric.wakeup_latency=1"});
  check_clean(s);
  check_tric(s);
  CHECK(s["blocks"]["tric"]["delayed_accesses"] == 0);
}

TEST_CASE("wrf platform: describe lists TRIC and COMA storage", "[wrf][platform]") {
  const Params params = Params::load("wrf", kSmall);
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json d = platform.describe();
  CHECK(d["operand_path"] ==
        nlohmann::json({"sm.collectors", "crossbar", "tric", "coma", "regfile"}));
  CHECK(d["blocks"]["tric"]["storage_bits"]["power_state"] == 2048);
  CHECK(d["blocks"]["coma"]["storage_bits"]["mask_table"] == 512);
  CHECK(d["blocks"]["coma"]["organisation"]["entries"] == 16);
}

TEST_CASE("wrf platform: a two-cycle look-ahead hides a three-cycle wake-up", "[wrf][platform]") {
  const nlohmann::json s =
      run("wrf-tric", {"synth.ctas=12", "synth.insts_per_warp=120", "tric.lookahead=2"});
  check_clean(s);
  check_tric(s);
  // Only the first reads after a warp's launch can still wait (nothing to look ahead of).
  CHECK(s["blocks"]["tric"]["delayed_accesses"].get<uint64_t>() * 100 <
        s["rf"]["reads"].get<uint64_t>());
}

TEST_CASE("wrf platform: TRIC on a table without its coefficients names table and key",
          "[wrf][platform]") {
  const Params params = Params::load("wrf-tric", {"power.tech=wc45"});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("synthetic", params)),
                    Catch::Contains("wc45") && Catch::Contains("tric_transition"));
}

// A real benchmark profile (seed 002 Table 1's nn: 16-thread CTAs, 8 resident) instead
// of the synthetic kernel: clean, and the characterisation figures follow from the
// profile's shape.
TEST_CASE("wrf platform: wrf on the wrf-nn profile runs clean with half-empty warps",
          "[wrf][platform]") {
  const Params params = Params::load("wrf", {"profile.ctas=64"});
  SmPlatform platform(params, open_workload("wrf-nn", params));
  const nlohmann::json s = platform.run();
  check_clean(s);
  check_tric(s);
  check_coma(s);
  const nlohmann::json& tric = s["blocks"]["tric"];
  const nlohmann::json& coma = s["blocks"]["coma"];
  // COMA serialises each bank's accesses (coma.bank_ports), so the register file's
  // arbiter finds its ports free and COMA counts the conflicts.
  CHECK(s["rf"]["bank_conflicts"] == 0);
  CHECK(coma["bank_conflicts"]["reads"].get<uint64_t>() > 0);
  CHECK(coma["bank_conflicts"]["read_cycles"].get<uint64_t>() >=
        coma["bank_conflicts"]["reads"].get<uint64_t>());
  // Table 1: at full occupancy the resident warps hold warps x registers of 1024 entries.
  const nlohmann::json& occ = s["occupancy"];
  CHECK(tric["allocated_share"]["peak"].get<double>() ==
        Approx(occ["warps"].get<double>() * occ["regs_per_thread"].get<double>() / 1024));
  CHECK(tric["allocated_share"]["mean"].get<double>() <=
        tric["allocated_share"]["peak"].get<double>());
  // 16 threads per CTA: every warp instruction has at most 16 active lanes, so COMA
  // keeps at least half of every register access idle (Figure 3's category 3).
  CHECK(coma["instructions_by_lanes"]["lanes_0_16"] == 1.0);
  CHECK(coma["instructions_by_lanes"]["utilisation"].get<double>() <= 0.5);
  CHECK(coma["gated_share"].get<double>() >= 0.5);
  // Figure 7's bars, and the total as seed §6.4 defines it: one 128-byte access costs r
  // cycles of a bank's leakage (wrf32: 8 pJ = 2 x 5.6 mW / 1.4 GHz, so r = 2 is the
  // measured energies), 1 - (r/2 E_dyn + E_leak) / (r/2 E_dyn,base + E_leak,base).
  const double leak = tric["leakage_saving"].get<double>();
  const double dyn = tric["dynamic_saving"].get<double>();
  CHECK(dyn == coma["gated_share"].get<double>());
  CHECK(leak == Approx(1 - s["blocks"]["regfile"]["leakage_pj"].get<double>() /
                               tric["all_on_leakage_pj"].get<double>()));
  CHECK(leak > 0.9);  // about 90 % of the file is never allocated
  // The baseline's dynamic energy: every access the banks served, whole (8 pJ); COMA
  // leaves (1 - dynamic saving) of it.
  const double e_dyn_base =
      8.0 * (s["rf"]["reads"].get<double>() + s["rf"]["writes"].get<double>());
  const double e_dyn = e_dyn_base * (1 - dyn);
  const double e_leak = s["blocks"]["regfile"]["leakage_pj"].get<double>();
  const double e_leak_base = tric["all_on_leakage_pj"].get<double>();
  for (const int r : {2, 5, 8}) {
    INFO("r = " << r);
    CHECK(tric["weighted_saving"]["r" + std::to_string(r)].get<double>() ==
          Approx(1 - (r / 2.0 * e_dyn + e_leak) / (r / 2.0 * e_dyn_base + e_leak_base)));
  }
}

// RFV's renaming-table lookup adds a cycle to some accesses: TRIC after it sees
// transactions dated out of order (this once stopped with "TRIC: cycle 5 after cycle 6").
TEST_CASE("wrf platform: rfv before tric runs to the end", "[wrf][platform]") {
  const Params params =
      Params::load("baseline", {"power.tech=fermi40", "profile.ctas=8"}, {"rfv", "tric"});
  SmPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json s = platform.run();
  check_clean(s);
  CHECK(s["blocks"]["tric"]["late_calls"] == 0);
}

// WRF's own table has no renaming-table energy: the combination names what is missing.
TEST_CASE("wrf platform: rfv on wrf32 names the coefficient it lacks", "[wrf][platform]") {
  const Params params = Params::load("baseline", {"power.tech=wrf32"}, {"rfv", "tric"});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("rfv-hotspot", params)),
                    Catch::Contains("rfv.renaming_table needs the coefficient "
                                    "\"renaming_table_access\""));
}

// Warped-Compression before COMA on a real kernel: compressed registers are read whole
// (their image is not lane-aligned), so no operand the SM receives is wrong.
TEST_CASE("wrf platform: wc before coma on a real kernel runs clean", "[wrf][platform]") {
  const Params params = Params::load("baseline", {"power.tech=fermi40"}, {"wc", "coma"});
  SmPlatform platform(params, open_workload(warpreg::testing::shared_cfg("hotspot.dot"), params));
  const nlohmann::json s = platform.run();
  check_clean(s);
  CHECK(s["blocks"]["coma"]["ungated_reads"].get<uint64_t>() > 0);
  CHECK(s["blocks"]["coma"]["mask_mismatches"] == 0);
}

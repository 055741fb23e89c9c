// Whole-platform runs of the LTRF presets on LTRF's register-sensitive profile: zero
// integrity mismatches, every LTRF read served by the cache, LTRF+ fetching less, the
// SM's register file as the main register file, and LTRF combined with the power
// controllers behind it and the codec in front of it.
#include <catch2/catch.hpp>

#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/support/cli_runner.h"

using namespace warpreg;

namespace {

const std::string kProfile = WARPREG_SOURCE_DIR "/stimuli/profiles/ltrf-register-sensitive.json";

nlohmann::json run(const std::string& preset, std::vector<std::string> sets = {},
                   const std::vector<std::string>& designs = {}) {
  sets.push_back("profile.ctas=8");
  const Params params = Params::load(preset, sets, designs);
  SmPlatform platform(params, open_workload(kProfile, params));
  const nlohmann::json s = platform.run();
  INFO(s.value("error", std::string()));
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 10000);
  return s;
}

}  // namespace

TEST_CASE("ltrf platform: ltrf runs clean with every read hitting the cache", "[ltrf][platform]") {
  const nlohmann::json s = run("ltrf");
  const nlohmann::json& b = s["blocks"]["ltrf"];
  CHECK(b["hit_rate"] == 1.0);
  CHECK(b["prefetches"].get<uint64_t>() > 0);
  CHECK(b["fetched"].get<uint64_t>() > 0);
  CHECK(b["main_rf_latency_multiplier"] == 6.3);
  CHECK(b["unfetched_reads"] == 0);
  // The SM's register file is the main register file: it serves every fill, write-back
  // and uncached result, and accounts its own cells.
  const nlohmann::json& rf = s["blocks"]["regfile"];
  CHECK(rf["reads"] == b["main_reads"]);
  CHECK(rf["writes"] == b["main_writes"]);
  CHECK(rf["technology"].get<std::string>().find("ltrf.main_rf_config = 7") == 0);
  CHECK(rf["leakage_pj"].get<double>() > 0.0);
  CHECK(s["blocks"]["ltrf.register_file_cache"]["reads"] == b["read_hits"]);
  CHECK(s["blocks"]["ltrf.address_allocation_unit"]["wcb_lookups"].get<uint64_t>() > 0);
}

TEST_CASE("ltrf platform: the main register file has Table 2's banks and latency",
          "[ltrf][platform]") {
  const Params params = Params::load("ltrf", {"profile.ctas=8", "ltrf.main_rf_config=6"});
  SmPlatform platform(params, open_workload(kProfile, params));
  const nlohmann::json d = platform.describe();
  const nlohmann::json& rf = d["blocks"]["regfile"];
  CHECK(rf["organisation"]["banks"] == 16 * 8);
  CHECK(rf["latency_cycles"]["read"] == 5);  // round(5.3 x rf.read_latency = 1)
  CHECK(rf["technology"]["access_energy_multiplier"] == 1.05);
  CHECK(d["operand_path"] == nlohmann::json{"sm.collectors", "crossbar", "ltrf", "regfile"});
}

TEST_CASE("ltrf platform: ltrf-plus runs clean and allocates dead registers", "[ltrf][platform]") {
  const nlohmann::json s = run("ltrf-plus");
  const nlohmann::json& b = s["blocks"]["ltrf"];
  CHECK(b["hit_rate"] == 1.0);
  CHECK(b["allocated_dead"].get<uint64_t>() > 0);
  CHECK(b["dropped_dead"].get<uint64_t>() > 0);
}

TEST_CASE("ltrf platform: rfc runs clean with a partial hit rate", "[ltrf][platform]") {
  const nlohmann::json s = run("rfc");
  const double hit = s["blocks"]["ltrf"]["hit_rate"];
  CHECK(hit > 0.0);
  CHECK(hit < 1.0);
}

TEST_CASE("ltrf platform: rfc with Gebhart's active pool runs clean", "[ltrf][platform]") {
  const nlohmann::json s = run("rfc", {"ltrf.rfc_sharing=pool"});
  CHECK(s["blocks"]["ltrf"]["activations"].get<uint64_t>() > 0);
}

TEST_CASE("ltrf platform: ltrf on a workload without static code is a config error",
          "[ltrf][platform]") {
  const Params params = Params::load("ltrf", {});
  CHECK_THROWS_AS(SmPlatform(params, open_workload("synthetic", params)), ConfigError);
}

TEST_CASE("ltrf platform: coma behind ltrf leaves the fills whole", "[ltrf][platform]") {
  // wc45 has no coefficient for COMA's mask table: the combination runs on fermi40.
  const nlohmann::json s = run("ltrf", {"power.tech=fermi40"}, {"coma"});
  CHECK(s["blocks"]["ltrf"]["unfetched_reads"] == 0);
  CHECK(s["blocks"]["ltrf"]["hit_rate"] == 1.0);
  CHECK(s["blocks"]["coma"]["writeback_masks"].get<uint64_t>() > 0);
}

TEST_CASE("ltrf platform: wc in front of ltrf caches compressed registers", "[ltrf][platform]") {
  const nlohmann::json s = run("ltrf", {}, {"wc"});
  // Every operand the collectors read hits; only WC's own reads (the dummy MOV before a
  // divergent write) can find a warp outside the active pool.
  CHECK(s["blocks"]["ltrf"]["read_misses"].get<uint64_t>() <=
        s["blocks"]["wc"]["dummy_movs"].get<uint64_t>());
  CHECK(s["blocks"]["ltrf"]["read_hits"].get<uint64_t>() >=
        s["integrity"]["checked_reads"].get<uint64_t>());
}

TEST_CASE("ltrf platform: ltrf-strand runs clean with more prefetches than ltrf",
          "[ltrf][platform]") {
  const nlohmann::json s = run("ltrf-strand");
  const nlohmann::json& b = s["blocks"]["ltrf"];
  CHECK(b["hit_rate"] == 1.0);
  CHECK(b["instructions_per_prefetch"].get<double>() < 7.0);
}

TEST_CASE("ltrf platform: warpreg designs says ltrf states the register file's technology",
          "[ltrf][platform]") {
  const testing::Outcome o = testing::run_warpreg("designs --json");
  INFO(o);
  REQUIRE(o.status == 0);
  for (const auto& d : nlohmann::json::parse(o.out))
    CHECK(d["states_regfile_technology"] == (d["name"] == "ltrf"));
}

// Whole-platform runs of the LTRF presets on LTRF's register-sensitive profile: zero
// integrity mismatches, every LTRF read served by the cache, LTRF+ fetching less.
#include <catch2/catch.hpp>

#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

const std::string kProfile = WARPREG_SOURCE_DIR "/stimuli/profiles/ltrf-register-sensitive.json";

nlohmann::json run(const std::string& preset, std::vector<std::string> sets = {}) {
  sets.push_back("profile.ctas=8");
  const Params params = Params::load(preset, sets);
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
  CHECK(b["main_rf_latency_cycles"] == 6);
  CHECK(b["unfetched_reads"] == 0);
  CHECK(s["blocks"]["regfile"]["leakage_accounted_by"] == "ltrf");
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

TEST_CASE("ltrf platform: ltrf-strand runs clean with more prefetches than ltrf",
          "[ltrf][platform]") {
  const nlohmann::json s = run("ltrf-strand");
  const nlohmann::json& b = s["blocks"]["ltrf"];
  CHECK(b["hit_rate"] == 1.0);
  CHECK(b["instructions_per_prefetch"].get<double>() < 7.0);
}

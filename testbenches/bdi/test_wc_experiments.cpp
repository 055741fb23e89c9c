// The Warped-Compression experiment specs (experiments/wc-*.json): they parse, pair every
// wc point with its wc-baseline point, keep their quick variants small, and name only
// statistics the wc stage reports.
#include <catch2/catch.hpp>
#include <set>

#include "apps/sweep/sweep_spec.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

const char* const kExperiments[] = {
    "wc-benchmarks",    "wc-scheduler",     "wc-variants",         "wc-unit-energy",
    "wc-access-energy", "wc-wire-activity", "wc-compress-latency", "wc-decompress-latency"};

std::string spec_path(const std::string& name) {
  return std::string(WARPREG_SOURCE_DIR) + "/experiments/" + name + ".json";
}

/// A dotted name inside a JSON object, or nullptr.
const nlohmann::json* find(const nlohmann::json& j, const std::string& dotted) {
  const nlohmann::json* node = &j;
  size_t start = 0;
  while (true) {
    const size_t dot = dotted.find('.', start);
    const std::string key = dotted.substr(start, dot - start);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
}

}  // namespace

TEST_CASE("wc experiments: every spec pairs each wc point with its baseline and quick is small",
          "[bdi][wc][experiments]") {
  for (const char* name : kExperiments) {
    INFO(name);
    for (const bool quick : {false, true}) {
      INFO("quick " << quick);
      const sweep::Spec spec = sweep::load_spec(spec_path(name), quick);
      const std::vector<sweep::Point> points = sweep::expand(spec);
      const std::vector<int> baseline = sweep::baseline_of(spec, points);
      REQUIRE(baseline.size() == points.size());
      size_t wc_points = 0;
      std::set<std::string> workloads;
      for (size_t i = 0; i < points.size(); ++i) {
        workloads.insert(points[i].workload);
        if (points[i].preset != "wc") continue;
        ++wc_points;
        REQUIRE(baseline[i] >= 0);
        const sweep::Point& b = points[size_t(baseline[i])];
        CHECK(b.preset == "wc-baseline");
        CHECK(b.workload == points[i].workload);
        CHECK(b.sets == points[i].sets);
      }
      CHECK(wc_points * 2 == points.size());
      if (quick) {
        CHECK(points.size() <= 20);
      } else {
        // The synthetic workload and all 31 rfv-*/wrf-* profiles.
        CHECK(workloads.size() == 32);
      }
    }
  }
}

TEST_CASE("wc experiments: every wc metric the benchmark figures use is in stats.json",
          "[bdi][wc][experiments]") {
  const sweep::Spec spec = sweep::load_spec(spec_path("wc-benchmarks"), true);
  const Params params = Params::load("wc", {"synth.ctas=4", "synth.insts_per_warp=100"});
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json s = platform.run();
  REQUIRE(s["status"] == "ok");
  REQUIRE(spec.metrics.size() > 20);
  for (const std::string& metric : spec.metrics) {
    INFO(metric);
    const nlohmann::json* v = find(s, metric);
    REQUIRE(v != nullptr);
    CHECK(v->is_number());
  }
}

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

/// A dotted name inside a JSON object, or nullptr; keys may contain dots themselves (a
/// block's hierarchical name, "wc.bdi_compressor").
const nlohmann::json* find(const nlohmann::json& j, const std::string& dotted) {
  if (!j.is_object()) return nullptr;
  if (j.contains(dotted)) return &j[dotted];
  for (size_t dot = dotted.find('.'); dot != std::string::npos; dot = dotted.find('.', dot + 1)) {
    const std::string key = dotted.substr(0, dot);
    if (!j.contains(key)) continue;
    if (const nlohmann::json* found = find(j[key], dotted.substr(dot + 1))) return found;
  }
  return nullptr;
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

TEST_CASE("wc experiments: every metric the wc experiments name is in stats.json",
          "[bdi][wc][experiments]") {
  // The original BDI search reports every encoding the experiments name (wc-variants'
  // <8,*> and <2,1> as well as the warped <4,*>); the other metrics do not depend on it.
  const Params params =
      Params::load("wc", {"synth.ctas=4", "synth.insts_per_warp=100", "wc.variant=original"});
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json s = platform.run();
  REQUIRE(s["status"] == "ok");
  for (const char* name : kExperiments) {
    const sweep::Spec spec = sweep::load_spec(spec_path(name), true);
    if (std::string(name) == "wc-benchmarks") REQUIRE(spec.metrics.size() > 20);
    for (const std::string& metric : spec.metrics) {
      INFO(name << ": " << metric);
      const nlohmann::json* v = find(s, metric);
      REQUIRE(v != nullptr);
      CHECK(v->is_number());
    }
  }
}

// scripts/plot_results.py on small hand-written results: what a figure draws (its
// --values output), not how it looks. Needs Debian's python3-matplotlib, as the
// experiments do.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testbenches/support/cli_runner.h"

using namespace warpreg::testing;

namespace {

/// Runs the script on `csv` with the plots `plots`; returns the --values JSON.
nlohmann::json drawn(const Scratch& s, const std::string& csv, const std::string& plots) {
  std::ofstream(s / "results.csv") << csv;
  std::ofstream(s / "sweep.json") << R"({"plots": )" << plots << "}";
  const std::string command =
      "/usr/bin/python3 '" WARPREG_SOURCE_DIR "/scripts/plot_results.py' '" +
      (s / "results.csv").string() + "' --spec '" + (s / "sweep.json").string() + "' --out '" +
      (s / "figures").string() + "' --values '" + (s / "values.json").string() + "' >/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  return nlohmann::json::parse(slurp(s / "values.json"));
}

}  // namespace

// Warped-Compression's Figure 9 per workload: each wc row is normalised to its
// wc-baseline row, whose norm.* columns are 1. The bar of a workload is the wc value;
// averaging in the baseline's 1 halved every saving in the quick experiment's figure.
TEST_CASE("plot_results: a per-workload norm.* bar leaves out the rows it is normalised to",
          "[sweep][plots]") {
  Scratch s;
  const nlohmann::json v = drawn(s,
                                 "point,preset,workload,status,baseline,norm.energy_pj.total,ipc\n"
                                 "p001,wc-baseline,a,ok,p001,1,2\n"
                                 "p002,wc-baseline,b,ok,p002,1,4\n"
                                 "p003,wc,a,ok,p001,0.6,1\n"
                                 "p004,wc,b,ok,p002,0.8,3\n",
                                 R"([{"name": "per-workload", "kind": "bar", "x": "workload",
                                      "y": ["norm.energy_pj.total", "ipc"]},
                                     {"name": "per-design", "kind": "bar", "x": "preset",
                                      "y": "norm.energy_pj.total"}])");
  const nlohmann::json& w = v["per-workload"];
  CHECK(w["norm.energy_pj.total"]["a"].get<double>() == Approx(0.6));
  CHECK(w["norm.energy_pj.total"]["b"].get<double>() == Approx(0.8));
  // A column that is not normalised still averages every row that shares x.
  CHECK(w["ipc"]["a"].get<double>() == Approx(1.5));
  // Where the design is the x axis, the baseline has a bar of its own (1) beside wc's.
  const nlohmann::json& d = v["per-design"]["ours"];
  CHECK(d["wc-baseline"].get<double>() == Approx(1.0));
  CHECK(d["wc"].get<double>() == Approx(0.7));
}

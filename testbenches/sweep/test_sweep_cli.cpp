// End-to-end tests of `warpreg sweep`, `collect` and `experiment`: each case runs the
// built binary (which runs GNU parallel, and python3-matplotlib for the figures).
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "testbenches/support/cli_runner.h"

namespace fs = std::filesystem;

using namespace warpreg::testing;

namespace {

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

bool nonempty(const fs::path& file) { return fs::exists(file) && fs::file_size(file) > 0; }

}  // namespace

TEST_CASE("sweep cli: a bad spec is rejected before anything runs", "[sweep][cli]") {
  Scratch s;
  struct Case {
    const char* spec;
    const char* message;
  };
  for (const Case& c : {
           Case{R"({"presets": ["baseline", "nope"]})", "presets[1]: unknown preset \"nope\""},
           Case{R"({"presets": ["baseline"], "set": {"rf.bankz": [2]}})",
                "set.rf.bankz: unknown parameter"},
           Case{R"({"presets": ["baseline"], "set": {"rf.banks": []}})",
                "set.rf.banks: empty axis"},
       }) {
    write(s / "bad.json", c.spec);
    fs::remove_all(s / "out");
    const Outcome o = run_warpreg(
        s, "sweep '" + (s / "bad.json").string() + "' --out '" + (s / "out").string() + "'");
    INFO(o);
    CHECK(o.status == 2);
    CHECK(contains(o.err, "warpreg: error: " + (s / "bad.json").string() + ":1: " + c.message));
    CHECK_FALSE(fs::exists(s / "out"));
  }
}

TEST_CASE("sweep cli: --set overrides a fixed parameter and refuses axes and unknown keys",
          "[sweep][cli]") {
  Scratch s;
  write(s / "spec.json", R"({"name": "tiny", "presets": ["baseline"],
      "fixed": {"synth.ctas": 2, "synth.insts_per_warp": 100}, "set": {"rf.banks": [4, 8]}})");
  const std::string sweep =
      "sweep '" + (s / "spec.json").string() + "' --dry-run --out '" + (s / "out").string() + "'";
  const Outcome ok = run_warpreg(s, sweep + " --set synth.ctas=3 --set sim.seed=7");
  INFO(ok);
  REQUIRE(ok.status == 0);
  std::ifstream in(s / "out" / "sweep.json");
  const std::string recorded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(contains(recorded, "\"synth.ctas\": \"3\""));
  CHECK(contains(recorded, "\"sim.seed\": \"7\""));
  CHECK_FALSE(contains(recorded, "\"synth.ctas\": \"2\""));
  fs::remove_all(s / "out");
  const Outcome axis = run_warpreg(s, sweep + " --set rf.banks=2");
  CHECK(axis.status == 2);
  CHECK(contains(axis.err, "'rf.banks' is an axis of tiny"));
  const Outcome unknown = run_warpreg(s, sweep + " --set rf.bankz=2");
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.err, "unknown parameter 'rf.bankz'"));
  const Outcome malformed = run_warpreg(s, sweep + " --set synth.ctas");
  CHECK(malformed.status == 2);
  CHECK(contains(malformed.err, "expected KEY=VALUE"));
}

TEST_CASE("sweep cli: a local sweep runs every point and a rerun is resumable and identical",
          "[sweep][cli]") {
  Scratch s;
  write(s / "spec.json", R"({"name": "tiny", "presets": ["baseline", "wrf-baseline"],
      "fixed": {"synth.ctas": 2, "synth.insts_per_warp": 100},
      "seeds": [1, 2], "baseline": {"preset": "baseline"}})");
  const std::string args =
      "sweep '" + (s / "spec.json").string() + "' --out '" + (s / "sw").string() + "' --jobs 2";
  const Outcome first = run_warpreg(s, args);
  INFO(first);
  REQUIRE(first.status == 0);
  CHECK(lines(slurp(s / "sw/manifest.tsv")) == 5);
  const std::string results = slurp(s / "sw/results.csv");
  CHECK(lines(results) == 5);
  CHECK(contains(results, "norm.energy_pj.total"));
  CHECK(contains(results, "p003,wrf-baseline,synthetic,1,ok,p001,"));
  const std::string stats = slurp(s / "sw/points/p003/stats.json");
  REQUIRE_FALSE(stats.empty());

  // Nothing left to run on a rerun.
  const auto stamp = fs::last_write_time(s / "sw/points/p003/stats.json");
  const Outcome again = run_warpreg(s, args);
  INFO(again);
  CHECK(again.status == 0);
  CHECK(contains(again.err, "4 finished earlier, 0 to run"));
  CHECK(fs::last_write_time(s / "sw/points/p003/stats.json") == stamp);

  // A point run again gives the same bytes (same seed, same statistics).
  fs::remove(s / "sw/points/p003/done");
  const Outcome rerun = run_warpreg(s, args);
  INFO(rerun);
  CHECK(rerun.status == 0);
  CHECK(contains(rerun.err, "3 finished earlier, 1 to run"));
  // Only the run's provenance (wall time, command) may differ.
  const auto without_run = [](const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text);
    j.erase("run");
    return j;
  };
  CHECK(without_run(slurp(s / "sw/points/p003/stats.json")) == without_run(stats));
  CHECK(slurp(s / "sw/results.csv") == results);
}

TEST_CASE("sweep cli: an edited preset file runs its points again", "[sweep][cli]") {
  Scratch s;
  const auto preset = [&](int banks) {
    write(s / "mine.json", R"({"name": "mine", "inherits": "baseline", "params": {"rf.banks": )" +
                               std::to_string(banks) + "}}");
  };
  preset(16);
  write(s / "spec.json", R"({"presets": ["mine.json"],
      "fixed": {"synth.ctas": 2, "synth.insts_per_warp": 100}, "seeds": [1, 2]})");
  const std::string args =
      "sweep '" + (s / "spec.json").string() + "' --out '" + (s / "sw").string() + "' --jobs 2";
  REQUIRE(run_warpreg(s, args).status == 0);
  const Outcome same = run_warpreg(s, args);
  CHECK(contains(same.err, "2 finished earlier, 0 to run"));
  preset(8);  // the command lines do not change; the resolved parameters do
  const Outcome edited = run_warpreg(s, args);
  INFO(edited);
  CHECK(edited.status == 0);
  CHECK(contains(edited.err, "0 finished earlier, 2 to run"));
  CHECK(contains(slurp(s / "sw/points/p001/stats.json"), "\"rf.banks\": 8"));
}

TEST_CASE("sweep cli: a failed point is reported and does not stop the others", "[sweep][cli]") {
  Scratch s;
  // 32 registers cannot hold one CTA: the platform refuses it when the point runs.
  write(s / "spec.json", R"({"presets": ["baseline"], "fixed": {"synth.ctas": 2,
      "synth.insts_per_warp": 50}, "set": {"sm.registers": [32, 32768]}})");
  const Outcome o = run_warpreg(
      s, "sweep '" + (s / "spec.json").string() + "' --out '" + (s / "sw").string() + "' --jobs 2");
  INFO(o);
  CHECK(o.status == 1);
  CHECK(contains(o.err, "point p001 failed (exit 2)"));
  CHECK(contains(o.err, "--set sm.registers=32 "));
  CHECK(contains(o.err, "points/p001/log"));
  CHECK(contains(slurp(s / "sw/points/p001/log"), "warpreg: error:"));
  CHECK(fs::exists(s / "sw/points/p002/done"));
  const std::string results = slurp(s / "sw/results.csv");
  CHECK(contains(results, "p001,baseline,synthetic,32,failed (exit 2)"));
  CHECK(contains(results, "p002,baseline,synthetic,32768,ok"));
}

TEST_CASE("sweep cli: --slurm writes a job array over the manifest and runs nothing",
          "[sweep][cli]") {
  Scratch s;
  write(s / "spec.json", R"({"presets": ["baseline"], "fixed": {"synth.ctas": 2},
      "seeds": [1, 2, 3, 4, 5]})");
  const Outcome o = run_warpreg(s, "sweep '" + (s / "spec.json").string() + "' --out '" +
                                       (s / "sw").string() + "' --slurm --slurm-max-array 2");
  INFO(o);
  CHECK(o.status == 0);
  const std::string script = slurp(s / "sw/sweep.sbatch");
  CHECK(contains(script, "#SBATCH --array=0-1\n"));
  CHECK(contains(script, "chunk=3\n"));
  CHECK(contains(o.out, "sbatch "));
  CHECK_FALSE(fs::exists(s / "sw/points/p001"));

  // collect on a sweep that has not run: every row present, none with statistics.
  const Outcome c = run_warpreg(s, "collect '" + (s / "sw").string() + "'");
  INFO(c);
  CHECK(c.status == 1);
  CHECK(lines(slurp(s / "sw/results.csv")) == 6);
}

TEST_CASE("experiment cli: the quick rf-shrink experiment draws its figures", "[sweep][cli]") {
  Scratch s;
  const Outcome o =
      run_warpreg(s, "experiment rf-shrink --quick --jobs 2 --out '" + (s / "x").string() + "'");
  INFO(o);
  REQUIRE(o.status == 0);
  CHECK(lines(slurp(s / "x/results.csv")) == 3);
  for (const char* figure : {"rf-energy-vs-size", "cycles-vs-size"}) {
    CHECK(nonempty(s / "x/figures" / (std::string(figure) + ".png")));
    CHECK(nonempty(s / "x/figures" / (std::string(figure) + ".svg")));
  }
  const Outcome list = run_warpreg(s, "experiment");
  INFO(list);
  CHECK(list.status == 0);
  CHECK(contains(list.out, "rf-shrink"));
  CHECK(contains(list.out, "baselines"));
}

TEST_CASE("plot script: bar charts draw the paper's values beside ours", "[sweep][cli]") {
  Scratch s;
  write(
      s / "results.csv",
      "point,preset,seed,status,norm.energy_pj.total\n"
      "p1,baseline,1,ok,1\np2,baseline,2,ok,1\np3,wc-baseline,1,ok,0.7\np4,wc-baseline,2,ok,0.8\n");
  write(s / "sweep.json", R"({"plots": [{"name": "energy", "kind": "bar", "x": "preset",
      "y": "norm.energy_pj.total", "paper": {"label": "seed 001 Fig 9", "values": [
      {"x": "wc-baseline", "y": 0.75}]}}, {"name": "missing", "kind": "line", "x": "seed",
      "y": "no.such.column"}]})");
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string script = std::string(WARPREG_SOURCE_DIR) + "/scripts/plot_results.py";
  const std::string args = "'" + (s / "results.csv").string() + "' --spec '" +
                           (s / "sweep.json").string() + "' --out '" + (s / "fig").string() + "'";
  const auto run = [&](const std::string& extra) {
    const std::string command =
        python + " '" + script + "' " + args + extra + " >'" + (s / "log").string() + "' 2>&1";
    const int rc = std::system(command.c_str());
    return (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
  };
  CHECK(run(" --plot energy") == 0);
  INFO(slurp(s / "log"));
  CHECK(nonempty(s / "fig/energy.png"));
  const std::string svg = slurp(s / "fig/energy.svg");
  CHECK(contains(svg, "<svg"));
  CHECK(contains(svg, "seed 001 Fig 9"));  // the legend entry of the paper's bars
  // A figure naming a column results.csv lacks fails with the column's name.
  CHECK(run(" --plot missing") != 0);
  CHECK(contains(slurp(s / "log"), "no column 'no.such.column'"));
}

// Sweep specs without running a simulation: expansion, validation, the manifest,
// the Slurm script and the merge of (hand-written) statistics into results.csv.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/sweep/sweep_folder.h"
#include "apps/sweep/sweep_spec.h"

namespace fs = std::filesystem;
using nlohmann::ordered_json;
using namespace warpreg::sweep;

namespace {

Spec parse(const std::string& text, bool quick = false) {
  return parse_spec(ordered_json::parse(text), "test.json", quick, fs::current_path().string());
}

// The SpecError message of parsing (and expanding) `text`; empty when it is accepted.
std::string error_of(const std::string& text) {
  try {
    expand(parse(text));
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("warpreg_sweep_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* kTwoByTwo = R"({
  "name": "t",
  "presets": ["baseline", "wc-baseline"],
  "fixed": {"synth.ctas": 2},
  "set": {"rf.banks": [8, 16]},
  "seeds": [1, 7],
  "baseline": {"preset": "baseline"}
})";

}  // namespace

TEST_CASE("sweep spec: points are the product of the axes with the last axis fastest", "[sweep]") {
  const Spec spec = parse(kTwoByTwo);
  const auto points = expand(spec);
  REQUIRE(points.size() == 2 * 1 * 2 * 2);
  CHECK(points.front().id == "p001");
  CHECK(points.back().id == "p008");
  CHECK(points[0].preset == "baseline");
  CHECK(points[0].workload == "synthetic");
  CHECK(points[0].sets == std::vector<std::string>{"synth.ctas=2", "rf.banks=8", "sim.seed=1"});
  CHECK(points[1].sets.back() == "sim.seed=7");
  CHECK(points[2].sets[1] == "rf.banks=16");
  CHECK(points[4].preset == "wc-baseline");
  CHECK(points[5].out_dir == "points/p006");

  const std::string cmd = command_line(points[1], "/bin/warp reg");
  CHECK(cmd ==
        "'/bin/warp reg' run --preset baseline --workload synthetic --set synth.ctas=2 "
        "--set rf.banks=8 --set sim.seed=7 --out points/p002 --quiet  # inputs " +
            points[1].inputs_digest);
  // The digest follows every resolved parameter, not only the command line's.
  CHECK(points[1].inputs_digest.size() == 16);
  CHECK(points[1].inputs_digest != points[0].inputs_digest);
}

TEST_CASE("sweep spec: each point's baseline shares its other axes", "[sweep]") {
  const Spec spec = parse(kTwoByTwo);
  const auto points = expand(spec);
  const auto base = baseline_of(spec, points);
  for (size_t i = 0; i < points.size(); ++i) {
    INFO(points[i].id);
    const Point& b = points[static_cast<size_t>(base[i])];
    CHECK(b.preset == "baseline");
    CHECK(b.values[2] == points[i].values[2]);  // rf.banks
    CHECK(b.values[3] == points[i].values[3]);  // seed
  }
  CHECK(base[5] == 1);  // wc-baseline, 8 banks, seed 7 -> baseline, 8 banks, seed 7
}

TEST_CASE("sweep spec: an unknown preset is named with its file and field", "[sweep]") {
  const std::string e = error_of(R"({"presets": ["baseline", "no-such-preset"]})");
  CHECK(contains(e, "test.json: presets[1]: unknown preset \"no-such-preset\""));
  CHECK(contains(e, "wc-baseline"));  // the shipped names are listed
}

TEST_CASE("sweep spec: unknown keys are rejected in every section", "[sweep]") {
  CHECK(contains(error_of(R"({"presets": ["baseline"], "set": {"rf.bankz": [4]}})"),
                 "test.json: set.rf.bankz: unknown parameter \"rf.bankz\""));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "fixed": {"synth.ctaz": 4}})"),
                 "test.json: fixed.synth.ctaz: unknown parameter"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "seed": [1]})"),
                 "test.json: seed: unknown field"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "plots": [{"name": "a", "kind": "bar",
                 "x": "preset", "y": "cycles", "colour": "red"}]})"),
                 "test.json: plots[0].colour: unknown field"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "quick": {"frobs": 1}})"),
                 "test.json: quick.frobs"));
}

TEST_CASE("sweep spec: an empty axis is rejected", "[sweep]") {
  CHECK(contains(error_of(R"({"presets": ["baseline"], "set": {"rf.banks": []}})"),
                 "test.json: set.rf.banks: empty axis"));
  CHECK(contains(error_of(R"({"presets": []})"), "test.json: presets: empty axis"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "seeds": []})"),
                 "test.json: seeds: empty axis"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "workloads": []})"),
                 "test.json: workloads: empty axis"));
  CHECK(contains(error_of(R"({"set": {"rf.banks": [4]}})"), "test.json: presets: missing"));
}

TEST_CASE("sweep spec: bad values and impossible points fail before anything runs", "[sweep]") {
  CHECK(contains(error_of(R"({"presets": ["baseline"], "set": {"rf.banks": [4, 1000]}})"),
                 "test.json: set.rf.banks[1]:"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "set": {"rf.banks": [4, 4]}})"),
                 "appears twice"));
  // Each fraction is in range, their sum is not: only the synthetic generator knows.
  const std::string sum = error_of(R"({"presets": ["baseline"],
      "set": {"synth.frac_load": [0.1, 0.9]}, "fixed": {"synth.frac_store": 0.5}})");
  CHECK(contains(sum,
                 "test.json: point p002 (preset=baseline, workload=synthetic, "
                 "synth.frac_load=0.9)"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "workloads": ["missing.trace"]})"),
                 "test.json: point p001"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "baseline": {"preset": "wc-baseline"}})"),
                 "test.json: baseline.preset: value \"wc-baseline\" is not on the axis"));
  CHECK(contains(error_of(R"({"presets": ["baseline"], "baseline": {"rf.banks": 4}})"),
                 "test.json: baseline.rf.banks: not an axis"));
  CHECK(error_of(kTwoByTwo).empty());
}

TEST_CASE("sweep spec: quick replaces the sweep's fields", "[sweep]") {
  const char* text = R"({"presets": ["baseline"], "set": {"rf.banks": [4, 8, 16]},
      "seeds": [1, 2], "quick": {"set": {"rf.banks": [16]}}})";
  CHECK(expand(parse(text, false)).size() == 6);
  const Spec quick = parse(text, true);
  CHECK(quick.quick);
  const auto points = expand(quick);
  REQUIRE(points.size() == 2);
  CHECK(points[0].sets == std::vector<std::string>{"rf.banks=16", "sim.seed=1"});
}

TEST_CASE("sweep folder: the manifest reads back and finished points are recognised", "[sweep]") {
  TempDir tmp;
  const Spec spec = parse(kTwoByTwo);
  const auto points = expand(spec);
  const std::string dir = tmp.path().string();
  write_sweep_folder(spec, points, dir, "/opt/warpreg");
  const Manifest m = read_manifest(dir);
  CHECK(m.axes == std::vector<std::string>{"preset", "workload", "rf.banks", "seed"});
  REQUIRE(m.rows.size() == points.size());
  CHECK(m.rows[3].id == "p004");
  CHECK(m.rows[3].values == points[3].values);
  CHECK(m.rows[3].out_dir == "points/p004");
  CHECK(m.rows[3].command == command_line(points[3], "/opt/warpreg"));
  CHECK(fs::exists(tmp.path() / "run_point.sh"));

  CHECK_FALSE(point_finished(dir, m.rows[3]));
  fs::create_directories(tmp.path() / "points/p004");
  std::ofstream(tmp.path() / "points/p004/done") << m.rows[3].command << '\n';
  CHECK(point_finished(dir, m.rows[3]));
  // A point whose command changed since it ran is not finished.
  std::ofstream(tmp.path() / "points/p004/done") << "something else\n";
  CHECK_FALSE(point_finished(dir, m.rows[3]));

  // sweep.json reads back as the same sweep.
  const Spec again =
      parse_spec(ordered_json::parse(slurp(tmp.path() / "sweep.json")), "sweep.json", false, "");
  CHECK(expand(again).size() == points.size());
  CHECK(again.baseline == spec.baseline);
}

TEST_CASE("sweep folder: the Slurm array is capped and chunks the points", "[sweep]") {
  CHECK(slurm_chunk(250, 100) == 3);
  CHECK(slurm_chunk(250, 1000) == 1);
  CHECK(slurm_chunk(7, 1) == 7);
  SlurmOptions options;
  options.max_array = 100;
  options.partition = "gpu";
  options.extra = {"--account=abc"};
  const std::string script = slurm_script("t", 250, options, "/scratch/s");
  CHECK(contains(script, "#SBATCH --array=0-83\n"));  // ceil(250 / 3) = 84 tasks
  CHECK(contains(script, "chunk=3\n"));
  CHECK(contains(script, "points=250\n"));
  CHECK(contains(script, "#SBATCH --partition=gpu\n"));
  CHECK(contains(script, "#SBATCH --account=abc\n"));
  CHECK(contains(script, "bash /scratch/s/run_point.sh \"$row\""));
}

TEST_CASE("sweep folder: collect merges statistics and normalises to the baseline", "[sweep]") {
  TempDir tmp;
  const Spec spec = parse(R"({"presets": ["baseline", "wc-baseline"], "seeds": [1, 2],
      "baseline": {"preset": "baseline"},
      "metrics": ["blocks.regfile.events.slice_reads", "blocks.rfv.renaming_table.events.lookups"]})");
  const auto points = expand(spec);
  const std::string dir = tmp.path().string();
  write_sweep_folder(spec, points, dir, "/opt/warpreg");
  // Hand-written statistics for three points; p004 never ran.
  const double energy[] = {100, 200, 300};
  for (int i = 0; i < 3; ++i) {
    const fs::path out = tmp.path() / points[i].out_dir;
    fs::create_directories(out);
    nlohmann::json stats = {
        {"status", "ok"},
        {"cycles", 1000 * (i + 1)},
        {"energy_pj", {{"dynamic", energy[i] - 10}, {"leakage", 10}, {"total", energy[i]}}},
        {"blocks",
         {{"regfile",
           {{"dynamic_pj", energy[i] - 10},
            {"leakage_pj", 10},
            {"storage_bits", 64},
            {"events", {{"slice_reads", 5 * i}}}}},
          // A stage and a block inside it: hierarchical names contain dots.
          {"rfv", {{"dynamic_pj", 1}, {"leakage_pj", 0}}},
          {"rfv.renaming_table",
           {{"dynamic_pj", 2}, {"leakage_pj", 1}, {"events", {{"lookups", 7}}}}}}}};
    std::ofstream(out / "stats.json") << stats.dump(2);
  }
  CHECK(collect_results(dir) == 3);
  std::istringstream csv(slurp(tmp.path() / "results.csv"));
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::istringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  REQUIRE(rows.size() == 5);
  const auto& header = rows[0];
  const auto col = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<size_t>(it - header.begin());
  };
  CHECK(rows[3][col("preset")] == "wc-baseline");
  CHECK(rows[3][col("seed")] == "1");
  CHECK(rows[3][col("baseline")] == "p001");
  CHECK(std::stod(rows[3][col("energy_pj.total")]) == 300);
  CHECK(std::stod(rows[3][col("norm.energy_pj.total")]) == 3.0);
  CHECK(std::stod(rows[3][col("norm.cycles")]) == 3.0);
  CHECK(std::stod(rows[3][col("blocks.regfile.total_pj")]) == 300);
  CHECK(std::stod(rows[3][col("norm.blocks.regfile.total_pj")]) == 3.0);
  CHECK(rows[3][col("blocks.regfile.events.slice_reads")] == "10");
  CHECK(std::stod(rows[3][col("blocks.rfv.renaming_table.total_pj")]) == 3);
  CHECK(rows[3][col("blocks.rfv.renaming_table.events.lookups")] == "7");
  CHECK(std::stod(rows[3][col("blocks.rfv.total_pj")]) == 1);
  CHECK(std::stod(rows[1][col("norm.energy_pj.total")]) == 1.0);
  CHECK(rows[4][col("status")] == "not run");
  CHECK(rows[4][col("cycles")].empty());
  CHECK(rows[4][col("norm.cycles")].empty());

  // Another baseline chosen at collect time: the seed-2 point of each preset.
  collect_results(dir, {{"seed", "2"}});
  CHECK(contains(slurp(tmp.path() / "results.csv"), "p003,wc-baseline,synthetic,1,ok,p004"));
}

TEST_CASE("sweep folder: a block inside a stage has its columns beside the stage's", "[sweep]") {
  TempDir tmp;
  const Spec spec = parse(R"({"presets": ["baseline"], "metrics": ["blocks.ltrf.hit_rate",
      "blocks.ltrf.cache.reads"]})");
  const auto points = expand(spec);
  const fs::path out = tmp.path() / points[0].out_dir;
  write_sweep_folder(spec, points, tmp.path().string(), "/opt/warpreg");
  fs::create_directories(out);
  const nlohmann::json stats = {
      {"status", "ok"},
      {"blocks",
       {{"ltrf", {{"dynamic_pj", 1.5}, {"leakage_pj", 0}, {"hit_rate", 0.5}}},
        {"ltrf.cache", {{"dynamic_pj", 2.5}, {"leakage_pj", 1}, {"reads", 7}}}}}};
  std::ofstream(out / "stats.json") << stats.dump(2);
  CHECK(collect_results(tmp.path().string()) == 1);
  const std::string csv = slurp(tmp.path() / "results.csv");
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  const auto cell = [&](const std::string& name) {
    std::istringstream h(header), r(row);
    std::string key, value;
    while (std::getline(h, key, ',') && std::getline(r, value, ','))
      if (key == name) return value;
    return std::string("(none)");
  };
  CHECK(cell("blocks.ltrf.total_pj") == "1.5");
  CHECK(cell("blocks.ltrf.cache.total_pj") == "3.5");
  CHECK(cell("blocks.ltrf.hit_rate") == "0.5");
  CHECK(cell("blocks.ltrf.cache.reads") == "7");
}

TEST_CASE("sweep spec: axes whose product passes 2^64 are refused, not wrapped", "[sweep]") {
  Spec spec;
  spec.file = "big.json";
  for (int i = 0; i < 21; ++i)
    spec.axes.push_back({"axis.n" + std::to_string(i), std::vector<std::string>(10, "v")});
  CHECK_THROWS_WITH(point_count(spec),
                    Catch::Matchers::Contains("big.json: the axes make 10 axis.n0 values x") &&
                        Catch::Matchers::Contains("more than 1000000 points"));
  spec.axes.resize(6);
  CHECK(point_count(spec) == 1000000);
  spec.axes.push_back({"seed", {"1", "2"}});
  CHECK_THROWS_AS(point_count(spec), SpecError);
}

TEST_CASE("sweep spec: expansion reports its progress after every point", "[sweep]") {
  const Spec spec = parse(kTwoByTwo);
  std::vector<std::pair<size_t, size_t>> told;
  const std::vector<Point> points =
      expand(spec, [&](size_t done, size_t total) { told.emplace_back(done, total); });
  REQUIRE(told.size() == points.size());
  for (size_t i = 0; i < told.size(); ++i) {
    CHECK(told[i].first == i + 1);
    CHECK(told[i].second == points.size());
  }
}

// Whole-platform runs: golden stats, integrity on every preset, bad input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "modules/common/errors.h"
#include "platforms/sm/platform.h"

using namespace warpreg;

namespace {

const std::string kGoldenDir = std::string(WARPREG_TESTDATA_DIR) + "/golden/";

/// Numbers compare with a relative tolerance (energies are sums of doubles);
/// everything else exactly. Returns the first difference's path, or "".
std::string first_difference(const nlohmann::json& want, const nlohmann::json& got,
                             const std::string& path) {
  if (want.is_number() && got.is_number()) {
    const double a = want.get<double>(), b = got.get<double>();
    return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)) ? "" : path;
  }
  if (want.type() != got.type()) return path;
  if (want.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      if (!got.contains(it.key())) return path + "." + it.key() + " (missing)";
      const std::string d = first_difference(it.value(), got[it.key()], path + "." + it.key());
      if (!d.empty()) return d;
    }
    for (auto it = got.begin(); it != got.end(); ++it)
      if (!want.contains(it.key())) return path + "." + it.key() + " (unexpected)";
    return "";
  }
  if (want.is_array()) {
    if (want.size() != got.size()) return path + " (size)";
    for (size_t i = 0; i < want.size(); ++i) {
      const std::string d = first_difference(want[i], got[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return want == got ? "" : path;
}

/// Compares with testbenches/data/golden/NAME.json; WARPREG_UPDATE_GOLDEN=1 rewrites it.
void check_golden(const std::string& name, nlohmann::json stats) {
  stats.erase("params");  // new parameters must not invalidate every golden file
  // The checkout's location must not matter either.
  std::string workload = stats["workload"];
  const std::string data_dir = WARPREG_TESTDATA_DIR;
  if (const size_t at = workload.find(data_dir); at != std::string::npos)
    workload.replace(at, data_dir.size(), "<testdata>");
  stats["workload"] = workload;
  const std::string path = kGoldenDir + name + ".json";
  if (std::getenv("WARPREG_UPDATE_GOLDEN")) {
    std::ofstream(path) << stats.dump(2) << "\n";
    WARN("golden file rewritten: " << path);
    return;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  const nlohmann::json want = nlohmann::json::parse(in);
  const std::string diff = first_difference(want, stats, "stats");
  INFO("golden " << path << " differs at " << diff);
  CHECK(diff.empty());
}

nlohmann::json run_platform(const std::string& preset, const std::string& workload,
                            const std::vector<std::string>& sets) {
  const Params params = Params::load(preset, sets);
  SmPlatform platform(params, open_workload(workload, params));
  return platform.run();
}

const std::vector<std::string> kSmallSynthetic = {"synth.ctas=12", "synth.insts_per_warp=120"};

}  // namespace

TEST_CASE("golden: baseline preset on the synthetic workload", "[platform][golden]") {
  const nlohmann::json stats = run_platform("baseline", "synthetic", kSmallSynthetic);
  CHECK(stats["status"] == "ok");
  check_golden("baseline_synthetic", stats);
}

TEST_CASE("golden: baseline preset on the tiny trace", "[platform][golden]") {
  const nlohmann::json stats =
      run_platform("baseline", std::string(WARPREG_TESTDATA_DIR) + "/tiny.trace", {});
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["checked_reads"].get<uint64_t>() > 0);
  check_golden("baseline_tiny_trace", stats);
}

TEST_CASE("stats.json carries the documented fields", "[platform]") {
  const nlohmann::json s = run_platform("baseline", "synthetic", kSmallSynthetic);
  for (const char* key : {"preset", "workload", "cycles", "warp_instructions", "ipc", "integrity",
                          "blocks", "energy_pj", "status"})
    CHECK(s.contains(key));
  for (const auto& [name, block] : s["blocks"].items()) {
    INFO("block " << name);
    for (const char* key : {"events", "dynamic_pj", "leakage_pj", "storage_bits"})
      CHECK(block.contains(key));
  }
  const double total = s["energy_pj"]["total"];
  CHECK(total ==
        Approx(s["energy_pj"]["dynamic"].get<double>() + s["energy_pj"]["leakage"].get<double>()));
  CHECK(s["ipc"].get<double>() == Approx(double(s["warp_instructions"]) / double(s["cycles"])));
}

#define PRESET_RUNS(PRESET)                                                                     \
  TEST_CASE("preset " PRESET " runs with zero integrity mismatches", "[platform][integrity]") { \
    const nlohmann::json s = run_platform(PRESET, "synthetic", kSmallSynthetic);                \
    CHECK(s["status"] == "ok");                                                                 \
    CHECK(s["integrity"]["mismatches"] == 0);                                                   \
    CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 1000);                              \
  }
PRESET_RUNS("baseline")
PRESET_RUNS("wrf-baseline")
PRESET_RUNS("wc-baseline")
PRESET_RUNS("rfv-baseline")

// One platform per process (SystemC elaborates once), so one test case per policy.
#define POLICY_RUNS(POLICY)                                                              \
  TEST_CASE("scheduler " POLICY " finishes the workload", "[platform][scheduler]") {     \
    const nlohmann::json s =                                                             \
        run_platform("baseline", "synthetic", {"synth.ctas=6", "sm.scheduler=" POLICY}); \
    CHECK(s["status"] == "ok");                                                          \
    CHECK(s["integrity"]["mismatches"] == 0);                                            \
  }
POLICY_RUNS("gto")
POLICY_RUNS("lrr")
POLICY_RUNS("two_level")

TEST_CASE("a register file too small for one CTA fails at elaboration, naming registers",
          "[platform][bad-input]") {
  const Params params = Params::load("baseline", {"sm.registers=1024", "synth.regs_per_thread=63"});
  try {
    SmPlatform platform(params, open_workload("synthetic", params));
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("registers too small for one CTA"));
  }
}

TEST_CASE("a register count that does not split into banks is a clear error",
          "[platform][bad-input]") {
  const Params params = Params::load("baseline", {"rf.banks=7"});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("synthetic", params)),
                    Catch::Contains("rf.banks = 7"));
}

TEST_CASE("sim.max_cycles stops the run with a status saying so", "[platform]") {
  const nlohmann::json s = run_platform("baseline", "synthetic", {"sim.max_cycles=500"});
  CHECK(s["status"] == "max_cycles");
  CHECK(s["cycles"] == 500);
}

TEST_CASE("waveform: --vcd writes per-bank activity and power state", "[platform][vcd]") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("warpreg_vcd_" + std::to_string(::getpid()) + ".vcd"))
                               .string();
  {
    const Params params = Params::load("baseline", {"synth.ctas=1", "synth.insts_per_warp=40"});
    RunSettings settings;
    settings.vcd_path = path;
    SmPlatform platform(params, open_workload("synthetic", params), settings);
    CHECK(platform.run()["status"] == "ok");
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  const std::string vcd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(vcd, Catch::Contains("bank0_accesses") && Catch::Contains("bank15_power") &&
                      Catch::Contains("#714"));  // one 1400 MHz cycle, in ps
  std::filesystem::remove(path);
}

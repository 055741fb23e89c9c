// Whole-platform runs: golden stats, integrity on every preset, bad input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/errors.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

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

namespace {

/// Counts what passes; optionally flips a bit of every read of one register.
class ProbeStage : public OperandStage, public ReportingBlock {
 public:
  explicit ProbeStage(sc_core::sc_module_name name, int corrupt_reg = -1)
      : OperandStage(name), corrupt_reg_(corrupt_reg) {}
  std::string block_name() const override { return "probe"; }
  nlohmann::json stats(uint64_t) override {
    return {{"events", {{"reads", reads_}, {"writes", writes_}, {"other", other_}}},
            {"dynamic_pj", 0.0},
            {"leakage_pj", 0.0},
            {"storage_bits", 0}};
  }
  nlohmann::json describe() const override { return nlohmann::json::object(); }

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override {
    initiator->b_transport(payload, delay);
    if (a.kind == RfAccessKind::Read) {
      ++reads_;
      if (a.arch_reg == corrupt_reg_) register_of(payload).lane[5] ^= 0x100;
    } else if (a.kind == RfAccessKind::Write) {
      ++writes_;
    } else {
      ++other_;
    }
  }

 private:
  int corrupt_reg_;
  uint64_t reads_ = 0, writes_ = 0, other_ = 0;
};

nlohmann::json run_with_probe(int corrupt_reg) {
  const Params params = Params::load("baseline", kSmallSynthetic);
  RunSettings settings;
  settings.extra_stages = [corrupt_reg](const DesignContext&) {
    OperandStages stages;
    stages.push_back(std::make_unique<ProbeStage>("probe", corrupt_reg));
    return stages;
  };
  SmPlatform platform(params, open_workload("synthetic", params), settings);
  CHECK(platform.describe()["operand_path"] ==
        nlohmann::json({"sm.collectors", "crossbar", "probe", "regfile"}));
  return platform.run();
}

}  // namespace

TEST_CASE("operand path: an inserted stage sees every register access", "[platform][stage]") {
  const nlohmann::json s = run_with_probe(-1);
  CHECK(s["status"] == "ok");
  const nlohmann::json& probe = s["blocks"]["probe"]["events"];
  CHECK(probe["reads"] == s["rf"]["reads"]);
  CHECK(probe["writes"] == s["rf"]["writes"]);
  CHECK(probe["other"].get<uint64_t>() == 2 * 12 * 8);  // launch and retire of every warp
}

TEST_CASE("integrity: a stage that corrupts a register stops the run naming it",
          "[platform][stage][integrity]") {
  const nlohmann::json s = run_with_probe(3);
  CHECK(s["status"] == "integrity_mismatch");
  CHECK(s["integrity"]["mismatches"] == 1);
  CHECK_THAT(s["error"].get<std::string>(),
             Catch::Contains("R3 at PC") && Catch::Contains("lane 5"));
}

namespace {

/// Refuses the third register read it sees, as a block refuses a payload it cannot serve.
class RefusingStage : public OperandStage {
 public:
  explicit RefusingStage(sc_core::sc_module_name name) : OperandStage(name) {}

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override {
    if (a.kind == RfAccessKind::Read && ++reads_ == 3) {
      refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "the test refuses this read");
      return;
    }
    initiator->b_transport(payload, delay);
  }

 private:
  unsigned reads_ = 0;
};

}  // namespace

TEST_CASE("operand path: a refused access ends the run with status tlm_error, no abort",
          "[platform][stage][tlm]") {
  const Params params = Params::load("baseline", kSmallSynthetic);
  RunSettings settings;
  settings.extra_stages = [](const DesignContext&) {
    OperandStages stages;
    stages.push_back(std::make_unique<RefusingStage>("refuser"));
    return stages;
  };
  sc_core::sc_report_handler::set_actions(kRefusedPayload, sc_core::SC_DO_NOTHING);
  SmPlatform platform(params, open_workload("synthetic", params), std::move(settings));
  const nlohmann::json s = platform.run();
  CHECK(s["status"] == "tlm_error");
  CHECK(sc_core::sc_report_handler::get_count(kRefusedPayload) == 1);
  CHECK_THAT(s["error"].get<std::string>(),
             Catch::Contains("a register read of warp slot") &&
                 Catch::Contains("refused with TLM_ADDRESS_ERROR_RESPONSE"));
}

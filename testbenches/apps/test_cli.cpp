// End-to-end tests of the command-line program: each case runs the built
// `warpreg` binary and checks its exit status, its messages and its files.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "testbenches/support/cli_runner.h"

namespace fs = std::filesystem;
using nlohmann::json;

using namespace warpreg::testing;

namespace {

/// The small workload of the run tests: the shared tiny trace when present.
std::string tiny_workload() {
  const fs::path trace = fs::path(WARPREG_TESTDATA_DIR) / "tiny.trace";
  if (fs::exists(trace)) return "--workload '" + trace.string() + "'";
  return "--workload synthetic --set synth.ctas=2";
}

}  // namespace

TEST_CASE("cli: an unknown command exits 2 with a usage hint", "[cli]") {
  const Outcome o = run_warpreg("frobnicate");
  INFO(o);
  CHECK(o.status == 2);
  CHECK(contains(o.err, "warpreg: error: unknown command 'frobnicate'"));
  CHECK(contains(o.err, "--help"));
}

TEST_CASE("cli: no command exits 2", "[cli]") {
  const Outcome o = run_warpreg("");
  INFO(o);
  CHECK(o.status == 2);
  CHECK(contains(o.err, "missing command"));
}

TEST_CASE("cli: an unknown option or a stray argument exits 2", "[cli]") {
  const Outcome option = run_warpreg("run --frobnicate");
  INFO(option);
  CHECK(option.status == 2);
  CHECK(contains(option.err, "--frobnicate"));
  CHECK(contains(option.err, "warpreg run --help"));

  const Outcome stray = run_warpreg("params extra");
  INFO(stray);
  CHECK(stray.status == 2);
  CHECK(contains(stray.err, "'extra'"));
}

TEST_CASE("cli: --help lists every command's options with defaults", "[cli]") {
  const Outcome o = run_warpreg("--help");
  INFO(o);
  CHECK(o.status == 0);
  for (const char* word :
       {"run", "params", "describe", "presets", "bench", "--preset", "--set", "--workload", "--out",
        "--vcd", "--quiet", "--json", "--calls", "(=baseline)", "(=synthetic)", "--version"}) {
    CHECK(contains(o.out, word));
  }
  const Outcome run_help = run_warpreg("run --help");
  INFO(run_help);
  CHECK(run_help.status == 0);
  CHECK(contains(run_help.out, "--out"));
  CHECK_FALSE(contains(run_help.out, "--calls"));
}

TEST_CASE("cli: --version names the program", "[cli]") {
  const Outcome o = run_warpreg("--version");
  INFO(o);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "warpreg "));
  CHECK(contains(o.out, "SystemC"));
}

TEST_CASE("cli: an unknown --set key exits 2 and names the key", "[cli]") {
  Scratch dir;
  const Outcome o =
      run_warpreg("run --set rf.no_such_key=3 --out '" + (dir / "out").string() + "'");
  INFO(o);
  CHECK(o.status == 2);
  CHECK(contains(o.err, "warpreg: error:"));
  CHECK(contains(o.err, "rf.no_such_key"));
  CHECK_FALSE(fs::exists(dir / "out" / "stats.json"));
}

TEST_CASE("cli: params lists the catalogue under a preset", "[cli]") {
  const Outcome table = run_warpreg("params");
  INFO(table);
  CHECK(table.status == 0);
  CHECK(contains(table.out, "rf.banks"));

  const Outcome o = run_warpreg("params --json --set rf.banks=8");
  INFO(o);
  REQUIRE(o.status == 0);
  const json list = json::parse(o.out);
  REQUIRE(list.is_array());
  bool found = false;
  for (const json& p : list) {
    for (const char* key : {"name", "type", "value", "default", "unit", "origin", "description"}) {
      CHECK(p.contains(key));
    }
    if (p.value("name", "") == "rf.banks") {
      found = true;
      CHECK(p["value"] == 8);
      CHECK(p["default"] == 16);
      CHECK(p["origin"] == "--set");
    }
  }
  CHECK(found);
}

TEST_CASE("cli: presets lists baseline", "[cli]") {
  const Outcome o = run_warpreg("presets");
  INFO(o);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "baseline"));
}

TEST_CASE("cli: run --out writes stats.json and stats.csv with the required fields", "[cli]") {
  Scratch dir;
  const fs::path out = dir / "nested" / "out";
  const Outcome o = run_warpreg("run --quiet " + tiny_workload() + " --out '" + out.string() + "'");
  INFO(o);
  REQUIRE(o.status == 0);
  CHECK(o.out.empty());

  const json stats = json::parse(slurp(out / "stats.json"));
  CHECK(stats["preset"] == "baseline");
  CHECK(stats["workload"].is_string());
  CHECK(stats["status"] == "ok");
  for (const char* key : {"cycles", "warp_instructions", "ipc"}) {
    INFO(key);
    REQUIRE(stats.contains(key));
    CHECK(stats[key].is_number());
    CHECK(stats[key].get<double>() > 0);
  }
  CHECK(stats["integrity"]["checked_reads"].get<double>() > 0);
  CHECK(stats["integrity"]["mismatches"] == 0);

  const json& blocks = stats["blocks"];
  REQUIRE((blocks.is_object() || blocks.is_array()));
  REQUIRE(!blocks.empty());
  for (const json& block : blocks) {
    INFO(block.dump());
    CHECK(block["events"].is_object());
    CHECK(block["dynamic_pj"].is_number());
    CHECK(block["leakage_pj"].is_number());
    CHECK(block["storage_bits"].is_number());
  }
  const json& energy = stats["energy_pj"];
  CHECK(energy["dynamic"].get<double>() > 0);
  CHECK(energy["leakage"].get<double>() >= 0);
  CHECK(energy["total"].get<double>() ==
        Approx(energy["dynamic"].get<double>() + energy["leakage"].get<double>()));

  const std::string csv = slurp(out / "stats.csv");
  CHECK(csv.rfind("metric,value\n", 0) == 0);
  CHECK(contains(csv, "\npreset,baseline\n"));
  CHECK(contains(csv, "\nstatus,ok\n"));
  CHECK(contains(csv, "\ncycles," + stats["cycles"].dump() + "\n"));
  CHECK(contains(csv, "\nintegrity.mismatches,0\n"));
  // Every scalar, strings too; the run's provenance; power beside energy.
  CHECK(contains(csv, "\nkernel.name," + stats["kernel"]["name"].get<std::string>() + "\n"));
  CHECK(contains(csv, "\noccupancy.limiter," + stats["occupancy"]["limiter"].get<std::string>()));
  CHECK(contains(csv, "\ntechnology," + stats["technology"].get<std::string>() + "\n"));
  const json& run = stats["run"];
  CHECK(run["version"].is_string());
  CHECK(run["revision"].is_string());
  CHECK(contains(run["command"].get<std::string>(), "run --quiet"));
  CHECK(run["host"].is_string());
  CHECK(run["wall_time_s"].get<double>() >= 0);
  CHECK(contains(csv, "\nrun.wall_time_s,"));
  const double seconds =
      stats["cycles"].get<double>() / stats["params"]["sim.clock_mhz"].get<double>() * 1e-6;
  CHECK(stats["average_power_w"]["total"].get<double>() ==
        Approx(energy["total"].get<double>() * 1e-12 / seconds));
  for (const json& block : blocks) CHECK(block["average_power_w"].is_number());
}

TEST_CASE("cli: run prints a summary with cycles and energy", "[cli]") {
  const Outcome o = run_warpreg("run " + tiny_workload());
  INFO(o);
  REQUIRE(o.status == 0);
  for (const char* word : {"preset", "baseline", "status", "ok", "cycles", "warp instructions",
                           "IPC", "integrity", "energy", "dynamic", "leakage", "total"}) {
    CHECK(contains(o.out, word));
  }
  CHECK((contains(o.out, " pJ") || contains(o.out, " nJ") || contains(o.out, " µJ")));
}

TEST_CASE("cli: a run that stops early exits 1 and still writes its statistics", "[cli]") {
  Scratch dir;
  const Outcome o = run_warpreg("run --quiet " + tiny_workload() +
                                " --set sim.max_cycles=2 --out '" + (dir / "out").string() + "'");
  INFO(o);
  CHECK(o.status == 1);
  CHECK(contains(o.err, "warpreg: error:"));
  const json stats = json::parse(slurp(dir / "out" / "stats.json"));
  CHECK(stats["status"] == "max_cycles");
}

TEST_CASE("cli: a missing trace file exits 2 and names the file", "[cli]") {
  Scratch dir;
  const fs::path missing = dir / "no_such_kernel.trace";
  const Outcome o = run_warpreg("run --workload '" + missing.string() + "'");
  INFO(o);
  CHECK(o.status == 2);
  CHECK(contains(o.err, "no_such_kernel.trace"));
}

TEST_CASE("cli: a register file too small for one CTA exits 2 naming registers", "[cli]") {
  const Outcome o = run_warpreg("run --set sm.registers=1024 --set synth.regs_per_thread=63");
  INFO(o);
  CHECK(o.status == 2);
  CHECK(contains(o.err, "warpreg: error:"));
  CHECK(contains(o.err, "register"));
}

TEST_CASE("cli: describe prints the hardware view as JSON without running", "[cli]") {
  const Outcome o = run_warpreg("describe --set synth.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);
  const json view = json::parse(o.out);
  CHECK(view.is_object());
  CHECK(!view.empty());
}

TEST_CASE("cli: bench --json reports platform and b_transport rates", "[cli]") {
  const Outcome o = run_warpreg("bench --json --calls 100000 --set synth.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);
  const json r = json::parse(o.out);
  CHECK(r["preset"] == "baseline");
  CHECK(r["b_transport_calls"] == 100000);
  for (const char* key :
       {"warp_instructions_per_second", "cycles_per_second", "rf_accesses_per_second",
        "b_transport_per_second", "warp_instructions_per_b_transport",
        "b_transport_per_warp_instruction"}) {
    INFO(key);
    CHECK(r[key].get<double>() > 0);
  }
}

TEST_CASE("cli: bench takes any preset and workload and reports peak memory", "[cli]") {
  const Outcome o =
      run_warpreg("bench --json --calls 1000 --preset wc -w rfv-hotspot --set profile.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);
  const json r = json::parse(o.out);
  CHECK(r["preset"] == "wc");
  CHECK(contains(r["workload"].get<std::string>(), "rfv-hotspot"));
  CHECK(r["peak_rss_mib"].get<double>() > 1);
  CHECK(r["platform_cpu_seconds"].get<double>() > 0);
}

TEST_CASE("cli: bench --all runs every shipped preset beside a baseline", "[cli]") {
  const Outcome o = run_warpreg(
      "bench --all --json --calls 1000 --all-workload regmutex-srad --set profile.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);  // refused configurations are skipped, not failures
  const json rows = json::parse(o.out);
  REQUIRE(rows.is_array());
  std::set<std::string> presets, skipped;
  for (const json& row : rows) {
    presets.insert(row["preset"].get<std::string>());
    INFO(row.dump());
    CHECK_FALSE(row.contains("error"));
    // A preset that refuses the kernel says why instead of a rate.
    if (row.contains("skipped")) {
      skipped.insert(row["preset"].get<std::string>());
      CHECK(contains(row["skipped"].get<std::string>(), "regmutex deadlock rule"));
      continue;
    }
    CHECK(row["ratio_to_baseline"].get<double>() > 0);
    CHECK(row["baseline_warp_instructions_per_second"].get<double>() > 0);
  }
  for (const char* preset : {"baseline", "rfv", "wc", "wrf", "regmutex", "ltrf"})
    CHECK(presets.count(preset));
  // |E_s| = 10 and 12 leave too small a base set for the 12 registers live at one of
  // SRAD's barriers.
  CHECK(skipped.count("regmutex-es10"));
  CHECK(skipped.count("regmutex-es12"));
}

TEST_CASE("cli: bench --all --repeat reports the median of its pairs", "[cli]") {
  const Outcome o = run_warpreg(
      "bench --all --json --calls 1000 --repeat 3 --all-preset wc --all-preset regmutex-es12 "
      "--all-workload regmutex-srad --set profile.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);
  const json rows = json::parse(o.out);
  REQUIRE(rows.size() == 2);  // only the presets named, in their order
  const json& wc = rows[0];
  CHECK(wc["preset"] == "wc");
  REQUIRE(wc["ratios"].size() == 3);
  std::vector<double> ratios = wc["ratios"].get<std::vector<double>>();
  std::sort(ratios.begin(), ratios.end());
  CHECK(wc["ratio_to_baseline"].get<double>() == ratios[1]);
  CHECK(ratios[0] > 0);
  // A refused configuration is skipped after its first pair, not run three times.
  CHECK(rows[1]["preset"] == "regmutex-es12");
  CHECK(rows[1].contains("skipped"));
  CHECK_FALSE(rows[1].contains("ratios"));
}

TEST_CASE("cli: bench refuses --repeat without --all, a bad count or an unknown preset", "[cli]") {
  const std::pair<const char*, const char*> cases[] = {
      {"bench --repeat 3", "go with --all"},
      {"bench --all-preset wc", "go with --all"},
      {"bench --all --repeat 0", "--repeat must be from 1 to 100"},
      {"bench --all --all-preset no-such-preset", "no-such-preset"}};
  for (const auto& [args, message] : cases) {
    const Outcome o = run_warpreg(args);
    INFO(args << "\n" << o);
    CHECK(o.status == 2);
    CHECK(contains(o.err, "warpreg: error: --"));
    CHECK(contains(o.err, message));
  }
}

TEST_CASE("cli: bench --callgrind counts host instructions of the platform's run", "[cli]") {
  // Valgrind cannot run a sanitizer build, and it is an optional package.
#if defined(__SANITIZE_ADDRESS__)
  WARN("sanitizer build: bench --callgrind not run");
  return;
#endif
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) {
    WARN("valgrind is not installed: bench --callgrind not run");
    return;
  }
  const Outcome o = run_warpreg("bench --callgrind --json --set synth.ctas=2");
  INFO(o);
  REQUIRE(o.status == 0);
  const json r = json::parse(o.out);
  CHECK(r["status"] == "ok");
  CHECK(r["warp_instructions"].get<double>() > 0);
  // A warp instruction costs thousands of host instructions; start-up alone is millions,
  // so a count that included it would be far above this bound for 6,400 instructions.
  const double per_inst = r["host_instructions_per_warp_instruction"].get<double>();
  CHECK(per_inst > 500);
  CHECK(per_inst < 20000);
}

TEST_CASE("cli: compile reports the passes of every function of a real CFG", "[cli][compile]") {
  const std::string dot = std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/hotspot.dot";
  const Outcome o = run_warpreg("compile '" + dot + "' -n 8 24 --json");
  INFO(o);
  REQUIRE(o.status == 0);
  const json all = json::parse(o.out);
  REQUIRE(all.size() == 4);  // the kernel and three __cuda_sm20 helpers
  const json& k = all[0];
  CHECK(k["kernel"] == "_Z14calculate_tempiPfS_S_iiiiffffff");
  CHECK(k["instructions"] == 183);
  CHECK(k["max_live"].get<int>() <= k["registers"].get<int>());
  CHECK(k["release_flags"]["pir"].get<int>() > 0);
  REQUIRE(k["register_intervals"].size() == 2);
  CHECK(k["register_intervals"][0]["regs_per_interval"] == 8);
  CHECK(k["register_intervals"][0]["working_set_max"].get<int>() <= 8);
  CHECK(k["register_intervals"][1]["working_set_max"].get<int>() <= 24);
  CHECK(k["register_intervals"][0]["intervals"].get<int>() >
        k["register_intervals"][1]["intervals"].get<int>());
  CHECK(k["regmutex"]["threads_per_cta"] == 256);
}

TEST_CASE("cli: compile rebuilds the CFG of the Accel-Sim sample", "[cli][compile]") {
  const std::string trace =
      std::string(WARPREG_SHARED_DATA_DIR) + "/accelsim/kernel-593-ctx_0x55c28dad19e0.traceg";
  const Outcome o = run_warpreg("compile '" + trace + "'");
  INFO(o);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "33 instructions"));
  CHECK(contains(o.out, "RegMutex (128 threads/CTA)"));
  CHECK(contains(o.out, "register-intervals N = 16"));
  CHECK(contains(o.err, "-nregs = 21955 disagrees"));
}

TEST_CASE("cli: compile rejects other files and unknown functions", "[cli][compile][bad-input]") {
  const Outcome other = run_warpreg("compile kernel.ptx");
  CHECK(other.status == 2);
  CHECK(contains(other.err, "FILE.dot"));
  const std::string dot = std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/cutcp.dot";
  const Outcome missing = run_warpreg("compile '" + dot + "' --function nope");
  CHECK(missing.status == 2);
  CHECK(contains(missing.err, "no function 'nope'"));
  const Outcome zero = run_warpreg("compile '" + dot + "' -n 0");
  CHECK(zero.status == 2);
  CHECK(contains(zero.err, "--regs-per-interval"));
  // Negative numbers are shown as given, not wrapped to 2^32 - N.
  const Outcome negative = run_warpreg("compile '" + dot + "' -n -5");
  CHECK(negative.status == 2);
  CHECK(contains(negative.err, "--regs-per-interval must be 1..255, got -5"));
  const Outcome threads = run_warpreg("compile '" + dot + "' --threads-per-cta -1");
  CHECK(threads.status == 2);
  CHECK(contains(threads.err, "--threads-per-cta must be 1..1024, got -1"));
  const Outcome none = run_warpreg("compile");
  CHECK(none.status == 2);
}

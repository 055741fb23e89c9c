// The GPU platform: CTA distribution, SMs sharing one memory system, totals and per-SM
// statistics. One platform per process (each TEST_CASE runs in its own).
#include <catch2/catch.hpp>
#include <fstream>
#include <set>

#include "common/params.h"
#include "platforms/gpu/cta_distributor.h"
#include "platforms/gpu/gpu_platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {
const std::string kTrace =
    std::string(WARPREG_SHARED_DATA_DIR) + "/accelsim/kernel-593-ctx_0x55c28dad19e0.traceg";
}

TEST_CASE("CTA distributor: the first wave goes round robin, then first come first served",
          "[gpu][cta]") {
  CtaDistributor d(10, 3, 2);  // first wave: 6 CTAs, 2 per SM
  uint32_t cta = 0;
  REQUIRE(d.source(1).next_cta(0, cta));
  CHECK(cta == 1);
  REQUIRE(d.source(1).next_cta(0, cta));
  CHECK(cta == 4);
  REQUIRE(d.source(0).next_cta(0, cta));
  CHECK(cta == 0);
  // SM 1 has had its first wave: it gets the first CTA after the wave.
  REQUIRE(d.source(1).next_cta(5, cta));
  CHECK(cta == 6);
  REQUIRE(d.source(2).next_cta(6, cta));
  CHECK(cta == 2);
  std::set<uint32_t> seen = {1, 4, 0, 6, 2};
  for (uint32_t sm : {0u, 2u, 0u, 1u, 2u, 0u}) {
    if (d.source(sm).next_cta(7, cta)) CHECK(seen.insert(cta).second);
  }
  CHECK(seen.size() == 10);
  CHECK_FALSE(d.source(0).next_cta(9, cta));
  CHECK(d.issued_to(0) + d.issued_to(1) + d.issued_to(2) == 10);
}

TEST_CASE("GPU: gpu.sms = 1 is today's single-SM machine", "[gpu][golden]") {
  // The baseline golden file's cycles, run through the GPU platform with one SM.
  const Params params = Params::load("baseline", {"synth.ctas=12", "synth.insts_per_warp=120"});
  GpuPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json s = platform.run();
  std::ifstream in(std::string(WARPREG_TESTDATA_DIR) + "/golden/baseline_synthetic.json");
  const nlohmann::json golden = nlohmann::json::parse(in);
  CHECK(s["status"] == "ok");
  CHECK(s["cycles"] == golden["cycles"]);
  CHECK(s["warp_instructions"] == golden["warp_instructions"]);
  CHECK(s["rf"] == golden["rf"]);
  CHECK(s["sms"].size() == 1);
  CHECK(s["sms"][0]["ctas"] == 12);
}

TEST_CASE("GPU: four SMs share the real trace's grid and one memory system",
          "[gpu][memory_system][accelsim]") {
  const Params params = Params::load("gpu", {"gpu.sms=4"});
  GpuPlatform platform(params, open_workload(kTrace, params));
  const nlohmann::json s = platform.run();
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["warp_instructions"] == 55 * 4 * 33);
  REQUIRE(s["sms"].size() == 4);
  uint64_t ctas = 0, instructions = 0;
  for (const auto& sm : s["sms"]) {
    ctas += sm["ctas"].get<uint64_t>();
    instructions += sm["warp_instructions"].get<uint64_t>();
    CHECK(sm["ctas"].get<uint64_t>() >= 13);  // 55 CTAs round robin over 4 SMs
    CHECK(sm["memory"]["blocks"]["l1"]["requests"].get<uint64_t>() > 0);
  }
  CHECK(ctas == 55);
  CHECK(instructions == s["warp_instructions"]);
  // Every SM's lines come to the one memory system: 440 LDG.128 x 4 lines read from DRAM.
  CHECK(s["memory"]["load_store_unit"]["requests"] == 880 * 4);
  CHECK(s["memory"]["l1_total"]["requests"] == 880 * 4);
  CHECK(s["gpu"]["dram"]["bytes_read"] == 440 * 512);
  CHECK(s["gpu"]["dram"]["peak_gbps"].get<double>() == Approx(177.408));
  CHECK(s["gpu"]["dram"]["utilisation"].get<double>() > 0);
  CHECK(s["gpu"]["dram"]["utilisation"].get<double>() <= 1);
}

TEST_CASE("GPU: the gpu preset runs 15 SMs through make_platform", "[gpu][preset]") {
  const Params params = Params::load("gpu", {"synth.ctas=30", "synth.insts_per_warp=60"});
  const auto platform = make_platform(params, open_workload("synthetic", params));
  const nlohmann::json s = platform->run();
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["gpu"]["sms"] == 15);
  REQUIRE(s["sms"].size() == 15);
  for (const auto& sm : s["sms"]) CHECK(sm["ctas"] == 2);
}

TEST_CASE("GPU: a waveform needs the single-SM platform", "[gpu][bad-input]") {
  const Params params = Params::load("gpu", {});
  RunSettings settings;
  settings.vcd_path = "x.vcd";
  CHECK_THROWS_WITH(make_platform(params, open_workload("synthetic", params), settings),
                    Catch::Matchers::Contains("--vcd"));
}

TEST_CASE("GPU: a design applies to every SM and reports under its single-SM name",
          "[gpu][design]") {
  const Params params = Params::load("rfv", {"gpu.sms=2", "profile.ctas=4"});
  GpuPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json s = platform.run();
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  REQUIRE(s["sms"].size() == 2);
  for (const auto& sm : s["sms"]) {
    CHECK(sm["blocks"].contains("rfv"));
    CHECK(sm["blocks"].contains("regfile"));
    CHECK(sm["integrity"]["checked_reads"].get<uint64_t>() > 0);
  }
  // Totals add the SMs' counters block by block.
  CHECK(s["blocks"]["rfv"]["dynamic_pj"].get<double>() ==
        Approx(s["sms"][0]["blocks"]["rfv"]["dynamic_pj"].get<double>() +
               s["sms"][1]["blocks"]["rfv"]["dynamic_pj"].get<double>()));
  CHECK(platform.block_statistics("rfv") != nullptr);
}

TEST_CASE("GPU: totals sum counters, average ratios and facts, and keep peaks", "[gpu][design]") {
  // Each statistic combines over the SMs as its block declares it (StatSet::Combine):
  // a sum of 15 leakage savings would read 14, a sum of |B_s| 270.
  const Params params =
      Params::load("regmutex", {"gpu.sms=3", "mem.model=memory_system", "sim.quantum_cycles=140"});
  GpuPlatform platform(params, open_workload("regmutex-bfs", params));
  const nlohmann::json s = platform.run();
  REQUIRE(s["status"] == "ok");
  REQUIRE(s["sms"].size() == 3);
  const nlohmann::json& total = s["blocks"]["regmutex"];
  auto per_sm = [&](const char* block, const char* key) {
    std::vector<double> v;
    for (const auto& sm : s["sms"]) v.push_back(sm["blocks"][block][key].get<double>());
    return v;
  };
  const std::vector<double> acquires = per_sm("regmutex", "acquires");
  CHECK(total["acquires"].get<double>() == acquires[0] + acquires[1] + acquires[2]);
  const std::vector<double> rate = per_sm("regmutex", "acquire_success_rate");
  CHECK(total["acquire_success_rate"].get<double>() == Approx((rate[0] + rate[1] + rate[2]) / 3));
  CHECK(total["acquire_success_rate"].get<double>() <= 1.0);
  CHECK(total["base_regs"] == s["sms"][0]["blocks"]["regmutex"]["base_regs"]);
  CHECK(total["mode"] == "shared");
  // Names no StatSet declares: energies sum, the L1s' means are the mean over the SMs.
  const std::vector<double> l1_mean = [&] {
    std::vector<double> v;
    for (const auto& sm : s["sms"])
      v.push_back(sm["memory"]["blocks"]["l1"]["mshr_occupancy_mean"].get<double>());
    return v;
  }();
  CHECK(s["memory"]["l1_total"]["mshr_occupancy_mean"].get<double>() ==
        Approx((l1_mean[0] + l1_mean[1] + l1_mean[2]) / 3));
  const std::vector<double> pj = per_sm("regmutex", "dynamic_pj");
  CHECK(total["dynamic_pj"].get<double>() == Approx(pj[0] + pj[1] + pj[2]));
}

// Whole-platform runs of Warped-Compression: compression never changes a value
// the program reads, on every value model, scheduler and BDI variant.
#include <catch2/catch.hpp>

#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

nlohmann::json run_wc(const std::string& preset, std::vector<std::string> sets) {
  sets.insert(sets.begin(), {"synth.ctas=12", "synth.insts_per_warp=120"});
  const Params params = Params::load(preset, sets);
  SmPlatform platform(params, open_workload("synthetic", params));
  return platform.run();
}

void check_intact(const nlohmann::json& s) {
  INFO(s.value("error", ""));
  CHECK(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 1000);
}

}  // namespace

TEST_CASE("wc preset: the synthetic workload runs with zero integrity mismatches",
          "[bdi][wc][platform][integrity]") {
  const nlohmann::json s = run_wc("wc", {});
  check_intact(s);
  const nlohmann::json& wc = s["blocks"]["wc"];
  CHECK(wc["compressed_reads"].get<uint64_t>() > 0);
  CHECK(wc["divergent_writes"].get<uint64_t>() > 0);
  CHECK(wc["dummy_movs"].get<uint64_t>() > 0);
  for (const char* e : {"<4,0>", "<4,1>", "<4,2>", "uncompressed"}) {
    INFO(e);
    CHECK(wc["writes_by_encoding"][e].get<uint64_t>() > 0);
  }
  CHECK(wc["compression_ratio"]["non_divergent"].get<double>() > 1.0);
  // Compressed reads touch fewer 16-byte slices than whole registers would.
  CHECK(s["blocks"]["regfile"]["events"]["slice_reads"].get<uint64_t>() <
        8 * s["rf"]["reads"].get<uint64_t>());
  CHECK(s["blocks"]["crossbar"]["events"]["flits"].get<uint64_t>() <
        8 * (s["rf"]["reads"].get<uint64_t>() + s["rf"]["writes"].get<uint64_t>()));
  CHECK(wc["bank_gating"]["wakeups"].get<uint64_t>() > 0);
}

TEST_CASE("wc-lrr preset runs with zero integrity mismatches", "[bdi][wc][platform][integrity]") {
  const nlohmann::json s = run_wc("wc-lrr", {});
  check_intact(s);
  CHECK(s["params"]["sm.scheduler"] == "lrr");
}

#define WC_VALUES_RUN(MODEL)                                                                     \
  TEST_CASE("wc on value model " MODEL " with heavy divergence keeps every value",               \
            "[bdi][wc][platform][integrity]") {                                                  \
    const nlohmann::json s = run_wc("wc", {"synth.value_model=" MODEL, "synth.divergence=0.5"}); \
    check_intact(s);                                                                             \
  }
WC_VALUES_RUN("similar")
WC_VALUES_RUN("uniform")
WC_VALUES_RUN("mixed")

#define WC_VARIANT_RUN(VARIANT)                                                             \
  TEST_CASE("wc variant " VARIANT " keeps every value", "[bdi][wc][platform][integrity]") { \
    const nlohmann::json s = run_wc("wc", {"wc.variant=" VARIANT});                         \
    check_intact(s);                                                                        \
    CHECK(s["blocks"]["wc"]["compressed_reads"].get<uint64_t>() > 0);                       \
  }
WC_VARIANT_RUN("only_4_0")
WC_VARIANT_RUN("only_4_1")
WC_VARIANT_RUN("only_4_2")
WC_VARIANT_RUN("original")

TEST_CASE("wc: describe shows the stage and its codec blocks as modules", "[bdi][wc][describe]") {
  const Params params = Params::load("wc", {"synth.ctas=2"});
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json d = platform.describe();
  CHECK(d["operand_path"] == nlohmann::json({"sm.collectors", "crossbar", "wc", "regfile"}));
  const nlohmann::json& wc = d["blocks"]["wc"];
  CHECK(wc["storage_bits"]["range_indicators"] == 1024 * 2);
  CHECK(wc["storage_bits"]["valid_bits"] == 1024 * 8);
  CHECK(wc["latency_cycles"]["bank_wakeup"] == 10);
  CHECK(wc["organisation"]["gated_banks"] == 32);
  const nlohmann::json& compressor = d["blocks"]["wc.bdi_compressor"];
  CHECK(compressor["units"] == 2);
  CHECK(compressor["latency_cycles"]["operation"] == 2);
  CHECK(compressor["energy"]["events"][0]["pj_per_event"] == 23.0);
  const nlohmann::json& decompressor = d["blocks"]["wc.bdi_decompressor"];
  CHECK(decompressor["units"] == 4);
  CHECK(decompressor["latency_cycles"]["operation"] == 1);
  CHECK(decompressor["energy"]["residency"][0]["mw_per_unit"]["on"] == 0.08);
}

TEST_CASE(
    "wc on the rfv-hotspot profile keeps every value and the register file accounts the "
    "banks' leakage by the states wc gives them",
    "[bdi][wc][platform][integrity][leakage]") {
  const Params params = Params::load("wc", {"profile.ctas=4"});
  SmPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json s = platform.run();
  check_intact(s);
  const nlohmann::json& wc = s["blocks"]["wc"];
  CHECK(wc["compressed_reads"].get<uint64_t>() > 0);
  CHECK(wc["warp_instructions"] == s["warp_instructions"]);
  CHECK(wc["leakage_pj"].get<double>() == 0.0);
  const nlohmann::json& rf = s["blocks"]["regfile"];
  CHECK(rf["power_controllers"] == nlohmann::json({"wc"}));
  // Every cell (1024 registers x 8 slices) is on or gated in every cycle of the run; a
  // column gated after the last cycle (its wake-up ending then) stays on until then.
  const uint64_t cycles = s["cycles"].get<uint64_t>();
  const nlohmann::json& cells = rf["residency"]["cells"];
  const uint64_t on = cells["on"].get<uint64_t>(), gated = cells["gated"].get<uint64_t>();
  CHECK(on + gated >= 8192 * cycles);
  CHECK(on + gated <= 8192 * (cycles + 10));
  // The cells wc gated are its 16-byte banks' gated cycles, 256 entries each.
  uint64_t gated_columns = 0;
  for (const auto& g : wc["bank_gating"]["gated_cycles_per_bank"])
    gated_columns += g.get<uint64_t>();
  CHECK(gated > 0);
  CHECK(gated == 256 * gated_columns);
  // wc45: 5.8 mW per 4 KB column of 256 cells; the codec units 2 x 0.12 + 4 x 0.08 mW.
  const double ns = 1e3 / 1400;
  CHECK(rf["leakage_pj"].get<double>() == Approx(double(on) / 256 * 5.8 * ns));
  CHECK(s["blocks"]["wc.bdi_compressor"]["leakage_pj"].get<double>() ==
        Approx(double(cycles) * 0.24 * ns));
  CHECK(s["blocks"]["wc.bdi_decompressor"]["leakage_pj"].get<double>() ==
        Approx(double(cycles) * 0.32 * ns));
  double leakage = 0;
  for (const auto& [name, b] : s["blocks"].items()) leakage += b.value("leakage_pj", 0.0);
  CHECK(s["energy_pj"]["leakage"].get<double>() == Approx(leakage));
}

TEST_CASE("wc without gating leaves the register file's leakage all on",
          "[bdi][wc][platform][leakage]") {
  const nlohmann::json s = run_wc("wc", {"wc.bank_gating=false"});
  check_intact(s);
  const nlohmann::json& rf = s["blocks"]["regfile"];
  CHECK(rf["power_controllers"].empty());
  // The register file's 4 banks of 32 KB at 5.8 mW per 4 KB (wc45), on for the whole run.
  const double all_on = s["cycles"].get<double>() * 4 * 5.8 * 8 * (1e3 / 1400);
  CHECK(rf["leakage_pj"].get<double>() == Approx(all_on));
  CHECK(s["blocks"]["wc"]["bank_gating"]["gated_fraction"].get<double>() == 0.0);
}

TEST_CASE("wc on fermi40 (the default technology) runs after any machine",
          "[bdi][wc][platform][integrity]") {
  const Params params =
      Params::load("baseline", {"synth.ctas=12", "synth.insts_per_warp=120"}, {"wc"});
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json s = platform.run();
  check_intact(s);
  CHECK(s["technology"] == "fermi40");
  // fermi40 (rule S1 from seed 001 Table 3): 18.8416 pJ per compression.
  const nlohmann::json& c = s["blocks"]["wc.bdi_compressor"];
  CHECK(c["dynamic_pj"].get<double>() ==
        Approx(18.8416 * c["events"]["compressions"].get<double>()));
}

#define WC_WITH_DESIGN_ON_REAL_KERNEL(DESIGN)                                                   \
  TEST_CASE("wc with " DESIGN " on a real kernel (nvdisasm hotspot) keeps every value",         \
            "[bdi][wc][platform][integrity][composition]") {                                    \
    const Params params = Params::load("wc", {}, {DESIGN});                                     \
    const std::string dot = std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/hotspot.dot"; \
    SmPlatform platform(params, open_workload(dot, params));                                    \
    const nlohmann::json s = platform.run();                                                    \
    check_intact(s);                                                                            \
    CHECK(s["blocks"].contains(DESIGN));                                                        \
    CHECK(s["blocks"]["wc"]["compressed_reads"].get<uint64_t>() > 0);                           \
    CHECK(s["blocks"]["wc"]["dummy_movs"].get<uint64_t>() > 0);                                 \
  }
WC_WITH_DESIGN_ON_REAL_KERNEL("regmutex")
WC_WITH_DESIGN_ON_REAL_KERNEL("ltrf")
WC_WITH_DESIGN_ON_REAL_KERNEL("rfv")

// RFV on the whole platform (one SystemC elaboration per test case): renaming,
// GPU-shrink, gating, spilling and the hardware-only mode keep every value the program
// reads; a release flag that frees a live register is caught by the integrity check.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "common/params.h"
#include "platforms/sm/platform.h"
#include "stimuli/compiler/pass_registry.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/support/cli_runner.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using Catch::Matchers::Contains;

namespace {

nlohmann::json run(const std::string& preset, const std::string& workload,
                   const std::vector<std::string>& sets) {
  const Params params = Params::load(preset, sets);
  SmPlatform platform(params, open_workload(workload, params));
  return platform.run();
}

/// The same through `warpreg run` in a process of its own (SystemC elaborates one
/// platform per process): for a test that compares two runs.
nlohmann::json run_apart(const std::string& preset, const std::string& workload,
                         const std::vector<std::string>& sets) {
  const testing::Scratch scratch("warpreg_rfv");
  std::string args = "run --quiet --preset " + preset + " --workload " + workload + " --out '" +
                     (scratch / "out").string() + "'";
  for (const std::string& set : sets) args += " --set " + set;
  const testing::Outcome o = testing::run_warpreg(scratch, args);
  INFO(o);
  REQUIRE(o.status == 0);
  return nlohmann::json::parse(testing::slurp(scratch / "out" / "stats.json"));
}

const std::string kSample =
    std::string(WARPREG_SHARED_DATA_DIR) + "/accelsim/kernel-593-ctx_0x55c28dad19e0.traceg";

}  // namespace

TEST_CASE("rfv: renaming with gating keeps every value on the Accel-Sim sample",
          "[rfv][platform]") {
  const nlohmann::json s = run("rfv", kSample, {});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 10000);
  const nlohmann::json& rfv = s["blocks"]["rfv"];
  const nlohmann::json& table = s["blocks"]["rfv.renaming_table"];
  const nlohmann::json& cache = s["blocks"]["rfv.release_flag_cache"];
  CHECK(rfv["released_by_pir"].get<uint64_t>() > 0);
  CHECK(table["allocations"] == table["releases"]);  // every register is freed by the end
  CHECK(rfv["mean_mapped_registers"].get<double>() < 32 * 18);
  // The register file accounts the cells' leakage; RFV's gating lowers it.
  const nlohmann::json& rf = s["blocks"]["regfile"];
  CHECK(rf["power_controllers"] == nlohmann::json{"rfv"});
  CHECK(rf["residency"]["cells"]["gated"].get<uint64_t>() > 0);
  CHECK(rf["leakage_pj"].get<double>() > 0.0);
  CHECK(rfv["leakage_pj"].get<double>() == 0.0);
  // pirs that miss and pbrs are decoded but take no issue slot (rfv.metadata_issue =
  // decode, the paper's): the SM issued no metadata instruction.
  CHECK(rfv["pir_fetches"].get<uint64_t>() + rfv["pbr_fetches"].get<uint64_t>() > 0);
  CHECK(s["metadata_instructions"] == 0);
  CHECK(cache["misses"] == rfv["pir_fetches"]);
  // Fig. 12's split: the table's energy, and pir/pbr decode plus the flag cache.
  CHECK(rfv["breakdown_pj"]["renaming_table"].get<double>() ==
        Approx(table["dynamic_pj"].get<double>() + table["leakage_pj"].get<double>()));
  CHECK(rfv["breakdown_pj"]["flag_instructions"].get<double>() ==
        Approx(rfv["dynamic_pj"].get<double>() + cache["dynamic_pj"].get<double>() +
               cache["leakage_pj"].get<double>()));
}

TEST_CASE("rfv: GPU-shrink runs a profile on half the registers", "[rfv][platform]") {
  const nlohmann::json s = run("rfv-shrink", "rfv-hotspot", {"profile.ctas=6"});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["blocks"]["rfv.renaming_table"]["max_mapped_registers"].get<uint64_t>() <= 512);
  CHECK(s["blocks"]["regfile"]["storage_bits"].get<uint64_t>() == 512u * 1024);
}

TEST_CASE("rfv: a single CTA larger than the register file spills instead of deadlocking",
          "[rfv][platform]") {
  // 8 warps x 22 registers on 64 physical registers: the throttle cannot help (one CTA),
  // so waiting warps are spilled and refilled.
  const nlohmann::json s =
      run("rfv", "rfv-hotspot", {"profile.ctas=1", "rf.physical_registers=64"});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["blocks"]["rfv"]["spills"].get<uint64_t>() > 0);
  CHECK(s["blocks"]["rfv"]["fills"] == s["blocks"]["rfv"]["spills"]);
}

TEST_CASE("rfv: a spilled warp waits for the throttle before it refills", "[rfv][platform]") {
  // parboil-stencil's block2D_new on half the registers: the throttle lets one CTA run,
  // whose own warp is spilled. Refilling the other CTAs' spilled warps as soon as their
  // registers fitted took what that warp needed, and the run spilled and refilled until
  // the watchdog (246 spills in 125,000 cycles).
  const std::string kernel = std::string(WARPREG_SHARED_DATA_DIR) +
                             "/cuobjdump/henryzh-GPU_benchmark/parboil-stencil/"
                             "_cuobjdump_complete_output:sm_10:_Z11block2D_newffPfS_iii";
  const nlohmann::json s = run("rfv-shrink", kernel, {"cuobjdump.ctas=6"});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  const nlohmann::json& rfv = s["blocks"]["rfv"];
  CHECK(rfv["spills"].get<uint64_t>() > 0);
  CHECK(rfv["fills"] == rfv["spills"]);
}

TEST_CASE("rfv: hardware-only renaming releases registers only at warp exit", "[rfv][platform]") {
  const nlohmann::json s = run("rfv-hw-only", kSample, {});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  const nlohmann::json& rfv = s["blocks"]["rfv"];
  CHECK(rfv["released_by_pir"] == 0);
  CHECK(rfv["released_at_exit"] == s["blocks"]["rfv.renaming_table"]["allocations"]);
  CHECK_FALSE(s["blocks"].contains("rfv.release_flag_cache"));  // no pir, no flag cache
  CHECK(s["metadata_instructions"] == 0);
}

TEST_CASE("rfv: compiler mode needs a workload with static code", "[rfv][platform][bad-input]") {
  try {
    run("rfv", "synthetic", {"synth.ctas=1"});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Contains("rfv.mode = compiler needs the kernel's static code"));
  }
}

namespace {

/// One warp whose static code claims R1 dies at PC 0x0, while the dynamic stream
/// reads R1 again at PC 0x110: the release flag frees a live register.
class LyingWorkload : public Workload {
 public:
  LyingWorkload() : kernel_(testing::make_kernel({{"IADD R2, R1, 0x1", "EXIT"}}, {})) {
    shape_.name = "lying";
    shape_.ctas = 1;
    shape_.threads_per_cta = 32;
    shape_.regs_per_thread = 8;
    add(0x100, InstClass::Alu, 1, kZeroRegister, 0xA000);  // R1 = A
    add(0x000, InstClass::Alu, 2, 1, 0xB000);              // R2 = R1 + 1: R1 "dies"
    add(0x108, InstClass::Alu, 5, kZeroRegister, 0xC000);  // R5 takes R1's old entry
    add(0x110, InstClass::Alu, 6, 1, 0xD000);              // reads R1 again
    WarpInst exit;
    exit.pc = 0x8;
    exit.cls = InstClass::Exit;
    stream_.insts.push_back(exit);
  }
  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t, uint32_t) override {
    return slots_.play(slot, stream_);
  }
  std::string describe() const override { return "lying kernel"; }
  const Kernel* static_code() const override { return &kernel_; }
  MetadataSource& metadata() override { return metadata_; }

 private:
  void add(uint64_t pc, InstClass cls, uint16_t dst, uint16_t src, uint32_t base) {
    WarpInst i;
    i.pc = pc;
    i.cls = cls;
    i.num_dst = 1;
    i.dst[0] = dst;
    if (src != kZeroRegister) {
      i.num_src = 1;
      i.src[0] = src;
    }
    i.value_index = static_cast<uint32_t>(stream_.values.size());
    WarpRegister v;
    for (unsigned l = 0; l < kWarpSize; ++l) v.lane[l] = base + l;
    stream_.values.push_back(v);
    stream_.insts.push_back(i);
  }
  Kernel kernel_;
  KernelMetadataSource metadata_{&kernel_};
  KernelShape shape_;
  WarpTrace stream_;
  StoredStreamSlots slots_;
};

}  // namespace

TEST_CASE("rfv: a release flag that frees a live register is an integrity mismatch",
          "[rfv][platform][integrity]") {
  // Allocated at issue, R5 takes R1's freed entry before R1 is read again; allocated at
  // its write (the default), R5 may land after that read, which then finds A intact.
  const Params params = Params::load("rfv", {"rfv.allocate_at=issue"});
  SmPlatform platform(params, std::make_unique<LyingWorkload>());
  const nlohmann::json s = platform.run();
  CHECK(s["status"] == "integrity_mismatch");
  CHECK_THAT(s["error"].get<std::string>(), Contains("R1 at PC 0x110"));
  CHECK(s["blocks"]["rfv"]["released_by_pir"] == 1);
}

TEST_CASE("rfv: a writeback to a register a pbr released in flight goes nowhere",
          "[rfv][platform]") {
  // BFS's kernel writes values it never reads; a warp can reach the pbr that releases
  // such a register before the write lands. With GPU-shrink no register is left to map
  // it again, which used to stop the run.
  const nlohmann::json s = run("rfv-shrink", "regmutex-bfs", {"profile.ctas=6"});
  REQUIRE(s["status"] == "ok");
  CHECK(s["integrity"]["mismatches"] == 0);
  CHECK(s["blocks"]["rfv"]["dead_writes"].get<uint64_t>() > 0);
}

TEST_CASE("rfv: describe lists the stage and its blocks as separate modules", "[rfv][platform]") {
  const Params params = Params::load("rfv", {"profile.ctas=2"});
  SmPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json d = platform.describe();
  CHECK(d["operand_path"] == nlohmann::json({"sm.collectors", "crossbar", "rfv", "regfile"}));
  for (const char* block : {"rfv", "rfv.renaming_table", "rfv.release_flag_cache"}) {
    INFO(block);
    REQUIRE(d["blocks"].contains(block));
    const nlohmann::json& b = d["blocks"][block];
    CHECK(b["storage_bits"]["total"].get<uint64_t>() > 0);
    CHECK(b.contains("ports"));
    CHECK(b["energy"]["block"] == block);
  }
  CHECK(d["blocks"]["rfv.renaming_table"]["storage_bits"]["table"] == 8192);
  CHECK(d["blocks"]["rfv.release_flag_cache"]["storage_bits"]["flags"] == 540);
}

TEST_CASE("rfv: with metadata_issue = slot each pir miss and pbr takes an issue slot",
          "[rfv][platform]") {
  const nlohmann::json decode = run("rfv", "rfv-hotspot", {"profile.ctas=6"});
  const nlohmann::json slot =
      run_apart("rfv", "rfv-hotspot", {"profile.ctas=6", "rfv.metadata_issue=slot"});
  REQUIRE(decode["status"] == "ok");
  REQUIRE(slot["status"] == "ok");
  CHECK(slot["integrity"]["mismatches"] == 0);
  const nlohmann::json& rfv = slot["blocks"]["rfv"];
  CHECK(slot["metadata_instructions"].get<uint64_t>() ==
        rfv["pir_fetches"].get<uint64_t>() + rfv["pbr_fetches"].get<uint64_t>());
  CHECK(decode["metadata_instructions"] == 0);
  // The same instructions, and the slots the metadata took cost time.
  CHECK(slot["warp_instructions"] == decode["warp_instructions"]);
  CHECK(slot["cycles"].get<uint64_t>() > decode["cycles"].get<uint64_t>());
}

// Seed 000 §7: a register is allocated at its write. Allocating at issue holds each
// destination's register for the cycles its instruction spends in flight.
TEST_CASE("rfv: destinations are mapped at their write by default, at issue on request",
          "[rfv][platform]") {
  const nlohmann::json at_write = run("rfv", "rfv-hotspot", {"profile.ctas=6"});
  const nlohmann::json at_issue =
      run_apart("rfv", "rfv-hotspot", {"profile.ctas=6", "rfv.allocate_at=issue"});
  for (const nlohmann::json* s : {&at_write, &at_issue}) {
    REQUIRE((*s)["status"] == "ok");
    CHECK((*s)["integrity"]["mismatches"] == 0);
  }
  CHECK(at_write["params"]["rfv.allocate_at"] == "write");
  CHECK(at_write["blocks"]["rfv"]["mean_mapped_registers"].get<double>() <
        at_issue["blocks"]["rfv"]["mean_mapped_registers"].get<double>());
  // Every register reserved at issue was taken or dropped at its write.
  const nlohmann::json& table = at_write["blocks"]["rfv.renaming_table"];
  CHECK(table["allocations"] == table["releases"]);
}

// Seed 000 §9.1 counts "the number of physical registers that were actually used
// (touched at least once)" against the registers the compiler allocates: a peak, not a
// time average.
TEST_CASE("rfv: Fig. 10's allocation reduction counts the registers ever touched",
          "[rfv][platform]") {
  const nlohmann::json s = run("rfv", "rfv-hotspot", {"profile.ctas=12"});
  REQUIRE(s["status"] == "ok");
  const nlohmann::json& rfv = s["blocks"]["rfv"];
  const double touched = rfv["touched_registers"].get<double>();
  const double peak_baseline = rfv["peak_baseline_registers"].get<double>();
  // rfv-hotspot: 3 concurrent CTAs of 8 warps x the compiler's 22 registers.
  CHECK(peak_baseline == 3 * 8 * 22);
  CHECK(touched >= rfv["peak_allocated_registers"].get<double>());
  CHECK(rfv["allocation_reduction"].get<double>() == Approx(1 - touched / peak_baseline));
  CHECK(rfv["allocation_reduction_peak"].get<double>() >=
        rfv["allocation_reduction"].get<double>());
  CHECK(rfv["allocation_reduction"].get<double>() !=
        Approx(rfv["allocation_reduction_mean"].get<double>()).epsilon(0.01));
}

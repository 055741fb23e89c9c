// A sample of the real cuobjdump kernels through the baseline SM: sm_1x with inlined
// calls, loops and barriers, sm_13, sm_20 with break/continue regions and calls, each
// ending "ok" with every delivered operand matching the shadow register file.
// The whole corpus on every preset is scripts/integrity_corpus.py.
#include <catch2/catch.hpp>
#include <string>

#include "common/params.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

const std::string kCorpus = std::string(WARPREG_SHARED_DATA_DIR) + "/cuobjdump/";

/// One platform per test case: SystemC elaborates once per process.
void check_baseline(const std::string& kernel) {
  INFO(kernel);
  const Params params = Params::load("baseline", {"cuobjdump.ctas=2"});
  SmPlatform platform(params, open_workload(kCorpus + kernel, params));
  const nlohmann::json stats = platform.run();
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["checked_reads"].get<uint64_t>() > 100);
  CHECK(stats["integrity"]["mismatches"].get<uint64_t>() == 0);
}

}  // namespace

TEST_CASE("real kernels: sm_10 with calls inlined at three sites, loops and barriers",
          "[stimuli][real-kernels][platform]") {
  check_baseline("henryzh-GPU_benchmark/rodinia-srad_v1/_cuobjdump_1.sass:sm_10:_Z6reduceliiPfS_");
}

TEST_CASE("real kernels: sm_10 half registers, R124, RET bounds checks, the end bit",
          "[stimuli][real-kernels][platform]") {
  check_baseline("henryzh-GPU_benchmark/other-vecadd/_cuobjdump_1.sass");
}

TEST_CASE("real kernels: sm_10 PBK/BRK", "[stimuli][real-kernels][platform]") {
  check_baseline("FCAS-ZJU-Chiplet-GPGPU-Sim-MessagePassing/ispass-bfs/_cuobjdump_1.sass");
}

TEST_CASE("real kernels: sm_13 address registers and C2R/R2C",
          "[stimuli][real-kernels][platform]") {
  check_baseline(
      "henryzh-GPU_benchmark/other-cudacuts/_cuobjdump_1.sass:sm_13:"
      "_Z29kernel_push1_start_stochasticPiS_S_S_S_S_S_S_S_iiiiiiS_S_S_Pb");
}

TEST_CASE("real kernels: sm_20 break, continue and a switch of syncs",
          "[stimuli][real-kernels][platform]") {
  check_baseline(
      "FCAS-ZJU-Chiplet-GPGPU-Sim-MessagePassing/ispass-mum/_cuobjdump_2.sass:sm_20:"
      "_Z15mummergpuKernelP10MatchCoordPcPKiS3_ii");
}

TEST_CASE("real kernels: sm_20 calls of the division subroutines, inlined",
          "[stimuli][real-kernels][platform]") {
  check_baseline("henryzh-GPU_benchmark/rodinia-hotspot/_cuobjdump_1.sass@717bcc0");
}

// KernelWorkload end to end: a profile and an nvdisasm kernel through SmPlatform
// (one platform per test case), open_workload's dispatch, and the CLI round trip
// `warpreg trace` -> `warpreg run --workload FILE`.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/params.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string open_error(const std::string& name, const std::vector<std::string>& sets = {}) {
  try {
    open_workload(name, Params::load("baseline", sets));
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

struct Outcome {
  int status = -1;
  std::string out;
};

Outcome run_cli(const std::string& args, const std::filesystem::path& dir) {
  const std::filesystem::path out = dir / "stdout";
  const std::string command =
      std::string("'") + WARPREG_BINARY + "' " + args + " >'" + out.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  Outcome o;
  o.status = (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  o.out = text.str();
  return o;
}

}  // namespace

TEST_CASE("kernel platform: a profile runs through the SM with zero integrity mismatches",
          "[kernel_workload][platform]") {
  const Params params = Params::load("baseline", {"profile.ctas=6"});
  SmPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json stats = platform.run();
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["checked_reads"].get<uint64_t>() > 1000);
  CHECK(stats["integrity"]["mismatches"].get<uint64_t>() == 0);
  CHECK_THAT(stats["workload"].get<std::string>(), Contains("rfv-hotspot.json"));
}

TEST_CASE("kernel platform: an nvdisasm kernel runs through the SM with zero integrity mismatches",
          "[kernel_workload][platform]") {
  const Params params = Params::load("baseline", {"dot.ctas=4", "dot.threads_per_cta=128"});
  SmPlatform platform(params, open_workload(testing::shared_cfg("cutcp.dot"), params));
  const nlohmann::json stats = platform.run();
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["checked_reads"].get<uint64_t>() > 1000);
  CHECK(stats["integrity"]["mismatches"].get<uint64_t>() == 0);
}

TEST_CASE("kernel platform: open_workload dispatches by name and names the file in errors",
          "[kernel_workload]") {
  const Params params = Params::load("baseline", {});
  CHECK_THAT(open_workload("rfv-bfs", params)->describe(), Contains("profile"));
  CHECK_THAT(
      open_workload(std::string(WARPREG_SOURCE_DIR) + "/stimuli/profiles/wrf-nw.json", params)
          ->describe(),
      Contains("wrf-nw.json"));
  const std::string parboil = testing::shared_cfg("bfs_parboil.dot");
  CHECK_THAT(open_workload(parboil, params)->describe(), Contains(":_Z26BFS_kernel_multi_blk"));
  CHECK_THAT(open_workload(parboil + ":_Z10BFS_kernelPiS_P4int2S1_S_S_iS_iiS_", params)->describe(),
             Contains(":_Z10BFS_kernel"));
  CHECK_THAT(open_error(parboil + ":nope"), StartsWith(parboil + ": no function 'nope'"));
  CHECK_THAT(open_error("no-such-profile"), Contains("unknown workload 'no-such-profile'"));
  CHECK_THAT(open_error("/nonexistent/k.dot"), Contains("/nonexistent/k.dot"));
  CHECK_THAT(open_error("/nonexistent/p.json"), Contains("/nonexistent/p.json"));
}

TEST_CASE("kernel platform: warpreg trace writes a trace that warpreg run replays",
          "[kernel_workload][cli]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("warpreg-trace-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string trace = (dir / "bfs.trace").string();
  const Outcome traced =
      run_cli("trace --profile rfv-bfs --out '" + trace + "' --set profile.ctas=2", dir);
  INFO(traced.out);
  CHECK(traced.status == 0);
  CHECK_THAT(traced.out, Contains("similarity bin"));
  CHECK_THAT(traced.out, Contains("converged writes"));
  const Outcome ran =
      run_cli("run --workload '" + trace + "' --out '" + (dir / "run").string() + "'", dir);
  INFO(ran.out);
  CHECK(ran.status == 0);
  std::ifstream stats_file(dir / "run" / "stats.json");
  REQUIRE(stats_file.good());
  const nlohmann::json stats = nlohmann::json::parse(stats_file);
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"].get<uint64_t>() == 0);
  CHECK(run_cli("trace --out '" + trace + "'", dir).status ==
        2);  // neither --profile nor --workload
  std::filesystem::remove_all(dir);
}

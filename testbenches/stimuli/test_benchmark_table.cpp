// The benchmark table (stimuli/benchmarks/benchmarks.json): one row per profile, the
// paper's numbers equal to its profile's, every listed kernel present in the shared
// data, and real:ID workloads with the paper's launch.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "common/params.h"
#include "modules/interfaces/workload.h"
#include "stimuli/benchmarks/benchmark_table.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/import/input_name.h"
#include "testbenches/support/cli_runner.h"

using namespace warpreg;
using Catch::Matchers::Contains;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("benchmarks: one row per profile, paper numbers as the profile's",
          "[stimuli][benchmarks]") {
  const std::vector<BenchmarkRow> rows = read_benchmark_table(benchmark_table_path());
  std::set<std::string> ids;
  for (const BenchmarkRow& row : rows) ids.insert(row.id);
  const std::vector<std::string> profiles = shipped_profiles();
  CHECK(ids == std::set<std::string>(profiles.begin(), profiles.end()));
  size_t with_kernels = 0;
  for (const BenchmarkRow& row : rows) {
    INFO(row.id);
    CHECK(row.profile == row.id);
    const Profile p = read_profile(shipped_profile_path(row.profile));
    CHECK(row.ctas == p.ctas);
    CHECK(row.threads_per_cta == p.threads_per_cta);
    CHECK(row.regs_per_thread == p.regs_per_thread);
    CHECK(row.concurrent_ctas == p.concurrent_ctas);
    for (const auto& [field, source] : row.sources) {
      const bool paper = source.rfind("paper", 0) == 0;
      const std::string key = field == "regs_per_thread" ? "kernel." + field : "launch." + field;
      const bool profile_says_paper =
          std::find(p.paper_fields.begin(), p.paper_fields.end(), key) != p.paper_fields.end();
      CHECK(paper == profile_says_paper);
    }
    with_kernels += !row.kernels.empty();
    for (const std::string& kernel : row.kernels) {
      INFO(kernel);
      const auto input = split_input_name(shared_data_dir() + "/" + kernel);
      REQUIRE(input);
      CHECK(read_static_kernels(input->path, input->selector, 1).size() == 1);
    }
  }
  CHECK(rows.size() == 49);
  CHECK(with_kernels == 25);
}

TEST_CASE("benchmarks: real:ID runs the row's kernel with the paper's launch",
          "[stimuli][benchmarks]") {
  const BenchmarkKernel hotspot = benchmark_kernel("real:rfv-hotspot");
  CHECK_THAT(hotspot.workload, Contains("rodinia-hotspot/_cuobjdump_1.sass@717bcc0:sm_20:"));
  CHECK(hotspot.ctas == 1849);
  CHECK(hotspot.threads_per_cta == 256);
  CHECK(hotspot.regs_per_thread == 22);
  CHECK(benchmark_kernel("real:wrf-hotspot").regs_per_thread == 0);  // assumed, not the paper's
  CHECK(benchmark_kernel("real:rfv-gaussian").workload == "profile:rfv-gaussian");
  CHECK_THAT(benchmark_kernel("real:rfv-nn#2").workload, Contains("executeSecondLayer"));
  CHECK_THAT(error_of([] { benchmark_kernel("real:rfv-nn#9"); }), Contains("has 4 kernel(s)"));
  CHECK_THAT(error_of([] { benchmark_kernel("real:rfv-nn#x"); }), Contains("kernel number"));
  CHECK_THAT(error_of([] { benchmark_kernel("real:nope"); }), Contains("unknown benchmark 'nope'"));

  const Params params = Params::load("baseline", {});
  const auto vectoradd = open_workload("real:rfv-vectoradd", params);
  CHECK(vectoradd->shape().ctas == 196);
  CHECK(vectoradd->shape().threads_per_cta == 256);
  CHECK(vectoradd->shape().regs_per_thread == 4);
  const auto blackscholes = open_workload("real:rfv-blackscholes", params);
  CHECK(blackscholes->shape().regs_per_thread == 18);  // the paper's 18 over the listing's 17
  const Params small = Params::load("baseline", {"cuobjdump.ctas=3"});
  CHECK(open_workload("real:rfv-vectoradd", small)->shape().ctas == 3);
  CHECK_THAT(open_workload("real:rfv-gaussian", params)->describe(), Contains("rfv-gaussian"));
}

TEST_CASE("benchmarks: a malformed table names the row and key",
          "[stimuli][benchmarks][bad-input]") {
  const testing::Scratch dir;
  const std::string path = (dir / "table.json").string();
  auto table_error = [&](const std::string& text) {
    std::ofstream(path) << text;
    return error_of([&] { read_benchmark_table(path); });
  };
  CHECK(table_error(R"({"rows": [{"id": "a", "paper": "p", "row": "r", "profile": "a",
                     "colour": 1}]})") == path + ":1: rows[0].colour: unknown key");
  CHECK(table_error(R"({"rows": [{"id": "a", "paper": "p", "row": "r", "profile": "a",
                     "ctas": 4}]})") ==
        path + ":1: rows[0].sources.ctas: every number needs its source");
  CHECK(table_error(R"({"rows": [{"paper": "p", "row": "r", "profile": "a"}]})") ==
        path + ":1: rows[0].id: missing");
  CHECK_THAT(table_error("{"), Contains("malformed JSON"));
}

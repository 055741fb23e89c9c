// The benchmark table (stimuli/benchmarks/benchmarks.json): one row per profile, the
// paper's numbers equal to its profile's, every listed kernel present in the shared
// data, and real:ID workloads with the paper's launch.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
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

TEST_CASE("benchmarks: every row has an address mix, and a profile's instructions take it",
          "[benchmarks][memory_system]") {
  for (const BenchmarkRow& row : read_benchmark_table(benchmark_table_path())) {
    INFO(row.id);
    const std::optional<memory::AddressMix> mix =
        benchmark_address_mix(row.id, address_mix_table_path());
    REQUIRE(mix);
    CHECK(!mix->rationale.empty());
  }
  // hotspot stages half its memory instructions' data in shared memory.
  const Params with = Params::load("baseline", {"profile.ctas=2"});
  const Params without = Params::load("baseline", {"profile.ctas=2", "kernel.address_mix=none"});
  const std::unique_ptr<Workload> mixed = open_workload("rfv-hotspot", with);
  const std::unique_ptr<Workload> plain = open_workload("rfv-hotspot", without);
  std::map<MemorySpace, int> spaces;
  for (uint32_t warp = 0; warp < 2; ++warp) {
    WarpStream& a = mixed->load_warp(0, 0, warp);
    WarpStream& b = plain->load_warp(1, 0, warp);
    for (uint64_t i = 0;; ++i) {
      const WarpInst& x = a.at(i);
      const WarpInst& y = b.at(i);
      // The mix changes where memory instructions go, not the instruction stream.
      REQUIRE(x.pc == y.pc);
      REQUIRE(x.active == y.active);
      if (x.cls == InstClass::Load || x.cls == InstClass::Store) {
        ++spaces[x.mem.space()];
        CHECK(y.mem.space() == MemorySpace::None);
        std::array<uint64_t, kWarpSize> lanes{};
        CHECK(mixed->lane_addresses(x, GridSite{warp, 2, x.mem_tag}, lanes));
        CHECK_FALSE(plain->lane_addresses(y, GridSite{warp, 2, 0}, lanes));
      }
      if (x.cls == InstClass::Exit) break;
    }
  }
  CHECK(spaces[MemorySpace::Shared] > 0);
  CHECK(spaces[MemorySpace::Global] > 0);
  CHECK(spaces.count(MemorySpace::None) == 0);
}

TEST_CASE("benchmarks: kernel.address_mix names a file; a bad one is an error naming it",
          "[benchmarks][bad-input]") {
  const std::string path = "address_mix_test.json";
  std::ofstream(path) << R"({"shares": [{"share": 1.5, "space": "global"}]})";
  const Params params = Params::load("baseline", {"kernel.address_mix=" + path});
  CHECK_THAT(error_of([&] { open_workload("rfv-hotspot", params); }),
             Contains(path + ".shares[0].share"));
  const Params missing = Params::load("baseline", {"kernel.address_mix=no_such_mix.json"});
  CHECK_THAT(error_of([&] { open_workload("rfv-hotspot", missing); }),
             Contains("no_such_mix.json"));
}

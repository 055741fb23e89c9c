// Benchmark profiles: every shipped profile loads and runs, the generated kernel
// follows the profile, malformed profiles name file, line and key, and the
// value models land in Warped-Compression's similarity bins.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "modules/interfaces/occupancy.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/driver/value_model.h"

using namespace warpreg;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const char* kGood = R"({
  "name": "t",
  "source": "test",
  "paper": ["launch.ctas"],
  "assumed": ["launch.threads_per_cta", "kernel.regs_per_thread", "kernel.loops"],
  "launch": {"ctas": 2, "threads_per_cta": 64},
  "kernel": {"regs_per_thread": 12, "loops": [[3, 2]]}
})";

std::string error_of(const std::string& text) {
  try {
    parse_profile(text, "p.json");
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

WarpRegister affine(uint32_t base, uint32_t stride) {
  WarpRegister value;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) value.lane[lane] = base + lane * stride;
  return value;
}

}  // namespace

TEST_CASE("profiles: a minimal profile parses", "[profiles]") {
  const Profile p = parse_profile(kGood, "p.json");
  CHECK(p.ctas == 2);
  CHECK(p.threads_per_cta == 64);
  CHECK(p.regs_per_thread == 12);
  CHECK(p.loops == std::vector<std::vector<uint32_t>>{{3, 2}});
  CHECK(p.paper_fields == std::vector<std::string>{"launch.ctas"});
}

TEST_CASE("profiles: malformed input names file line and key", "[profiles]") {
  // kGood's lines: 6 launch, 7 kernel.
  CHECK_THAT(error_of(replaced(kGood, "\"ctas\": 2,", "\"ctas\": 2,,")), StartsWith("p.json:6: "));
  CHECK_THAT(error_of(replaced(kGood, "\"ctas\": 2", "\"ctas\": 2, \"warps\": 3")),
             StartsWith("p.json:6: launch.warps: unknown key"));
  CHECK_THAT(error_of(replaced(kGood, "\"regs_per_thread\": 12", "\"regs_per_thread\": \"x\"")),
             StartsWith("p.json:7: kernel.regs_per_thread: must be an integer"));
  CHECK_THAT(error_of(replaced(kGood, "\"regs_per_thread\": 12", "\"regs_per_thread\": 99")),
             StartsWith("p.json:7: kernel.regs_per_thread: 99 is outside"));
  CHECK_THAT(error_of(replaced(kGood, "[[3, 2]]", "[[3, -2]]")),
             StartsWith("p.json:7: kernel.loops:"));
  CHECK_THAT(error_of(replaced(kGood, "\"source\": \"test\",\n", "")), Contains("source: missing"));
  CHECK_THAT(
      error_of(replaced(kGood, "\"loops\": [[3, 2]]", "\"loops\": [[3, 2]], \"divergence\": 0.5")),
      StartsWith(
          "p.json:7: kernel.divergence: neither in \"paper\", \"measured\" nor in \"assumed\""));
  CHECK_THAT(error_of(replaced(kGood, "\"kernel.loops\"", "\"kernel.barriers\"")),
             StartsWith("p.json:5: assumed: \"kernel.barriers\" is not a field"));
  CHECK_THAT(error_of(replaced(kGood, "\"name\": \"t\",", "\"name\": \"t\", \"extra\": 1,")),
             StartsWith("p.json:2: extra: unknown key"));
  CHECK_THAT(error_of("[1, 2]"), StartsWith("p.json:1: "));
  CHECK_THROWS_WITH(read_profile("/nonexistent/p.json"), Contains("/nonexistent/p.json"));
}

TEST_CASE("profiles: the generated kernel follows the profile", "[profiles]") {
  Profile p = parse_profile(kGood, "p.json");
  p.if_regions = 2;
  p.barriers = 1;
  std::map<uint32_t, uint32_t> trips;
  const Kernel k = generate_profile_kernel(p, 1, trips);
  CHECK(k.regs_used() == 12);
  REQUIRE(trips.size() == 2);         // one loop nest, two deep
  CHECK(trips.begin()->second == 2);  // 3 iterations: 2 back edges
  CHECK(std::next(trips.begin())->second == 1);
  size_t barriers = 0, branches = 0;
  for (const BasicBlock& b : k.blocks)
    for (const StaticInst& inst : b.insts) {
      barriers += inst.cls == InstClass::Barrier;
      branches += inst.cls == InstClass::Branch;
    }
  CHECK(barriers == 1);
  CHECK(branches == 2 + 2 * 2);  // two latches, two if-regions with a branch and a jump each
  KernelRunConfig config;
  config.shape.threads_per_cta = 64;
  config.shape.regs_per_thread = 12;
  config.trip_counts = trips;
  KernelWorkload workload(k, config, "p.json");
  CHECK(workload.loop_headers().size() == 2);
}

TEST_CASE("profiles: corpus liveness leaves registers dead as real kernels do", "[profiles]") {
  Profile p = parse_profile(kGood, "p.json");
  p.regs_per_thread = 20;
  p.if_regions = 2;
  // Static dead fraction: the share of registers not live before an instruction, mean over
  // the instructions. Real kernels: median 43 % (docs/stimuli.md).
  const auto dead_fraction = [](const Kernel& k) {
    const Liveness live = compute_liveness(k);
    double dead = 0;
    for (const BasicBlock& b : k.blocks)
      for (size_t i = 0; i < b.insts.size(); ++i)
        dead += 1.0 - static_cast<double>(live.live_before[b.id][i].count()) / k.regs_used();
    return dead / static_cast<double>(k.instruction_count());
  };
  std::map<uint32_t, uint32_t> trips;
  const Kernel uniform = generate_profile_kernel(p, 1, trips);
  p.liveness = Profile::Liveness::Corpus;
  const Kernel corpus = generate_profile_kernel(p, 1, trips);
  CHECK(corpus.regs_used() == 20);  // every allocated register is named
  CHECK(dead_fraction(corpus) > dead_fraction(uniform) + 0.1);
  CHECK(dead_fraction(corpus) > 0.3);
  CHECK(dead_fraction(corpus) < 0.6);
  // The pressure burst before the loop nest reaches (nearly) every register.
  CHECK(compute_liveness(corpus).max_live >= 18);
  // Fewer long-lived registers leave more dead.
  p.long_lived = 0.2;
  CHECK(dead_fraction(generate_profile_kernel(p, 1, trips)) > dead_fraction(corpus));
}

TEST_CASE("profiles: liveness and measured fields are checked", "[profiles]") {
  CHECK_THAT(error_of(replaced(kGood, "\"loops\": [[3, 2]]",
                               "\"loops\": [[3, 2]], \"liveness\": \"random\"")),
             Contains("kernel.liveness: must be \"uniform\" or \"corpus\""));
  CHECK_THAT(
      error_of(replaced(kGood, "\"loops\": [[3, 2]]", "\"loops\": [[3, 2]], \"long_lived\": 0.3")),
      Contains("kernel.long_lived: needs \"liveness\": \"corpus\""));
  CHECK_THAT(error_of(replaced(kGood, "\"source\": \"test\",",
                               "\"source\": \"test\", \"measured\": [\"kernel.loops\"],")),
             Contains("measured_from: missing"));
}

TEST_CASE("profiles: every shipped profile loads and runs", "[profiles]") {
  const std::vector<std::string> names = shipped_profiles();
  CHECK(names.size() >= 16 + 15 + 16 + 2);
  Params params = Params::load("baseline", {"profile.ctas=1", "kernel.max_insts_per_warp=2000"});
  for (const std::string& name : names) {
    INFO(name);
    const Profile p = read_profile(shipped_profile_path(name));
    CHECK(p.name == name);
    CHECK(!p.source.empty());
    CHECK(!p.assumed_fields.empty());
    auto workload = make_profile_workload(p, params);
    CHECK(workload->shape().regs_per_thread == p.regs_per_thread);
    const WarpTrace s = record(workload->load_warp(0, 0, 0));
    REQUIRE(!s.insts.empty());
    CHECK(s.insts.back().cls == InstClass::Exit);
  }
}

TEST_CASE("profiles: the paper's concurrent CTAs bound the occupancy", "[profiles]") {
  const Params params = Params::load("baseline", {});
  auto workload = make_profile_workload(read_profile(shipped_profile_path("rfv-hotspot")), params);
  CHECK(compute_occupancy(SmLimits{}, workload->shape()).ctas == 3);
  auto bfs = make_profile_workload(read_profile(shipped_profile_path("rfv-bfs")), params);
  CHECK(compute_occupancy(SmLimits{}, bfs->shape()).ctas == 3);
}

TEST_CASE("similarity bins: distances as seed 001 defines them", "[profiles][similarity]") {
  CHECK(classify_register(affine(7, 0)) == SimilarityBin::Zero);
  CHECK(classify_register(affine(7, 1)) == SimilarityBin::Within128);
  CHECK(classify_register(affine(7, 128)) == SimilarityBin::Within128);
  CHECK(classify_register(affine(7, 129)) == SimilarityBin::Within32K);
  CHECK(classify_register(affine(7, 32768)) == SimilarityBin::Within32K);
  CHECK(classify_register(affine(7, 32769)) == SimilarityBin::Random);
  CHECK(classify_register(affine(100, static_cast<uint32_t>(-3))) == SimilarityBin::Within128);
  CHECK(distance_bin(0xffffffffu, 0) == SimilarityBin::Within128);  // -1 to 0
  WarpRegister one_jump = affine(5, 0);
  one_jump.lane[17] = 5 + 40000;
  CHECK(classify_register(one_jump) == SimilarityBin::Random);  // the largest distance decides
  // A 16-thread warp: lanes 16..31 do not exist and are not compared.
  WarpRegister half = affine(70000, 0);
  for (unsigned lane = 16; lane < kWarpSize; ++lane) half.lane[lane] = 0;
  CHECK(classify_register(half) == SimilarityBin::Random);
  CHECK(classify_register(half, 0xffffu) == SimilarityBin::Zero);
  CHECK(classify_register(affine(0, 1000), 0x5u) == SimilarityBin::Within32K);  // lanes 0 and 2
}

TEST_CASE("similarity bins: each value model lands in its bin", "[profiles][similarity]") {
  Rng rng(3);
  WarpRegister v;
  for (int i = 0; i < 50; ++i) {
    fill_lanes(rng, {LaneValueKind::Uniform, 0, 0}, 0, v);
    CHECK(classify_register(v) == SimilarityBin::Zero);
    fill_lanes(rng, {LaneValueKind::Affine, 4, 123}, 64, v);
    CHECK(classify_register(v) == SimilarityBin::Within128);
    fill_lanes(rng, {LaneValueKind::Affine, 1024, 0}, 64, v);
    CHECK(classify_register(v) == SimilarityBin::Within32K);
    fill_lanes(rng, {LaneValueKind::Narrow, 10, 0}, 0, v);
    CHECK(classify_register(v) <= SimilarityBin::Within128);
    for (uint32_t lane : v.lane) CHECK(lane < 10);
  }
}

TEST_CASE("similarity bins: a profile's trace shows all four bins and more random when divergent",
          "[profiles][similarity]") {
  const Params params = Params::load("baseline", {"profile.ctas=4"});
  auto workload = make_profile_workload(read_profile(shipped_profile_path("rfv-bfs")), params);
  const SimilarityHistogram h = measure_similarity(*workload);
  REQUIRE(h.converged_total() > 0);
  REQUIRE(h.divergent_total() > 0);
  for (unsigned b = 0; b < kSimilarityBinCount; ++b) CHECK(h.converged[b] > 0);
  // Seed 001 §3: the random share grows from 21 % to 57 % under divergence.
  CHECK(h.divergent_share(SimilarityBin::Random) > h.converged_share(SimilarityBin::Random));
}

// KernelWorkload: the SIMT stack on hand-made kernels (masks and reconvergence
// exactly), loops, predication, exits, the instruction cap, determinism, buffer
// reuse, and every real nvdisasm CFG executed to its exit.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using testing::make_kernel;

namespace {

KernelRunConfig one_warp(uint32_t regs = 16) {
  KernelRunConfig config;
  config.shape.ctas = 1;
  config.shape.threads_per_cta = 32;
  config.shape.regs_per_thread = regs;
  return config;
}

std::vector<uint64_t> pcs(const WarpTrace& stream) {
  std::vector<uint64_t> out;
  for (const WarpInst& inst : stream.insts) out.push_back(inst.pc);
  return out;
}

/// The active mask of the (only) dynamic instance of `pc`.
LaneMask mask_at(const WarpTrace& stream, uint64_t pc) {
  for (const WarpInst& inst : stream.insts)
    if (inst.pc == pc) return inst.active;
  FAIL("pc " << pc << " not executed");
  return 0;
}

unsigned lanes(LaneMask mask) {
  unsigned n = 0;
  for (; mask; mask &= mask - 1) ++n;
  return n;
}

/// Exactly one exit, at the end, and no empty mask.
void check_well_formed(const WarpTrace& stream) {
  REQUIRE(!stream.insts.empty());
  CHECK(stream.insts.back().cls == InstClass::Exit);
  for (size_t i = 0; i + 1 < stream.insts.size(); ++i)
    REQUIRE(stream.insts[i].cls != InstClass::Exit);
  for (const WarpInst& inst : stream.insts) REQUIRE(inst.active != 0);
}

bool same_stream(const WarpTrace& a, const WarpTrace& b) {
  if (a.insts.size() != b.insts.size() || a.values != b.values) return false;
  for (size_t i = 0; i < a.insts.size(); ++i) {
    const WarpInst& x = a.insts[i];
    const WarpInst& y = b.insts[i];
    if (x.pc != y.pc || x.active != y.active || x.cls != y.cls || x.dst != y.dst ||
        x.src != y.src || x.num_dst != y.num_dst || x.num_src != y.num_src)
      return false;
  }
  return true;
}

/// B0 -> {B1, B4}; B1 -> {B2, B3}; B2 -> B3; B3 -> B5; B4 -> B5. ipdom(B0) = B5,
/// ipdom(B1) = B3: an inner divergence reconverging inside the outer one.
Kernel nested_kernel() {
  return make_kernel({{"ISETP.GE.AND P0, PT, R0, R1, PT", "@P0 BRA `(.L_4)"},
                      {"ISETP.GE.AND P1, PT, R2, R3, PT", "@P1 BRA `(.L_3)"},
                      {"IADD R4, R4, 0x1"},
                      {"IADD R5, R5, 0x1", "BRA `(.L_5)"},
                      {"IADD R6, R6, 0x1"},
                      {"EXIT"}},
                     {{0, 1}, {0, 4}, {1, 2}, {1, 3}, {2, 3}, {3, 5}, {4, 5}});
}

}  // namespace

TEST_CASE("kernel workload: a diamond splits at the branch and reconverges at its ipdom",
          "[kernel_workload]") {
  // PCs: B0 0..24 (branch at 24), B1 32 40, B2 48, B3 56 64.
  KernelRunConfig config = one_warp();
  config.divergence = 1;
  KernelWorkload workload(testing::diamond_kernel(), config, "diamond");
  const WarpTrace s = record(workload.load_warp(0, 0, 0));
  check_well_formed(s);
  // The fall-through (then) path runs first, the taken path next, then B3 with all lanes.
  CHECK(pcs(s) == std::vector<uint64_t>{0, 8, 16, 24, 32, 40, 48, 56, 64});
  const LaneMask then_lanes = mask_at(s, 32), else_lanes = mask_at(s, 48);
  CHECK(mask_at(s, 24) == kFullMask);  // the branch issues in every lane
  CHECK(then_lanes != 0);
  CHECK(else_lanes != 0);
  CHECK((then_lanes & else_lanes) == 0);
  CHECK((then_lanes | else_lanes) == kFullMask);
  CHECK(mask_at(s, 40) == then_lanes);
  CHECK(mask_at(s, 56) == kFullMask);
  CHECK(mask_at(s, 64) == kFullMask);
}

TEST_CASE("kernel workload: a branch that does not split sends the warp one way",
          "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.divergence = 0;
  config.taken = 1;
  KernelWorkload taken(testing::diamond_kernel(), config, "diamond");
  CHECK(pcs(record(taken.load_warp(0, 0, 0))) == std::vector<uint64_t>{0, 8, 16, 24, 48, 56, 64});
  config.taken = 0;
  KernelWorkload not_taken(testing::diamond_kernel(), config, "diamond");
  CHECK(pcs(record(not_taken.load_warp(0, 0, 0))) ==
        std::vector<uint64_t>{0, 8, 16, 24, 32, 40, 56, 64});
}

TEST_CASE("kernel workload: a loop takes its back edge trip-count times", "[kernel_workload]") {
  // PCs: B0 0 8 16, B1 (header) 24 32, B2 (body) 40..64, B3 72 80.
  KernelRunConfig config = one_warp();
  config.default_trip_count = 3;
  KernelWorkload workload(testing::loop_kernel(), config, "loop");
  CHECK(workload.loop_headers() == std::vector<uint32_t>{1});
  const WarpTrace s = record(workload.load_warp(0, 0, 0));
  check_well_formed(s);
  std::vector<uint64_t> want = {0, 8, 16};
  for (int i = 0; i < 3; ++i) want.insert(want.end(), {24, 32, 40, 48, 56, 64});
  want.insert(want.end(), {24, 32, 72, 80});
  CHECK(pcs(s) == want);
  for (const WarpInst& inst : s.insts) CHECK(inst.active == kFullMask);

  config.trip_counts[1] = 0;  // per-loop count overrides the default
  KernelWorkload never(testing::loop_kernel(), config, "loop");
  CHECK(pcs(record(never.load_warp(0, 0, 0))) == std::vector<uint64_t>{0, 8, 16, 24, 32, 72, 80});
}

TEST_CASE("kernel workload: nested divergence reconverges at each branch's ipdom",
          "[kernel_workload]") {
  // PCs: B0 0 8, B1 16 24, B2 32, B3 40 48, B4 56, B5 64.
  KernelRunConfig config = one_warp();
  config.divergence = 1;
  config.shape.ctas = 8;
  KernelWorkload workload(nested_kernel(), config, "nested");
  bool saw_both_levels = false;
  for (uint32_t cta = 0; cta < 8; ++cta) {
    const WarpTrace s = record(workload.load_warp(0, cta, 0));
    check_well_formed(s);
    const LaneMask outer = mask_at(s, 16);  // lanes that fell through at B0
    const LaneMask taken = mask_at(s, 56);
    CHECK((outer | taken) == kFullMask);
    CHECK((outer & taken) == 0);
    CHECK(mask_at(s, 40) == outer);  // B3 = ipdom(B1): the inner paths have rejoined
    CHECK(mask_at(s, 48) == outer);
    CHECK(mask_at(s, 64) == kFullMask);  // B5 = ipdom(B0)
    if (lanes(outer) >= 2) {
      // The inner branch split: B2 runs only in its fall-through lanes.
      const LaneMask inner = mask_at(s, 32);
      CHECK((inner & ~outer) == 0);
      CHECK(inner != outer);
      CHECK(pcs(s) == std::vector<uint64_t>{0, 8, 16, 24, 32, 40, 48, 56, 64});
      saw_both_levels = true;
    }
  }
  CHECK(saw_both_levels);
}

TEST_CASE("kernel workload: guards mask instructions and later readers see the same predicate",
          "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.divergence = 1;
  KernelWorkload workload(make_kernel({{"ISETP.GE.AND P0, PT, R0, R1, PT", "@P0 IADD R1, R1, 0x1",
                                        "@!P0 IADD R2, R2, 0x1", "@P0 IADD R3, R3, 0x1", "EXIT"}},
                                      {}),
                          config, "guards");
  const WarpTrace s = record(workload.load_warp(0, 0, 0));
  check_well_formed(s);
  const LaneMask p0 = mask_at(s, 8);
  CHECK(p0 != 0);
  CHECK(p0 != kFullMask);
  CHECK(mask_at(s, 16) == (kFullMask & ~p0));
  CHECK(mask_at(s, 24) == p0);
  CHECK(mask_at(s, 32) == kFullMask);
}

TEST_CASE("kernel workload: a guarded EXIT retires lanes and the last exit ends the stream",
          "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.early_exit = 1;
  config.shape.ctas = 16;
  KernelWorkload workload(
      make_kernel({{"ISETP.GE.AND P0, PT, R0, R1, PT", "@P0 EXIT"}, {"IADD R1, R1, 0x1", "EXIT"}},
                  {{0, 1}}),
      config, "early exit");
  bool saw_partial = false;
  for (uint32_t cta = 0; cta < 16; ++cta) {
    const WarpTrace s = record(workload.load_warp(0, cta, 0));
    check_well_formed(s);
    const LaneMask retired = mask_at(s, 8);
    if (retired == kFullMask) {
      CHECK(pcs(s) == std::vector<uint64_t>{0, 8});  // everybody left at the first EXIT
      continue;
    }
    saw_partial = true;
    CHECK(s.insts[1].cls == InstClass::Branch);  // an early exit is not the warp's end
    CHECK(mask_at(s, 16) == (kFullMask & ~retired));
    CHECK(mask_at(s, 24) == (kFullMask & ~retired));
  }
  CHECK(saw_partial);
}

TEST_CASE("kernel workload: the instruction cap ends a warp with an exit", "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.default_trip_count = 1000000;
  config.max_insts_per_warp = 50;
  KernelWorkload workload(testing::loop_kernel(), config, "long loop");
  const WarpTrace s = record(workload.load_warp(0, 0, 0));
  check_well_formed(s);
  CHECK(s.insts.size() == 50);
  CHECK(s.insts.back().pc == 80);  // the kernel's EXIT
  CHECK(workload.capped_warps() == 1);
  // The run must not end "ok" unless the user accepted truncated streams.
  CHECK(workload.notes().capped_warps == 1);
  CHECK_THAT(
      workload.notes().capped_failure,
      Catch::Matchers::StartsWith("long loop: 1 warp(s) reached kernel.max_insts_per_warp = 50"));
  config.allow_capped = true;
  KernelWorkload accepted(testing::loop_kernel(), config, "long loop");
  record(accepted.load_warp(0, 0, 0));
  CHECK(accepted.notes().capped_warps == 1);
  CHECK(accepted.notes().capped_failure.empty());
}

TEST_CASE("kernel workload: partial warps run only their threads", "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.shape.threads_per_cta = 40;  // warp 1 holds 8 threads
  KernelWorkload workload(testing::loop_kernel(), config, "loop");
  for (const WarpInst& inst : record(workload.load_warp(0, 0, 1)).insts)
    CHECK(inst.active == 0xffu);
}

TEST_CASE("kernel workload: operands beyond the WarpInst format are dropped and counted",
          "[kernel_workload]") {
  // ST.E.128 reads the address pair R4, R5 and the data R8..R11: six sources.
  KernelWorkload workload(make_kernel({{"ST.E.128 [R4], R8", "EXIT"}}, {}), one_warp(),
                          "wide store");
  CHECK(workload.dropped_operands() == 2);
  CHECK(workload.notes().dropped_operands == 2);
  CHECK_THAT(workload.notes().dropped_warning,
             Catch::Matchers::StartsWith("wide store: 2 register operand(s) beyond 4 sources") &&
                 Catch::Matchers::Contains("first at PC 0x0"));
  const WarpInst store = record(workload.load_warp(0, 0, 0)).insts.front();
  CHECK(store.num_src == kMaxSrc);
  CHECK(store.src[0] == 4);
}

TEST_CASE("kernel workload: a warp's stream depends only on seed cta and warp",
          "[kernel_workload]") {
  KernelRunConfig config;
  config.seed = 7;
  config.shape.ctas = 3;
  config.shape.threads_per_cta = 128;
  config.shape.regs_per_thread = 32;
  Kernel kernel = read_nvdisasm_dot(testing::shared_cfg("bfs_parboil.dot"));
  KernelWorkload a(kernel, config, "a");
  KernelWorkload b(kernel, config, "b");
  std::vector<WarpTrace> forward;
  for (uint32_t cta = 0; cta < 3; ++cta)
    for (uint32_t warp = 0; warp < 4; ++warp)
      forward.push_back(record(a.load_warp(cta * 4 + warp, cta, warp)));
  for (uint32_t cta = 3; cta-- > 0;)
    for (uint32_t warp = 4; warp-- > 0;)
      CHECK(same_stream(record(b.load_warp(0, cta, warp)), forward[cta * 4 + warp]));
  config.seed = 8;
  KernelWorkload c(kernel, config, "c");
  CHECK_FALSE(same_stream(record(c.load_warp(0, 0, 0)), forward[0]));
}

TEST_CASE("kernel workload: a slot's stream is reused and holds only what is in flight",
          "[kernel_workload]") {
  KernelRunConfig config;
  config.shape.ctas = 4;
  config.shape.threads_per_cta = 256;
  config.shape.regs_per_thread = 31;
  KernelWorkload workload(read_nvdisasm_dot(testing::shared_cfg("bfs_parboil.dot")), config, "bfs");
  WarpStream* first = &workload.load_warp(0, 0, 0);
  for (uint32_t cta = 0; cta < 4; ++cta)
    for (uint32_t warp = 0; warp < 8; ++warp) {
      WarpStream& stream = workload.load_warp(0, cta, warp);
      CHECK(&stream == first);
      uint32_t most = 0;
      visit_stream(stream,
                   [&](const WarpInst&, uint32_t) { most = std::max(most, stream.held()); });
      CHECK(most <= 64);  // one batch of generated instructions, not the warp
    }
}

TEST_CASE("kernel workload: a long loop takes no more memory than a short one",
          "[kernel_workload]") {
  KernelRunConfig config = one_warp();
  config.default_trip_count = 400000;  // six instructions per iteration
  config.max_insts_per_warp = 10000000;
  KernelWorkload workload(testing::loop_kernel(), config, "long loop");
  WarpStream& stream = workload.load_warp(0, 0, 0);
  uint64_t count = 0;
  uint32_t most = 0;
  visit_stream(stream, [&](const WarpInst&, uint32_t) {
    ++count;
    most = std::max(most, stream.held());
  });
  CHECK(count > 2000000);
  CHECK(most <= 64);
  CHECK(workload.capped_warps() == 0);
}

TEST_CASE("kernel workload: every function of every real CFG executes to its exit",
          "[kernel_workload]") {
  for (const char* file :
       {"BFS_ispass.dot", "LPS.dot", "bfs_parboil.dot", "cutcp.dot", "hotspot.dot"}) {
    for (Kernel& kernel : read_nvdisasm_dot_functions(testing::shared_cfg(file))) {
      INFO(file << ": " << kernel.name);
      std::set<uint64_t> static_pcs;
      for (const BasicBlock& b : kernel.blocks)
        for (const StaticInst& inst : b.insts) static_pcs.insert(inst.pc);
      KernelRunConfig config;
      config.shape.ctas = 2;
      config.shape.threads_per_cta = 96;
      config.shape.regs_per_thread = std::max<uint32_t>(1, kernel.regs_used());
      KernelWorkload workload(std::move(kernel), config, file);
      for (uint32_t cta = 0; cta < 2; ++cta)
        for (uint32_t warp = 0; warp < 3; ++warp) {
          const WarpTrace s = record(workload.load_warp(0, cta, warp));
          check_well_formed(s);
          for (size_t i = 0; i + 1 < s.insts.size(); ++i) REQUIRE(static_pcs.count(s.insts[i].pc));
        }
      CHECK(workload.capped_warps() == 0);
    }
  }
}

TEST_CASE("kernel workload: a written trace reads back as the same streams", "[kernel_workload]") {
  KernelRunConfig config;
  config.shape.ctas = 2;
  config.shape.threads_per_cta = 64;
  config.shape.regs_per_thread = 36;
  KernelWorkload workload(read_nvdisasm_dot(testing::shared_cfg("hotspot.dot")), config, "hotspot");
  std::stringstream text;
  write_trace(workload, text);
  TraceWorkload back(text, "round-trip");
  for (uint32_t cta = 0; cta < 2; ++cta)
    for (uint32_t warp = 0; warp < 2; ++warp)
      CHECK(same_stream(record(back.load_warp(0, cta, warp)),
                        record(workload.load_warp(0, cta, warp))));
}

TEST_CASE("kernel workload: a launch without room for the kernel's registers is refused",
          "[kernel_workload]") {
  CHECK_THROWS_WITH(
      KernelWorkload(testing::loop_kernel(), one_warp(4), "loop.dot"),
      Catch::Matchers::StartsWith("loop.dot:") && Catch::Matchers::Contains("names 9 registers"));
}

TEST_CASE("kernel workload: a trip spread lets lanes leave a loop at different iterations",
          "[kernel_workload]") {
  // PCs: B1 (header) 24 32, B2 (body) 40..64, B3 72 80.
  KernelRunConfig config = one_warp();
  config.default_trip_count = 4;
  config.trip_spread = 1;  // each lane: 4..8 back edges
  KernelWorkload workload(testing::loop_kernel(), config, "loop");
  const WarpTrace s = record(workload.load_warp(0, 0, 0));
  check_well_formed(s);
  std::array<unsigned, kWarpSize> bodies{};
  LaneMask previous = kFullMask;
  for (const WarpInst& inst : s.insts) {
    if (inst.pc != 40) continue;
    CHECK((inst.active & ~previous) == 0);  // a lane that left does not come back
    previous = inst.active;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) bodies[lane] += (inst.active >> lane) & 1;
  }
  std::set<unsigned> distinct(bodies.begin(), bodies.end());
  CHECK(distinct.size() > 1);
  for (unsigned n : bodies) {
    CHECK(n >= 4);
    CHECK(n <= 8);
  }
  CHECK(mask_at(s, 72) == kFullMask);  // all lanes meet again after the loop
}

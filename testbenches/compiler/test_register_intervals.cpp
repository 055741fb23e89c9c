#include <catch2/catch.hpp>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "designs/ltrf/compiler/register_intervals.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "stimuli/kernel/kernel_ir.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using namespace warpreg::testing;

namespace {

bool is_header(const IntervalPartition& p, uint32_t block, uint32_t inst) {
  const IntervalPiece& h = p.intervals.at(p.interval_of.at(block).at(inst)).header();
  return h.block == block && h.begin == inst;
}

/// The partition invariants of LTRF register-intervals, checked from the kernel itself.
void check_invariants(const Kernel& k, const IntervalPartition& p, uint32_t n) {
  REQUIRE(p.interval_of.size() == k.blocks.size());
  std::vector<uint32_t> counted(p.intervals.size(), 0);
  std::vector<RegisterSet> accessed(p.intervals.size());
  for (const BasicBlock& b : k.blocks) {
    REQUIRE(p.interval_of[b.id].size() == b.insts.size());
    for (uint32_t i = 0; i < b.insts.size(); ++i) {
      const uint32_t id = p.interval_of[b.id][i];
      REQUIRE(id < p.intervals.size());
      ++counted[id];
      for (uint16_t r : b.insts[i].dst) accessed[id].set(r);
      for (uint16_t r : b.insts[i].src) accessed[id].set(r);
      if (is_header(p, b.id, i)) continue;
      // Single entry: control reaches a non-header instruction only from its interval.
      INFO("block " << b.name << " instruction " << i);
      if (i > 0) {
        CHECK(p.interval_of[b.id][i - 1] == id);
      } else {
        CHECK(b.id != k.entry);
        CHECK_FALSE(b.pred.empty());
        for (uint32_t q : b.pred) {
          REQUIRE_FALSE(k.blocks[q].insts.empty());
          CHECK(p.interval_of[q].back() == id);
        }
      }
    }
  }
  size_t total = 0;
  for (const RegisterInterval& ri : p.intervals) {
    INFO("interval " << ri.id);
    CHECK(ri.id < p.intervals.size());
    CHECK(ri.instructions == counted[ri.id]);
    CHECK(ri.instructions > 0);
    CHECK(ri.working_set == accessed[ri.id]);
    CHECK(ri.working_set.count() <= n);
    CHECK((ri.prefetch & ~ri.working_set).none());
    CHECK((ri.live_only_prefetch & ~ri.prefetch).none());
    uint32_t piece_insts = 0;
    for (const IntervalPiece& pc : ri.pieces) piece_insts += pc.end - pc.begin;
    CHECK(piece_insts == ri.instructions);
    total += ri.instructions;
  }
  CHECK(total == k.instruction_count());
}

}  // namespace

TEST_CASE("register intervals: straight line splits where the working set would exceed N") {
  const Kernel k = make_kernel(
      {{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "IADD R2, R0, R1", "IADD R3, R2, R0",
        "IADD R4, R3, R1", "IADD R5, R4, R3", "IADD R6, R5, R4", "STS [R6], R5", "EXIT"}},
      {});
  SECTION("N = 4") {
    const IntervalPartition p = form_register_intervals(k, 4);
    check_invariants(k, p, 4);
    // R0-R3 fill the interval exactly; R4 is the fifth register.
    REQUIRE(p.intervals.size() == 3);
    CHECK(p.intervals[0].working_set == regs({0, 1, 2, 3}));
    CHECK(p.intervals[0].instructions == 4);
    CHECK(p.intervals[1].header().begin == 4);
    CHECK(p.intervals[1].working_set == regs({1, 3, 4, 5}));
    CHECK(p.intervals[2].header().begin == 6);
    CHECK(p.intervals[2].working_set == regs({4, 5, 6}));
    // LTRF loads the whole working set; LTRF+ only what is live at the header.
    CHECK(p.intervals[1].prefetch == regs({1, 3, 4, 5}));
    CHECK(p.intervals[1].live_only_prefetch == regs({1, 3}));
    CHECK(p.intervals[2].live_only_prefetch == regs({4, 5}));
    CHECK(p.intervals[0].live_only_prefetch.none());
  }
  SECTION("N = 5") {
    const IntervalPartition p = form_register_intervals(k, 5);
    check_invariants(k, p, 5);
    REQUIRE(p.intervals.size() == 2);
    CHECK(p.intervals[0].instructions == 5);
    CHECK(p.intervals[0].working_set == regs({0, 1, 2, 3, 4}));
    CHECK(p.intervals[1].header().begin == 5);
  }
  SECTION("N = 7 holds everything") {
    const IntervalPartition p = form_register_intervals(k, 7);
    REQUIRE(p.intervals.size() == 1);
    CHECK(p.intervals[0].instructions == 9);
  }
}

TEST_CASE("register intervals: a loop header starts an interval") {
  // B0 fills R0-R5; the loop B1-B2 and its exit B3 use R6-R8.
  const Kernel k =
      make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "MOV R2, c[0x0][0x28]",
                    "MOV R3, c[0x0][0x2c]", "MOV R4, c[0x0][0x30]", "MOV R5, c[0x0][0x34]"},
                   {"IADD R6, R6, 0x1"},
                   {"IADD R7, R7, R6", "ISETP.GE.AND P0, PT, R7, 0x10, PT", "@!P0 BRA `(.L_1)"},
                   {"STS [R8], R7", "EXIT"}},
                  {{0, 1}, {1, 2}, {2, 1}, {2, 3}});
  // B0 + B1 would fit in 8 registers: only the back edge B2 -> B1 keeps B1 out.
  const IntervalPartition p = form_register_intervals(k, 8);
  check_invariants(k, p, 8);
  REQUIRE(p.intervals.size() == 2);
  CHECK(is_header(p, 1, 0));
  CHECK(p.interval_of[2][0] == p.interval_of[1][0]);
  CHECK(p.interval_of[3][0] == p.interval_of[1][0]);
  CHECK(p.intervals[p.interval_of[1][0]].working_set == regs({6, 7, 8}));
  CHECK(p.intervals[p.interval_of[1][0]].live_only_prefetch == regs({6, 7, 8}));
  // R0-R8 is nine registers: the second pass cannot merge.
  CHECK(p.second_pass_rounds == 0);
}

TEST_CASE("register intervals: the second pass merges a nested loop into its parent") {
  // The paper's Figure 6: A heads the outer loop, B-C the inner one (C -> B, C -> A).
  const Kernel k = make_kernel({{"IADD R0, R0, 0x1"},
                                {"IADD R1, R1, R0"},
                                {"ISETP.GE.AND P0, PT, R1, 0x10, PT", "@!P0 BRA `(.L_1)",
                                 "ISETP.GE.AND P1, PT, R0, 0x4, PT", "@!P1 BRA `(.L_0)"},
                                {"STS [R0], R1", "EXIT"}},
                               {{0, 1}, {1, 2}, {2, 1}, {2, 0}, {2, 3}});
  const IntervalPartition first = form_register_intervals_first_pass(k, 16);
  check_invariants(k, first, 16);
  REQUIRE(first.intervals.size() == 2);
  CHECK(is_header(first, 0, 0));
  CHECK(is_header(first, 1, 0));

  const IntervalPartition p = form_register_intervals(k, 16);
  check_invariants(k, p, 16);
  REQUIRE(p.intervals.size() == 1);
  CHECK(p.second_pass_rounds == 1);
  CHECK(p.intervals[0].instructions == 8);
  CHECK(p.intervals[0].working_set == regs({0, 1}));
  CHECK(p.intervals[0].header().block == 0);
}

TEST_CASE("register intervals: the second pass keeps intervals apart past N") {
  // Same shape, but the outer body and the inner loop together need 3 registers.
  const Kernel k = make_kernel({{"IADD R0, R0, 0x1"},
                                {"IADD R1, R1, R2"},
                                {"ISETP.GE.AND P0, PT, R1, 0x10, PT", "@!P0 BRA `(.L_1)",
                                 "ISETP.GE.AND P1, PT, R1, 0x4, PT", "@!P1 BRA `(.L_0)"},
                                {"STS [R1], R2", "EXIT"}},
                               {{0, 1}, {1, 2}, {2, 1}, {2, 0}, {2, 3}});
  const IntervalPartition p = form_register_intervals(k, 2);
  check_invariants(k, p, 2);
  CHECK(p.intervals.size() == 2);
  CHECK(p.second_pass_rounds == 0);
  CHECK(form_register_intervals(k, 3).intervals.size() == 1);
}

TEST_CASE("register intervals: rejects N = 0 and instructions wider than N") {
  const Kernel k = make_kernel({{"MOV R0, c[0x0][0x20]", "IADD3 R4, R1, R2, R3", "EXIT"}}, {});
  CHECK_THROWS_AS(form_register_intervals(k, 0), std::invalid_argument);
  CHECK_THROWS_WITH(form_register_intervals(k, 3),
                    Catch::Contains("0x8") && Catch::Contains("IADD3 R4, R1, R2, R3"));
  CHECK_NOTHROW(form_register_intervals(k, 4));
}

TEST_CASE("register intervals: statistics") {
  const Kernel k = make_kernel({{"MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]", "IADD R2, R0, R1",
                                 "IADD R3, R2, R0", "IADD R4, R3, R1", "EXIT"}},
                               {});
  const IntervalStats s = interval_statistics(form_register_intervals(k, 4));
  CHECK(s.intervals == 2);
  CHECK(s.min_instructions == 2);
  CHECK(s.max_instructions == 4);
  CHECK(s.mean_instructions == Approx(3.0));
  CHECK(s.mean_working_set == Approx(3.5));  // {R0-R3} and {R1,R3,R4}
  CHECK(interval_statistics(IntervalPartition{}).intervals == 0);
}

TEST_CASE("register intervals: invariants and sizes on the real nvdisasm CFGs") {
  struct Expected {
    uint32_t intervals;
    double mean;
  };
  // Per function: {N = 8, N = 16, N = 24}. Table in docs/pass-register-intervals.md.
  const std::map<std::string, std::vector<Expected>> expected{
      {"_Z6KernelP4NodePiPbS2_S1_S2_i", {{10, 7.00}, {4, 17.50}, {2, 35.00}}},
      {"_Z13GPU_laplace3diiiiPfS_", {{15, 11.00}, {5, 33.00}, {2, 82.50}}},
      {"_Z26BFS_kernel_multi_blk_inGPUPiS_P4int2S1_S_S_S_S_iiS_S_S_S_",
       {{27, 10.33}, {11, 25.36}, {4, 69.75}}},
      {"_Z17BFS_in_GPU_kernelPiS_P4int2S1_S_S_iS_iiS_", {{22, 6.95}, {6, 25.50}, {2, 76.50}}},
      {"_Z10BFS_kernelPiS_P4int2S1_S_S_iS_iiS_", {{19, 6.74}, {6, 21.33}, {2, 64.00}}},
      {"_Z37cuda_cutoff_potential_lattice6overlapiiP6float4fffPfi",
       {{30, 9.67}, {10, 29.00}, {6, 48.33}}},
      {"_Z14calculate_tempiPfS_S_iiiiffffff", {{25, 7.32}, {12, 15.25}, {6, 30.50}}},
      {"$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_div_rn_f32",
       {{1, 21.00}, {1, 21.00}, {1, 21.00}}},
      {"$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_div_rn_noftz_f32_slowpath",
       {{3, 36.33}, {1, 109.00}, {1, 109.00}}},
      {"$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_rcp_rn_f32_slowpath",
       {{5, 10.40}, {2, 26.00}, {2, 26.00}}},
  };
  const uint32_t sizes[] = {8, 16, 24};
  size_t functions = 0;
  for (const char* file :
       {"BFS_ispass.dot", "LPS.dot", "bfs_parboil.dot", "cutcp.dot", "hotspot.dot"}) {
    for (const Kernel& k : read_nvdisasm_dot_functions(shared_cfg(file))) {
      ++functions;
      INFO(file << " " << k.name);
      REQUIRE(expected.count(k.name) == 1);
      const std::vector<Expected>& want = expected.at(k.name);
      size_t previous = 0;
      for (size_t i = 0; i < 3; ++i) {
        const uint32_t n = sizes[i];
        INFO("N = " << n);
        const IntervalPartition first = form_register_intervals_first_pass(k, n);
        check_invariants(k, first, n);
        const IntervalPartition p = form_register_intervals(k, n);
        check_invariants(k, p, n);
        CHECK(p.intervals.size() <= first.intervals.size());
        const IntervalStats s = interval_statistics(p);
        CHECK(s.intervals == want[i].intervals);
        CHECK(s.mean_instructions == Approx(want[i].mean).margin(0.005));
        // A larger register cache never needs more intervals on these kernels.
        if (i > 0) CHECK(p.intervals.size() <= previous);
        previous = p.intervals.size();
      }
    }
  }
  CHECK(functions == expected.size());
}

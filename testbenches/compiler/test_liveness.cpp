#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "stimuli/compiler/liveness.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "stimuli/kernel/kernel_ir.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using namespace warpreg::testing;

TEST_CASE("liveness: register sets format as ranges") {
  CHECK(format_register_set(regs({0, 1, 2, 3, 7})) == "R0-R3,R7");
  CHECK(format_register_set(regs({4, 5, 9, 10, 11})) == "R4-R5,R9-R11");
  CHECK(format_register_set(regs({254})) == "R254");
  CHECK(format_register_set(RegisterSet{}).empty());
}

TEST_CASE("liveness: straight line") {
  const Kernel k =
      make_kernel({{"MOV R4, c[0x0][0x28]", "MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]",
                    "IADD R2, R0, R1", "IADD R3, R2, 0x1", "STS [R4], R3", "MOV R7, 0x1", "EXIT"}},
                  {});
  const Liveness lv = compute_liveness(k);
  const std::vector<RegisterSet> before{regs({}),     regs({4}),    regs({0, 4}), regs({0, 1, 4}),
                                        regs({2, 4}), regs({3, 4}), regs({}),     regs({})};
  const std::vector<RegisterSet> after{regs({4}),    regs({0, 4}), regs({0, 1, 4}), regs({2, 4}),
                                       regs({3, 4}), regs({}),     regs({}),        regs({})};
  CHECK(lv.live_before[0] == before);
  CHECK(lv.live_after[0] == after);
  CHECK(lv.live_in_block[0].none());
  CHECK(lv.live_out_block[0].none());
  // IADD R2, R0, R1 holds R0, R1, R4 and writes R2.
  CHECK(lv.max_live == 4);
  CHECK(allocated_registers(k) == regs({0, 1, 2, 3, 4, 7}));
}

TEST_CASE("liveness: diamond keeps registers of either path live on both") {
  // B0 -> {B1 then, B2 else} -> B3. R5 is read only on the else path; R2 is written on
  // both paths and read at the reconvergence point B3.
  const Kernel k = diamond_kernel();
  REQUIRE(reconvergence_point(k, 0) == 3);
  const Liveness lv = compute_liveness(k);
  CHECK(lv.live_in_block[0].none());
  CHECK(lv.live_out_block[0] == regs({0, 5}));
  // The then path never reads R5 but the else lanes need it after the then path ran.
  CHECK(lv.live_in_block[1] == regs({0, 2, 5}));
  CHECK(lv.live_before[1][0] == regs({0, 2, 5}));
  CHECK(lv.live_after[1][0] == regs({0, 2, 5}));
  CHECK(lv.live_out_block[1] == regs({0, 2, 5}));
  // R2 written by whichever path runs first must survive the other one.
  CHECK(lv.live_in_block[2] == regs({0, 2, 5}));
  CHECK(lv.live_out_block[2] == regs({0, 2, 5}));
  // R5 dies at the reconvergence point.
  CHECK(lv.live_in_block[3] == regs({0, 2}));
  CHECK(lv.live_after[3][0].none());
  CHECK(lv.max_live == 3);
}

TEST_CASE("liveness: loop-carried registers live around the loop") {
  // B0 -> B1 (header) -> {B2 body, B3 exit}; B2 -> B1. R0 (index) and R1 (sum) are
  // carried, R8 (bound) is invariant, R4 is local to the body.
  const Kernel k = loop_kernel();
  REQUIRE(reconvergence_point(k, 1) == 3);
  const Liveness lv = compute_liveness(k);
  CHECK(lv.live_in_block[0].none());
  CHECK(lv.live_in_block[1] == regs({0, 1, 8}));
  CHECK(lv.live_out_block[1] == regs({0, 1, 8}));
  CHECK(lv.live_in_block[2] == regs({0, 1, 8}));
  CHECK(lv.live_out_block[2] == regs({0, 1, 8}));  // across the back edge
  CHECK(lv.live_after[2][0] == regs({0, 1, 4, 8}));
  CHECK(lv.live_after[2][1] == regs({0, 1, 8}));  // R4 dies at its only read
  CHECK(lv.live_in_block[3] == regs({1}));        // only the sum leaves the loop
  CHECK(lv.max_live == 4);
}

TEST_CASE("liveness: loop result written in the body survives lanes that left") {
  // As above, but the body also writes R6 which the exit block reads: lanes that
  // left the loop hold R6 while the others run the body again.
  const Kernel k = make_kernel({{"MOV R0, RZ", "MOV R8, c[0x0][0x20]"},
                                {"ISETP.GE.AND P0, PT, R0, R8, PT", "@P0 BRA `(.L_exit)"},
                                {"LDS R6, [R0]", "IADD R0, R0, 0x4", "BRA `(.L_head)"},
                                {"STS [RZ], R6", "EXIT"}},
                               {{0, 1}, {1, 2}, {1, 3}, {2, 1}});
  const Liveness lv = compute_liveness(k);
  CHECK(lv.live_in_block[2] == regs({0, 6, 8}));
  CHECK(lv.live_before[2][0] == regs({0, 6, 8}));
  // Plain dataflow: R6 reaches the entry along the zero-trip path.
  CHECK(lv.live_in_block[0] == regs({6}));
}

TEST_CASE("liveness: a guarded write does not kill") {
  const std::vector<std::string> guarded{"MOV R2, 0x1", "@P0 MOV R2, 0x2", "STS [RZ], R2", "EXIT"};
  const Liveness lv = compute_liveness(make_kernel({guarded}, {}));
  CHECK(lv.live_before[0][1] == regs({2}));
  CHECK(lv.live_after[0][0] == regs({2}));

  std::vector<std::string> plain = guarded;
  plain[1] = "MOV R2, 0x2";
  const Liveness unguarded = compute_liveness(make_kernel({plain}, {}));
  CHECK(unguarded.live_before[0][1].none());
  CHECK(unguarded.live_after[0][0].none());
}

TEST_CASE("liveness: a guarded write kills for reads under the same guard") {
  // nvcc if-converts short branches: "@!P0 MOV R15; @!P0 STS [RZ], R15" needs no older R15.
  const std::vector<std::string> same{"@!P0 MOV R15, 0x1", "@!P0 STS [RZ], R15", "EXIT"};
  const Liveness lv = compute_liveness(make_kernel({same}, {}));
  CHECK(lv.live_in_block[0].none());
  CHECK(lv.live_after[0][0] == regs({15}));

  // Other lanes read the old value, or the guard changes in between: the write kills nothing.
  for (const std::vector<std::string>& insts :
       {std::vector<std::string>{"@P0 MOV R15, 0x1", "@!P0 STS [RZ], R15", "EXIT"},
        std::vector<std::string>{"@!P0 MOV R15, 0x1", "STS [RZ], R15", "EXIT"},
        std::vector<std::string>{"@!P0 MOV R15, 0x1", "ISETP.NE.AND P0, PT, R2, RZ, PT",
                                 "@!P0 STS [RZ], R15", "EXIT"}}) {
    INFO(insts[1]);
    CHECK(compute_liveness(make_kernel({insts}, {})).live_in_block[0].test(15));
  }
}

TEST_CASE("liveness: nested divergence") {
  // 0 -> {1, 5}; 1 -> {2, 3}; 2,3 -> 4; 4 -> 6; 5 -> 6. R9 is read only in B5 (outer
  // else), R7 is written in B1 and read only in B3 (inner else).
  const Kernel k =
      make_kernel({{"MOV R9, c[0x0][0x20]", "MOV R0, c[0x0][0x24]",
                    "ISETP.GE.AND P0, PT, R0, 0x1, PT", "@P0 BRA `(.L_5)"},
                   {"MOV R7, 0x7", "ISETP.GE.AND P1, PT, R0, 0x2, PT", "@P1 BRA `(.L_3)"},
                   {"IADD R0, R0, 0x1", "BRA `(.L_4)"},
                   {"IADD R0, R0, R7"},
                   {"BRA `(.L_6)"},
                   {"IADD R0, R0, R9"},
                   {"STS [RZ], R0", "EXIT"}},
                  {{0, 1}, {0, 5}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 6}, {5, 6}});
  const Liveness lv = compute_liveness(k);
  CHECK(lv.live_in_block[0].none());
  CHECK(lv.live_in_block[1] == regs({0, 9}));
  CHECK(lv.live_after[1][0] == regs({0, 7, 9}));
  CHECK(lv.live_out_block[1] == regs({0, 7, 9}));
  CHECK(lv.live_in_block[2] == regs({0, 7, 9}));  // inner rule: R7, outer rule: R9
  CHECK(lv.live_out_block[2] == regs({0, 7, 9}));
  CHECK(lv.live_in_block[3] == regs({0, 7, 9}));
  CHECK(lv.live_in_block[4] == regs({0, 9}));  // R7 dies at the inner reconvergence
  CHECK(lv.live_in_block[5] == regs({0, 9}));
  CHECK(lv.live_in_block[6] == regs({0}));  // R9 dies at the outer reconvergence
  CHECK(lv.max_live == 3);
}

TEST_CASE("liveness: real nvdisasm CFGs") {
  struct Expected {
    const char* file;
    size_t function;
    uint32_t max_live;
  };
  // max_live figures recorded in docs/compiler-passes.md.
  const std::vector<Expected> expected{{"BFS_ispass.dot", 0, 16},  {"LPS.dot", 0, 16},
                                       {"bfs_parboil.dot", 0, 30}, {"bfs_parboil.dot", 1, 18},
                                       {"bfs_parboil.dot", 2, 16}, {"cutcp.dot", 0, 25},
                                       {"hotspot.dot", 0, 34},     {"hotspot.dot", 1, 7},
                                       {"hotspot.dot", 2, 8},      {"hotspot.dot", 3, 9}};
  for (const Expected& e : expected) {
    const auto fs = read_nvdisasm_dot_functions(shared_cfg(e.file));
    REQUIRE(e.function < fs.size());
    const Kernel& k = fs[e.function];
    INFO(e.file << " " << k.name);
    const Liveness lv = compute_liveness(k);
    REQUIRE(lv.live_in_block.size() == k.blocks.size());
    REQUIRE(lv.live_out_block.size() == k.blocks.size());
    RegisterSet named;
    for (uint32_t b = 0; b < k.blocks.size(); ++b) {
      const auto& insts = k.blocks[b].insts;
      REQUIRE(lv.live_before[b].size() == insts.size());
      REQUIRE(lv.live_after[b].size() == insts.size());
      for (size_t i = 0; i < insts.size(); ++i) {
        for (uint16_t r : insts[i].src) {
          named.set(r);
          CHECK(lv.live_before[b][i].test(r));
        }
        for (uint16_t r : insts[i].dst) named.set(r);
        if (i + 1 < insts.size()) CHECK(lv.live_after[b][i] == lv.live_before[b][i + 1]);
      }
      if (!insts.empty()) {
        CHECK(lv.live_before[b].front() == lv.live_in_block[b]);
        CHECK(lv.live_after[b].back() == lv.live_out_block[b]);
      }
    }
    CHECK(allocated_registers(k) == named);
    CHECK(lv.max_live <= k.regs_used());
    CHECK(lv.max_live == e.max_live);
  }
}

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "modules/interfaces/workload.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "stimuli/kernel/kernel_ir.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using namespace warpreg::testing;

namespace {

using Regs = std::vector<uint16_t>;
using Preds = std::vector<uint8_t>;

/// A kernel of `n` one-instruction blocks with the given edges; blocks without
/// successors end in EXIT.
Kernel make_cfg(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  Kernel k;
  for (uint32_t i = 0; i < n; ++i) {
    BasicBlock b;
    b.id = i;
    b.name = "B" + std::to_string(i);
    k.blocks.push_back(b);
  }
  for (auto [from, to] : edges) k.add_edge(from, to);
  for (BasicBlock& b : k.blocks)
    b.insts.push_back(parse_sass(b.succ.empty() ? "EXIT" : "@P0 BRA `(.L_x)", 0));
  return k;
}

std::string bad_file(const std::string& file) {
  return std::string(WARPREG_TESTDATA_DIR) + "/nvdisasm/" + file;
}

/// Block ids and successors stay in range and PCs run 0, 8, 16... in layout order.
void require_layout_order(const Kernel& k) {
  for (const BasicBlock& b : k.blocks) {
    REQUIRE(b.id < k.blocks.size());
    for (uint32_t s : b.succ) REQUIRE(s < k.blocks.size());
  }
  uint64_t pc = 0;
  for (const BasicBlock& b : k.blocks)
    for (const StaticInst& inst : b.insts) {
      REQUIRE(inst.pc == pc);
      pc += 8;
    }
}

}  // namespace

TEST_CASE("kernel ir: opcode classification") {
  CHECK(classify_opcode("LD.E.U8", true) == InstClass::Load);
  CHECK(classify_opcode("LDS.128", true) == InstClass::Load);
  CHECK(classify_opcode("LDC", true) == InstClass::Load);
  CHECK(classify_opcode("ATOM.E.ADD", true) == InstClass::Load);
  CHECK(classify_opcode("TLD.LZ.P", true) == InstClass::Load);
  CHECK(classify_opcode("ST.E.WT", true) == InstClass::Store);
  CHECK(classify_opcode("STS", true) == InstClass::Store);
  CHECK(classify_opcode("RED.E.ADD", false) == InstClass::Store);
  CHECK(classify_opcode("BRA.U", true) == InstClass::Branch);
  CHECK(classify_opcode("SSY", true) == InstClass::Branch);
  CHECK(classify_opcode("CAL", true) == InstClass::Branch);
  CHECK(classify_opcode("RET", true) == InstClass::Branch);
  CHECK(classify_opcode("BAR.SYNC", true) == InstClass::Barrier);
  CHECK(classify_opcode("EXIT", true) == InstClass::Exit);
  CHECK(classify_opcode("MUFU.RCP", true) == InstClass::Sfu);
  CHECK(classify_opcode("ISETP.GE.AND", true) == InstClass::Alu);
  CHECK(classify_opcode("LOP.AND", true) == InstClass::Alu);
  CHECK(classify_opcode("SHFL.BFLY", true) == InstClass::Alu);
}

TEST_CASE("kernel ir: a load or store takes the space and size its opcode names") {
  const auto check = [](const char* text, SassDialect dialect, MemorySpace space, unsigned bytes) {
    INFO(text);
    const StaticInst i = parse_sass(text, 0, dialect);
    CHECK(i.space == space);
    CHECK(unsigned(i.access_bytes) == bytes);
  };
  check("LDS.U16 R1, [R2]", SassDialect::Fermi, MemorySpace::Shared, 2);
  check("LDG.E.64 R4, [R2]", SassDialect::Fermi, MemorySpace::Global, 8);
  check("STL.128 [R1+0x10], R4", SassDialect::Fermi, MemorySpace::Local, 16);
  check("LDC R0, c[0x3][R2]", SassDialect::Fermi, MemorySpace::Constant, 4);
  check("LD.E R3, [R6]", SassDialect::Fermi, MemorySpace::None, 4);  // generic: the address's
  check("GLD.U32 R0, global14 [R2]", SassDialect::Tesla, MemorySpace::Global, 4);
  check("G2R.U8 R1, g [A1+0x4]", SassDialect::Tesla, MemorySpace::Shared, 1);
  check("LLD.U32 R0, local [0x8]", SassDialect::Tesla, MemorySpace::Local, 4);
  // Not memory instructions: no space.
  check("IADD R1, R2, c[0x0][0x20]", SassDialect::Fermi, MemorySpace::None, 4);
  CHECK(memory_space_of("ATOMS.ADD") == MemorySpace::Shared);
  CHECK(memory_space_of("RED.E.ADD") == MemorySpace::Global);
}

TEST_CASE("kernel ir: operand parsing") {
  SECTION("dst and sources with RZ and constants dropped") {
    const StaticInst i = parse_sass("ISET.LT.AND R7, R6, RZ, PT;", 16);
    CHECK(i.pc == 16);
    CHECK(i.opcode == "ISET.LT.AND");
    CHECK(i.dst == Regs{7});
    CHECK(i.src == Regs{6});
    CHECK(i.pred_src.empty());
    CHECK(i.guard_pred == -1);
    CHECK(i.text == "ISET.LT.AND R7, R6, RZ, PT");
    CHECK(parse_sass("MOV R1, c[0x0][0x44]", 0).src.empty());
  }
  SECTION("setp writes two predicates and reads one") {
    const StaticInst i = parse_sass("ISETP.GE.AND P0, PT, R6, c[0x0][0x170], P2", 0);
    CHECK(i.dst.empty());
    CHECK(i.pred_dst == Preds{0});
    CHECK(i.src == Regs{6});
    CHECK(i.pred_src == Preds{2});
  }
  SECTION("guards") {
    const StaticInst i = parse_sass("@!P1 SEL R5, RZ, 0x1, !P2", 0);
    CHECK(i.guard_pred == 1);
    CHECK(i.guard_negated);
    CHECK(i.dst == Regs{5});
    CHECK(i.pred_src == Preds{2});
    const StaticInst b = parse_sass("@P0 BRA.U `(.L_1)", 0);
    CHECK(b.guard_pred == 0);
    CHECK_FALSE(b.guard_negated);
    CHECK(b.target == ".L_1");
    CHECK(b.cls == InstClass::Branch);
  }
  SECTION("carry and modifier suffixes name the register") {
    const StaticInst i = parse_sass("FSETP.LT.AND P0, PT, |R21|, 1.175494350822287508e-38, PT", 0);
    CHECK(i.src == Regs{21});
    CHECK(parse_sass("IADD R4.CC, -R6, 0x1", 0).dst == Regs{4});
    CHECK(parse_sass("IADD R4.CC, -R6, 0x1", 0).src == Regs{6});
  }
  SECTION("64-bit addresses and data widths") {
    const StaticInst ld = parse_sass("LD.E R10, [R4+-0x4]", 0);
    CHECK(ld.dst == Regs{10});
    CHECK(ld.src == Regs{4, 5});
    const StaticInst st = parse_sass("ST.E.U8 [R4], RZ", 0);
    CHECK(st.dst.empty());
    CHECK(st.src == Regs{4, 5});
    CHECK(parse_sass("LDS R12, [R12+0x334]", 0).src == Regs{12});
    CHECK(parse_sass("LDS.128 R12, [RZ]", 0).dst == Regs{12, 13, 14, 15});
    CHECK(parse_sass("STS.64 [0x1000], R2", 0).src == Regs{2, 3});
    CHECK(parse_sass("LDC R23, c[0x3][R4+0xc]", 0).src == Regs{4});
    CHECK(parse_sass("DADD R12, R10, R12", 0).dst == Regs{12, 13});
    CHECK(parse_sass("DADD R12, R10, R12", 0).src == Regs{10, 11, 12, 13});
    const StaticInst cvt = parse_sass("F2F.F64.F32 R2, R2", 0);
    CHECK(cvt.dst == Regs{2, 3});
    CHECK(cvt.src == Regs{2});
    const StaticInst atom = parse_sass("@P1 ATOM.E.ADD R4, [R16], R4", 0);
    CHECK(atom.dst == Regs{4});
    CHECK(atom.src == Regs{16, 17, 4});
  }
  SECTION("leading predicate destinations") {
    const StaticInst lk = parse_sass("LDSLK P0, R5, [R22]", 0);
    CHECK(lk.pred_dst == Preds{0});
    CHECK(lk.dst == Regs{5});
    CHECK(lk.src == Regs{22});
    const StaticInst vote = parse_sass("VOTE.ALL R4, P3, P1", 0);
    CHECK(vote.dst == Regs{4});
    CHECK(vote.pred_dst == Preds{3});
    CHECK(vote.pred_src == Preds{1});
  }
  SECTION("sync annotation gives the target") {
    const StaticInst s = parse_sass("NOP.S (*\"TARGET= .L_4 \"*);", 0);
    CHECK(s.target == ".L_4");
    CHECK(s.text == "NOP.S");
    CHECK_FALSE(may_fall_through(s));
    CHECK(may_fall_through(parse_sass("@P0 NOP.S (*\"TARGET= .L_4 \"*)", 0)));
    CHECK(may_fall_through(parse_sass("@P0 EXIT", 0)));
    CHECK_FALSE(may_fall_through(parse_sass("EXIT", 0)));
    CHECK(may_fall_through(parse_sass("CAL `($f)", 0)));
  }
  SECTION("bad operands are rejected") {
    CHECK_THROWS_AS(parse_sass("IADD R1, Q7, 0x1", 0), std::invalid_argument);
    CHECK_THROWS_AS(parse_sass("MOV R300, R1", 0), std::invalid_argument);
    CHECK_THROWS_AS(parse_sass("LD.E R1, [R4", 0), std::invalid_argument);
    CHECK_THROWS_AS(parse_sass("LD.E.64 R254, [R4]", 0), std::invalid_argument);
    CHECK_THROWS_AS(parse_sass("@P9 EXIT", 0), std::invalid_argument);
  }
}

TEST_CASE("kernel ir: regs used counts the highest register") {
  Kernel k = make_cfg(1, {});
  CHECK(k.regs_used() == 0);
  k.blocks[0].insts.push_back(parse_sass("LD.E R3, [R8]", 0));
  CHECK(k.regs_used() == 10);
}

TEST_CASE("kernel ir: ipdom of an if-then-else diamond") {
  const Kernel k = make_cfg(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const auto ipdom = compute_immediate_post_dominators(k);
  CHECK(ipdom == std::vector<uint32_t>{3, 3, 3, kVirtualExit});
  CHECK(reconvergence_point(k, 0) == 3);
  CHECK(reconvergence_point(k, 1) == kNoPostDominator);
}

TEST_CASE("kernel ir: ipdom of a loop") {
  // 0 -> 1 (header) -> 2 (body) -> 1; 1 -> 3 exit.
  const Kernel k = make_cfg(4, {{0, 1}, {1, 2}, {2, 1}, {1, 3}});
  CHECK(compute_immediate_post_dominators(k) == std::vector<uint32_t>{1, 3, 1, kVirtualExit});
  CHECK(reconvergence_point(k, 1) == 3);
}

TEST_CASE("kernel ir: ipdom of nested branches") {
  // 0 -> {1, 5}; 1 -> {2, 3}; 2,3 -> 4; 4 -> 6; 5 -> 6.
  const Kernel k = make_cfg(7, {{0, 1}, {0, 5}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 6}, {5, 6}});
  const auto ipdom = compute_immediate_post_dominators(k);
  CHECK(ipdom == std::vector<uint32_t>{6, 4, 4, 4, 6, 6, kVirtualExit});
}

TEST_CASE("kernel ir: ipdom with an early exit") {
  // 0 -> {1, 2}; 1 exits; 2 -> 3 exits: the branch reconverges only at the virtual exit.
  const Kernel k = make_cfg(4, {{0, 1}, {0, 2}, {2, 3}});
  CHECK(compute_immediate_post_dominators(k) ==
        std::vector<uint32_t>{kVirtualExit, kVirtualExit, 3, kVirtualExit});
  CHECK(reconvergence_point(k, 0) == kVirtualExit);
}

TEST_CASE("kernel ir: ipdom with a guarded exit and an endless loop") {
  // 0 ends in @P0 EXIT and falls through to 1; 2 loops on itself forever.
  Kernel k = make_cfg(3, {{0, 1}, {2, 2}});
  k.blocks[0].insts.back() = parse_sass("@P0 EXIT", 0);
  CHECK(compute_immediate_post_dominators(k) ==
        std::vector<uint32_t>{kVirtualExit, kVirtualExit, kNoPostDominator});
}

TEST_CASE("nvdisasm: BFS_ispass") {
  const Kernel k = read_nvdisasm_dot(shared_cfg("BFS_ispass.dot"));
  CHECK(k.name == "_Z6KernelP4NodePiPbS2_S1_S2_i");
  CHECK(k.blocks.size() == 9);
  CHECK(k.instruction_count() == 70);
  CHECK(k.regs_used() == 18);
  CHECK(k.edge_count() == 10);
  require_layout_order(k);
  const StaticInst& first = k.blocks[0].insts[0];
  CHECK(first.text == "MOV R1, c[0x0][0x44]");
  CHECK(first.dst == Regs{1});
  CHECK(first.src.empty());
  // The first node splits at its three "@P0 EXIT" ports: 8 + 1 instructions, then falls through.
  CHECK(k.blocks[0].insts.size() == 8);
  CHECK(k.blocks[0].insts.back().text == "@P0 EXIT");
  CHECK(k.blocks[0].succ == std::vector<uint32_t>{1});
  CHECK(k.blocks[1].insts.front().text == "ISET.LT.AND R7, R6, RZ, PT");
  // ".L_2" (block 4) ends in "@P0 BRA.U `(.L_1)"; both edges go to ".L_1" in the file,
  // and the block split after the branch falls through to the guarded rest.
  CHECK(k.blocks[4].name == ".L_2");
  CHECK(k.blocks[4].insts.back().target == ".L_1");
  CHECK(k.blocks[5].name == ".L_2/1");
  CHECK(k.blocks[5].insts.front().guard_negated);
}

TEST_CASE("nvdisasm: LPS") {
  const Kernel k = read_nvdisasm_dot(shared_cfg("LPS.dot"));
  CHECK(k.blocks.size() == 26);
  CHECK(k.instruction_count() == 165);
  CHECK(k.regs_used() == 18);
  CHECK(k.edge_count() == 37);
  require_layout_order(k);
}

TEST_CASE("nvdisasm: bfs_parboil has three kernels") {
  const auto fs = read_nvdisasm_dot_functions(shared_cfg("bfs_parboil.dot"));
  REQUIRE(fs.size() == 3);
  CHECK(fs[0].name == "_Z26BFS_kernel_multi_blk_inGPUPiS_P4int2S1_S_S_S_S_iiS_S_S_S_");
  CHECK(fs[0].blocks.size() == 48);
  CHECK(fs[0].instruction_count() == 279);
  CHECK(fs[0].regs_used() == 31);
  CHECK(fs[0].edge_count() == 71);
  CHECK(fs[1].blocks.size() == 30);
  CHECK(fs[1].instruction_count() == 153);
  CHECK(fs[1].regs_used() == 23);
  CHECK(fs[1].edge_count() == 42);
  CHECK(fs[2].blocks.size() == 20);
  CHECK(fs[2].instruction_count() == 128);
  CHECK(fs[2].regs_used() == 20);
  CHECK(fs[2].edge_count() == 28);
  for (const Kernel& k : fs) require_layout_order(k);
  CHECK(read_nvdisasm_dot(shared_cfg("bfs_parboil.dot")).name == fs[0].name);
}

TEST_CASE("nvdisasm: cutcp") {
  const Kernel k = read_nvdisasm_dot(shared_cfg("cutcp.dot"));
  CHECK(k.blocks.size() == 32);
  CHECK(k.instruction_count() == 290);
  CHECK(k.regs_used() == 26);
  CHECK(k.edge_count() == 48);
  require_layout_order(k);
}

TEST_CASE("nvdisasm: hotspot has a kernel and three subroutines") {
  const auto fs = read_nvdisasm_dot_functions(shared_cfg("hotspot.dot"));
  REQUIRE(fs.size() == 4);
  CHECK(fs[0].name == "_Z14calculate_tempiPfS_S_iiiiffffff");
  CHECK(fs[0].blocks.size() == 24);
  CHECK(fs[0].instruction_count() == 183);
  CHECK(fs[0].regs_used() == 36);
  CHECK(fs[0].edge_count() == 34);
  CHECK(fs[1].blocks.size() == 3);
  CHECK(fs[2].blocks.size() == 26);
  CHECK(fs[3].blocks.size() == 9);
  for (const Kernel& k : fs) require_layout_order(k);
}

TEST_CASE("nvdisasm: every real CFG has post-dominators") {
  for (const char* file :
       {"BFS_ispass.dot", "LPS.dot", "bfs_parboil.dot", "cutcp.dot", "hotspot.dot"}) {
    for (const Kernel& k : read_nvdisasm_dot_functions(shared_cfg(file))) {
      INFO(file << " " << k.name);
      const auto ipdom = compute_immediate_post_dominators(k);
      REQUIRE(ipdom.size() == k.blocks.size());
      for (uint32_t b = 0; b < k.blocks.size(); ++b) {
        // Only nvdisasm's trailing "BRA self" padding never reaches an exit.
        if (ipdom[b] == kNoPostDominator) {
          CHECK(k.blocks[b].succ == std::vector<uint32_t>{b});
        } else if (ipdom[b] != kVirtualExit) {
          CHECK(ipdom[b] < k.blocks.size());
          CHECK(ipdom[b] != b);
        }
      }
    }
  }
}

TEST_CASE("nvdisasm: malformed files name the file and line") {
  auto message_of = [](const std::string& file) {
    try {
      read_nvdisasm_dot(bad_file(file));
    } catch (const WorkloadError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(
      message_of("bad_unbalanced.dot"),
      Catch::StartsWith(bad_file("bad_unbalanced.dot") + ":5: ") && Catch::Contains("unbalanced"));
  CHECK_THAT(message_of("bad_unknown_node.dot"),
             Catch::StartsWith(bad_file("bad_unknown_node.dot") + ":5: ") &&
                 Catch::Contains("unknown node"));
  CHECK_THAT(message_of("bad_operand.dot"),
             Catch::StartsWith(bad_file("bad_operand.dot") + ":4: ") && Catch::Contains("Q7"));
  CHECK_THAT(message_of("bad_empty.dot"), Catch::StartsWith(bad_file("bad_empty.dot") + ":") &&
                                              Catch::Contains("no basic blocks"));
  CHECK_THAT(message_of("missing.dot"), Catch::Contains("cannot open"));
}

TEST_CASE("nvdisasm: truncated and garbled streams throw") {
  for (const char* text :
       {"", "digraph f {", "digraph f { \"a\" [label=\"{<entry>\\ \\ EXIT;\\l\"] }",
        "digraph f { \"a\" [label=\"{<entry> MOV R1, R2;\\l}\"] \"a\" -> \"a\":exit9 }",
        "digraph f { \"a\" [label=\"{<entry> MOV R1, R2;}\" }", "digraph f { \"a }",
        "digraph f { } }"}) {
    INFO(text);
    std::istringstream in(text);
    CHECK_THROWS_AS(read_nvdisasm_dot(in, "mem.dot"), WorkloadError);
  }
}

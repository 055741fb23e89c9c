#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "designs/rfv/compiler/release_flags.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "stimuli/kernel/kernel_ir.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;
using namespace warpreg::testing;

namespace {

/// Replays each block from its start: the pbrs release first, then every instruction
/// reads its sources, releases the flagged ones and re-allocates what it writes. No
/// read may find its register released, and nothing released at the block's end may be
/// live out of it (a successor or a pending divergent path would read it).
void check_no_read_after_release(const Kernel& k, const Liveness& lv, const ReleaseFlags& rf) {
  for (uint32_t b = 0; b < k.blocks.size(); ++b) {
    INFO("block " << k.blocks[b].name);
    RegisterSet released = rf.released_at_entry[b];
    CHECK((released & lv.live_in_block[b]).none());
    const auto& insts = k.blocks[b].insts;
    for (size_t i = 0; i < insts.size(); ++i) {
      INFO(insts[i].text);
      for (size_t s = 0; s < insts[i].src.size(); ++s) {
        CHECK_FALSE(released.test(insts[i].src[s]));
        if (s < 3 && (rf.flags[b][i] >> s & 1u)) released.set(insts[i].src[s]);
      }
      for (uint16_t r : insts[i].dst) released.reset(r);
    }
    CHECK((released & lv.live_out_block[b]).none());
  }
}

}  // namespace

TEST_CASE("release flags: straight line") {
  const Kernel k =
      make_kernel({{"MOV R4, c[0x0][0x28]", "MOV R0, c[0x0][0x20]", "MOV R1, c[0x0][0x24]",
                    "IADD R2, R0, R1", "IADD R3, R2, 0x1", "IMUL R5, R4, R3", "STS [R4], R5",
                    "MOV R7, 0x1", "IADD R7, R7, 0x1", "EXIT"}},
                  {});
  const Liveness lv = compute_liveness(k);
  const ReleaseFlags rf = compute_release_flags(k, lv);
  // R4 stays live across IMUL (bit 0 clear) until the store; R7 dies where it is also
  // written, so it is not flagged.
  CHECK(rf.flags[0] == std::vector<uint8_t>{0, 0, 0, 3, 1, 2, 3, 0, 0, 0});
  REQUIRE(rf.pir.size() == 1);
  CHECK(rf.pir[0].block == 0);
  CHECK(rf.pir[0].first_inst == 0);
  CHECK(rf.pir[0].covered == 10);
  CHECK(rf.pir[0].encoded == 0xFFC00000000D1600ull);
  CHECK(rf.pbr.empty());
  CHECK(rf.instructions == 10);
  CHECK(rf.flagged_operands == 6);
  CHECK(rf.empty_pir == 0);
  CHECK(rf.static_code_increase() == Approx(0.1));
  check_no_read_after_release(k, lv, rf);
}

TEST_CASE("release flags: a block longer than 18 instructions gets two pirs") {
  std::vector<std::string> block{"MOV R0, 0x0"};
  for (int i = 0; i < 18; ++i) block.push_back("IADD R0, R0, 0x1");
  block.push_back("STS [RZ], R0");
  block.push_back("EXIT");
  const Kernel k = make_kernel({block}, {});
  const ReleaseFlags rf = compute_release_flags(k);
  REQUIRE(rf.pir.size() == 2);
  CHECK(rf.pir[0].first_inst == 0);
  CHECK(rf.pir[0].covered == 18);
  CHECK(rf.pir[1].first_inst == 18);
  CHECK(rf.pir[1].covered == 3);
  // The store at index 19 is the second instruction of the second pir.
  std::array<uint8_t, kPirSpan> second{};
  second[1] = 1;
  CHECK(decode_pir(rf.pir[1].encoded) == second);
  CHECK(rf.empty_pir == 1);
  CHECK(rf.static_code_increase() == Approx(2.0 / 21.0));
  check_no_read_after_release(k, compute_liveness(k), rf);
}

TEST_CASE("release flags: diamond releases a path's register at the reconvergence point") {
  // R5 is read last on the else path B2; releasing it there would lose it for the
  // lanes of the then path if B2 ran first, so the pbr of B3 releases it.
  const Kernel k = diamond_kernel();
  const Liveness lv = compute_liveness(k);
  const ReleaseFlags rf = compute_release_flags(k, lv);
  CHECK(rf.flags[0] == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(rf.flags[1] == std::vector<uint8_t>{0, 0});
  CHECK(rf.flags[2] == std::vector<uint8_t>{0});
  CHECK(rf.flags[3] == std::vector<uint8_t>{3, 0});
  REQUIRE(rf.pbr.size() == 1);
  CHECK(rf.pbr[0].block == 3);
  CHECK(rf.pbr[0].regs == std::vector<uint16_t>{5});
  CHECK(decode_pbr(rf.pbr[0].encoded) == std::vector<uint16_t>{5});
  CHECK(rf.released_at_entry[3] == regs({5}));
  CHECK(rf.pir.size() == 4);
  CHECK(rf.pbr_registers == 1);
  CHECK(rf.static_code_increase() == Approx(5.0 / 9.0));
  check_no_read_after_release(k, lv, rf);
}

TEST_CASE("release flags: more than nine registers need several pbrs") {
  std::vector<std::string> entry, reader;
  for (int r = 10; r < 20; ++r) {
    entry.push_back("MOV R" + std::to_string(r) + ", c[0x0][0x20]");
    reader.push_back("STS [RZ], R" + std::to_string(r));
  }
  entry.push_back("ISETP.GE.AND P0, PT, R10, 0x1, PT");
  entry.push_back("@P0 BRA `(.L_else)");
  const Kernel k =
      make_kernel({entry, {"BRA `(.L_join)"}, reader, {"EXIT"}}, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const ReleaseFlags rf = compute_release_flags(k);
  REQUIRE(rf.pbr.size() == 2);
  CHECK(rf.pbr[0].regs == std::vector<uint16_t>{10, 11, 12, 13, 14, 15, 16, 17, 18});
  CHECK(rf.pbr[1].regs == std::vector<uint16_t>{19});
  CHECK(rf.pbr_registers == 10);
  CHECK(rf.flagged_operands == 0);
}

TEST_CASE("release flags: a pbr register beyond 6 bits is an error") {
  const Kernel k = make_kernel({{"MOV R70, c[0x0][0x20]", "MOV R0, c[0x0][0x24]",
                                 "ISETP.GE.AND P0, PT, R0, 0x1, PT", "@P0 BRA `(.L_else)"},
                                {"BRA `(.L_join)"},
                                {"STS [R0], R70"},
                                {"EXIT"}},
                               {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  CHECK_THROWS_WITH(compute_release_flags(k), Catch::Contains("R70"));
}

TEST_CASE("release flags: loop-carried registers are not released inside the loop") {
  // R0 (index) and R1 (sum) are carried, R8 (bound) invariant, R4 local to the body.
  const Kernel k = loop_kernel();
  const Liveness lv = compute_liveness(k);
  const ReleaseFlags rf = compute_release_flags(k, lv);
  CHECK(rf.flags[1] == std::vector<uint8_t>{0, 0});
  // Only R4, the body-local value, dies inside the loop (RFV Figure 4(e)).
  CHECK(rf.flags[2] == std::vector<uint8_t>{0, 2, 0, 0});
  CHECK(rf.flags[3] == std::vector<uint8_t>{1, 0});
  // The index and bound die when every lane has left the loop.
  REQUIRE(rf.pbr.size() == 1);
  CHECK(rf.pbr[0].block == 3);
  CHECK(rf.pbr[0].regs == std::vector<uint16_t>{0, 8});
  check_no_read_after_release(k, lv, rf);
}

TEST_CASE("release flags: pir and pbr encodings round trip") {
  std::array<uint8_t, kPirSpan> flags{};
  for (size_t j = 0; j < kPirSpan; ++j) flags[j] = static_cast<uint8_t>((j * 5 + 3) % 8);
  const uint64_t pir = encode_pir(flags);
  CHECK((pir >> 54) == kPirOpcode);
  CHECK(decode_pir(pir) == flags);
  CHECK((encode_pir(std::array<uint8_t, kPirSpan>{1}) & 7u) == 1u);  // instruction 0 lowest
  flags[4] = 8;
  CHECK_THROWS_AS(encode_pir(flags), std::invalid_argument);

  const std::vector<uint16_t> full{0, 1, 7, 13, 20, 31, 42, 55, 62};
  const uint64_t pbr = encode_pbr(full);
  CHECK((pbr >> 54) == kPbrOpcode);
  CHECK(decode_pbr(pbr) == full);
  CHECK(decode_pbr(encode_pbr({3})) == std::vector<uint16_t>{3});
  CHECK(decode_pbr(encode_pbr({})).empty());
  CHECK_THROWS_AS(decode_pir(pbr), std::invalid_argument);
  CHECK_THROWS_AS(decode_pbr(pir), std::invalid_argument);
  CHECK_THROWS_WITH(encode_pbr({63}), Catch::Contains("R63"));
  CHECK_THROWS_AS(encode_pbr({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), std::invalid_argument);
}

TEST_CASE("release flags: real nvdisasm CFGs") {
  struct Expected {
    const char* file;
    size_t function;
    size_t pir, pbr, pbr_registers, flagged, unflaggable, empty_pir;
    double increase;
  };
  // Figures recorded in docs/pass-release-flags.md.
  const std::vector<Expected> expected{{"BFS_ispass.dot", 0, 9, 3, 13, 20, 0, 2, 0.1714},
                                       {"LPS.dot", 0, 27, 5, 14, 46, 0, 12, 0.1939},
                                       {"bfs_parboil.dot", 0, 48, 9, 31, 94, 1, 21, 0.2043},
                                       {"bfs_parboil.dot", 1, 30, 4, 10, 33, 1, 17, 0.2222},
                                       {"bfs_parboil.dot", 2, 20, 4, 20, 42, 1, 10, 0.1875},
                                       {"cutcp.dot", 0, 36, 11, 25, 80, 0, 18, 0.1621},
                                       {"hotspot.dot", 0, 27, 5, 25, 57, 6, 8, 0.1749},
                                       {"hotspot.dot", 1, 3, 1, 1, 8, 0, 1, 0.1905},
                                       {"hotspot.dot", 2, 27, 1, 7, 10, 0, 22, 0.2569},
                                       {"hotspot.dot", 3, 10, 1, 3, 12, 0, 8, 0.2115}};
  size_t functions = 0;
  for (const char* file :
       {"BFS_ispass.dot", "LPS.dot", "bfs_parboil.dot", "cutcp.dot", "hotspot.dot"})
    functions += read_nvdisasm_dot_functions(shared_cfg(file)).size();
  CHECK(functions == expected.size());
  for (const Expected& e : expected) {
    const auto fs = read_nvdisasm_dot_functions(shared_cfg(e.file));
    REQUIRE(e.function < fs.size());
    const Kernel& k = fs[e.function];
    INFO(e.file << " " << k.name);
    const Liveness lv = compute_liveness(k);
    const ReleaseFlags rf = compute_release_flags(k, lv);
    CHECK(rf.instructions == k.instruction_count());
    CHECK(rf.pir.size() == e.pir);
    CHECK(rf.pbr.size() == e.pbr);
    CHECK(rf.pbr_registers == e.pbr_registers);
    CHECK(rf.flagged_operands == e.flagged);
    CHECK(rf.unflaggable_deaths == e.unflaggable);
    CHECK(rf.empty_pir == e.empty_pir);
    CHECK(rf.static_code_increase() == Approx(e.increase).margin(0.0005));
    size_t nonempty = 0;
    for (const BasicBlock& b : k.blocks) nonempty += b.insts.empty() ? 0 : 1;
    CHECK(rf.pir.size() >= nonempty);
    check_no_read_after_release(k, lv, rf);
  }
}

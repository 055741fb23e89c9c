// The one SASS grammar (stimuli/kernel/sass_grammar.h) and what parse_sass makes of
// each operand form of both cuobjdump dialects and nvdisasm's.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "stimuli/kernel/kernel_ir.h"
#include "stimuli/kernel/sass_grammar.h"

using namespace warpreg;
using Catch::Matchers::Contains;

namespace {

using Regs = std::vector<uint16_t>;
using Flags = std::vector<uint8_t>;

StaticInst tesla(const std::string& text) { return parse_sass(text, 0, SassDialect::Tesla); }
StaticInst fermi(const std::string& text) { return parse_sass(text, 0, SassDialect::Fermi); }

/// The column (0-based) and message of a syntax error, or (-1, "") when it parses.
std::pair<long, std::string> syntax_error(const std::string& text,
                                          SassDialect dialect = SassDialect::Tesla) {
  try {
    parse_sass(text, 0, dialect);
  } catch (const SassSyntaxError& e) {
    return {static_cast<long>(e.column()), e.what()};
  }
  return {-1, ""};
}

}  // namespace

TEST_CASE("sass grammar: operand kinds and modifiers", "[kernel][sass]") {
  const SassInstruction a = parse_sass_syntax("IMAD.U16 R4 (C3), -R4H, |R0H|, ~R16.CC;");
  REQUIRE(a.operands.size() == 4);
  CHECK(a.opcode == "IMAD.U16");
  CHECK(a.base() == "IMAD");
  CHECK(a.has_modifier("U16"));
  CHECK(a.guard.present);  // (C3): a condition register with the always-true test
  CHECK(a.guard.test == "T");
  CHECK(a.operands[1].negate);
  CHECK(a.operands[1].reg.half == SassHalf::High);
  CHECK(a.operands[2].absolute);
  CHECK(a.operands[3].invert);
  CHECK(a.operands[3].suffixes == std::vector<std::string>{"CC"});

  const SassInstruction c = parse_sass_syntax("FMAD R1, -g [A3+++0x1], |c| [0x0] [0x24], R1;");
  REQUIRE(c.operands.size() == 4);
  CHECK(c.operands[1].kind == SassOperandKind::Memory);
  CHECK(c.operands[1].space == SassSpace::Shared);
  CHECK(c.operands[1].negate);
  REQUIRE(c.operands[1].address.size() == 1);
  CHECK(c.operands[1].address[0].kind == SassRegisterKind::Address);
  CHECK(c.operands[2].space == SassSpace::Constant);
  CHECK(c.operands[2].absolute);
  CHECK(c.operands[2].bank == 0);

  const SassInstruction n = parse_sass_syntax(
      "  @!P0 FFMA.FTZ R10, -R5.reuse, -|R9|, c[0x2][0x8]  (*\"TARGET= .L_4 \"*);");
  CHECK(n.guard.present);
  CHECK(n.guard.negated);
  CHECK(n.guard.reg.kind == SassRegisterKind::Predicate);
  CHECK(n.target == ".L_4");
  CHECK(n.operands[1].suffixes == std::vector<std::string>{"reuse"});
  CHECK(n.operands[2].negate);
  CHECK(n.operands[2].absolute);

  const SassInstruction m = parse_sass_syntax("G2R.U32 R0 (C0.EQU), g [A1+0x0].U32;");
  CHECK(m.guard.test == "EQU");
  CHECK(m.operands[1].suffixes == std::vector<std::string>{"U32"});

  const SassInstruction b = parse_sass_syntax("BRA C0.NOT_SIGN, 0x418;");
  CHECK(b.guard.present);
  CHECK(b.guard.test == "NOT_SIGN");
  REQUIRE(b.operands.size() == 1);  // the test moved to the guard
  CHECK(b.operands[0].kind == SassOperandKind::Immediate);

  const SassInstruction brace = parse_sass_syntax("{ IADD32I R1, R1, -0x8 ;");
  CHECK(brace.opcode == "IADD32I");
  CHECK(parse_sass_syntax("S2R R0, SR_TID.X }").operands[1].reg.name == "SR_TID.X");
}

TEST_CASE("sass grammar: every form the issue lists parses", "[kernel][sass]") {
  const std::vector<std::string> tesla_forms = {"MOV.U16 R0H, g [0x1].U16",
                                                "ISET.S32.C0 o [0x7f], g [0xa], R0, LE",
                                                "RET C0.NE",
                                                "GLD.U32 R1, global14 [R0]",
                                                "LST.U32 local [A1+0x0], R6",
                                                "MVC R4, c [0x0] [A3+++0x1]",
                                                "MVC.U16 R0L, c [0x0] [A1+0x2040].U8",
                                                "R2A A1 (C0.NE), R7, 0x2",
                                                "ADA A2 (C0.EQU), A1, 0x8c",
                                                "TEX.UN.NODEP R0, 0x0, 0x0, 0x0, RXXX, 0x0",
                                                "TEX.T R4, R2, 0x0, 0x0, RECT, 0xf",
                                                "RRO R0, R5, EX2",
                                                "BAR.ARV.WAIT b0, 0xfff",
                                                "S2R R4, SR0",
                                                "C2R R7 (C2), C2",
                                                "R2C.S C2, R7",
                                                "I2I.S32.S32 R18, |c| [0x0] [0x24]",
                                                "FSET.C0 o [0x7f], |g| [A2+0x0], c [0x1] [0x3], GT",
                                                "VADD.UD.U32.U8.ACC R9, R3, R6.B3, R2",
                                                "IADD R16 (C1.CARRY), R16, c [0x1] [0xa]",
                                                "MOV R11 (C0.NOT_SIGN), R124",
                                                "NOP.S"};
  for (const std::string& text : tesla_forms) {
    INFO(text);
    CHECK_NOTHROW(tesla(text));
  }
  const std::vector<std::string> fermi_forms = {"MOV R1, c [0x1] [0x100]",
                                                "ISETP.LT.AND P0, pt, R0, c [0x0] [0x40], pt",
                                                "@!P1 LDS R7, [R2+-0x4]",
                                                "IMNMX R4, R3, R11, !pt",
                                                "IADD R3, R3, -c [0x0] [0x44]",
                                                "LOP.PASS_B R4, RZ, ~c [0x0] [0xc]",
                                                "@P0 NOP.S CC.T",
                                                "P2R.S RZ, PR, RZ, 0x4",
                                                "LD_LDU.E.E.32.32 R2, R3, [R4+0x8], [R6]",
                                                "FSETP.LE.AND P0, PT, |R4|, +INF , PT",
                                                "FFMA R4, R4, 1.84467440737095516160e+19, RZ",
                                                "MOV32I R4, 32@lo(no_of_nodes_vol)",
                                                "CAL `($_Z1k$__cuda_sm20_rcp_rn_f32_slowpath)",
                                                "TLD.LZ.P R4, R10, 0x6a, 1D, 0x3",
                                                "LDC R23, c[0x3][R4+0xc]"};
  for (const std::string& text : fermi_forms) {
    INFO(text);
    CHECK_NOTHROW(fermi(text));
  }
}

TEST_CASE("sass grammar: an unknown form names its column", "[kernel][sass]") {
  CHECK(syntax_error("MOV R1, Q7") == std::make_pair(8L, std::string("unknown operand 'Q7'")));
  CHECK(syntax_error("IADD R1, R2 R3").first == 12);
  CHECK(syntax_error("GLD.U32 R1, global14 [R0").first == 24);  // the end
  CHECK(syntax_error("MVC R4, c [0x0]").first == 15);
  CHECK(syntax_error("FMUL R0 (C0.MAYBE), R1, R2").first == 12);
  CHECK_THAT(syntax_error("FMUL R0 (C0.MAYBE), R1, R2").second, Contains("'MAYBE'"));
  CHECK(syntax_error("@P0 MOV R0 (C0.NE), R1", SassDialect::Fermi).first == 11);
  CHECK(syntax_error("BRA C0.NE, 0x10", SassDialect::Fermi).first == 4);
  CHECK(syntax_error("@P0 MOV R0, R1", SassDialect::Tesla).first == 0);
  CHECK(syntax_error("MOV R1, [R2+]").first == 12);
  CHECK(syntax_error("").first == 0);
  CHECK(syntax_error("BRA 0x10000000000000000").second == "hex number wider than 64 bits");
}

TEST_CASE("sass decode: sm_1x registers as the register file sees them", "[kernel][sass]") {
  const StaticInst half = tesla("MOV.U16 R0H, g [0x1].U16");
  CHECK(half.dst == Regs{0});
  CHECK(half.src == Regs{0});  // the other half is kept: read-modify-write
  CHECK(tesla("I2I.U32.U16 R1, R0L").src == Regs{0});

  const StaticInst iset = tesla("ISET.S32.C0 o [0x7f], g [0xa], R0, LE");
  CHECK(iset.dst.empty());  // o [0x7f] discards the result
  CHECK(iset.src == Regs{0});
  CHECK(iset.pred_dst == Flags{0});  // .C0 writes condition register C0

  CHECK(tesla("MOV R11 (C0.NOT_SIGN), R124").src.empty());  // R124 reads as zero
  CHECK(fermi("MOV R11, R124").src == Regs{124});           // but not after sm_1x

  const StaticInst r2a = tesla("R2A A1 (C0.NE), R7, 0x2");
  CHECK(r2a.dst.empty());  // address registers are not in the register file
  CHECK(r2a.src == Regs{7});
  CHECK(r2a.guard_pred == 0);
  CHECK_FALSE(r2a.guard_negated);
  CHECK(tesla("A2R R3, A1").dst == Regs{3});
  CHECK(tesla("MOV32 R0, g [A1+0xc]").src.empty());

  const StaticInst ret = tesla("RET C0.EQ");
  CHECK(ret.guard_pred == 0);
  CHECK(ret.guard_negated);  // EQ is the complement of NE
  CHECK(tesla("BRA C1.NEU, 0x78").guard_pred == 1);
  CHECK(tesla("IMAD.U16 R4 (C3), -R4H, R0H, R16").guard_pred == -1);  // always true

  CHECK(tesla("R2C C0, R13").pred_dst == Flags{0});
  CHECK(tesla("C2R R8, C0").pred_src == Flags{0});
  CHECK(tesla("GST.S64 global14 [R6], R0").src == (Regs{6, 0, 1}));
  CHECK(tesla("GST.S64 global14 [R6], R0").cls == InstClass::Store);
  CHECK(tesla("G2R.U32 R0 (C0.EQU), g [A1+0x0].U32").cls == InstClass::Load);
  CHECK(tesla("R2G.U32.U32 g [A1+0x10], R124").cls == InstClass::Store);
  CHECK(tesla("GRED.IADD.S32 global14 [R2], R3").cls == InstClass::Store);
  CHECK(tesla("RCP32 R4, R4").cls == InstClass::Sfu);
  CHECK(tesla("BAR.ARV.WAIT b0, 0xfff").cls == InstClass::Barrier);
}

TEST_CASE("sass decode: sm_20 and nvdisasm forms", "[kernel][sass]") {
  const StaticInst ld = fermi("LD_LDU.E.E.32.32 R2, R3, [R4+0x8], [R6]");
  CHECK(ld.dst == (Regs{2, 3}));
  CHECK(ld.src == (Regs{4, 5, 6, 7}));
  CHECK(ld.cls == InstClass::Load);
  const StaticInst nop = fermi("@P2 NOP.S CC.T");
  CHECK(nop.guard_pred == 2);
  CHECK(fermi("FSETP.LE.AND P0, PT, |R4|, +INF , PT").pred_dst == Flags{0});
  CHECK(fermi("VADD.UD.U32.U8.ACC R9, R3, R6.B3, R2").src == (Regs{3, 6, 2}));
  CHECK(fermi("IADD R3, R3, -c [0x0] [0x44]").src == Regs{3});
  CHECK(fermi("LDC R23, c[0x3][R4+0xc]").src == Regs{4});
  CHECK(fermi("FADD R0, -R2.reuse, |R3|.reuse").src == (Regs{2, 3}));
}

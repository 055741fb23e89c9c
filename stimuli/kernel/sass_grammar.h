#pragma once
// The one SASS instruction grammar of every importer (docs/sass-grammar.md): the two
// cuobjdump dialects (sm_1x "Tesla": half registers, condition and address registers,
// g[]/c[]/global14[]/local[]/o[] operands; sm_20 "Fermi": predicates, RZ, SR_*) and
// nvdisasm's (c[b][off] without spaces, .reuse, TARGET notes, braces of dual issue).
// A hand-written parser of one instruction into a syntax tree; what the operands mean
// for the register file is decided by parse_sass (kernel_ir.h). Plain C++.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpreg {

/// A syntax error `column` characters (0-based) into the text given to the parser.
class SassSyntaxError : public std::invalid_argument {
 public:
  SassSyntaxError(size_t column, const std::string& message)
      : std::invalid_argument(message), column_(column) {}
  size_t column() const { return column_; }

 private:
  size_t column_;
};

enum class SassRegisterKind : uint8_t {
  General,        ///< Rn, n = 0..255 (R0L/R0H halves, R6.B3 bytes)
  Zero,           ///< RZ
  Predicate,      ///< P0..P6, UP0..UP6 (uniform)
  PredicateTrue,  ///< PT, pt, UPT
  Condition,      ///< C0..C3 (sm_1x condition registers), CC (Fermi's carry/condition code)
  Address,        ///< A0..A7 (sm_1x address registers)
  Special,        ///< SR_TID.X, SR_Tid_X, SR0, SR_LANEID ...
  Uniform,        ///< URn, URZ (Turing+ uniform datapath)
};

enum class SassHalf : uint8_t { Whole, Low, High };  ///< R0, R0L, R0H

struct SassRegister {
  SassRegisterKind kind = SassRegisterKind::General;
  int number = -1;  ///< Rn/Pn/Cn/An/URn index; -1 for RZ, PT, CC and special registers
  SassHalf half = SassHalf::Whole;
  std::string name;  ///< as written, e.g. "R0H", "SR_Tid_X", "pt"
};

enum class SassOperandKind : uint8_t {
  Register,   ///< R5, -R4H, |R3|, ~R0, R2.CC, R6.B3, P0, !P1, pt, A1, C0, CC, SR_TID.X
  Memory,     ///< [R2+0x4], c [0x1] [0x100], c[0x0][0x44], g [A1+0x10].U16, global14 [R0] ...
  Immediate,  ///< 0x10, -0x18, 1.5e-3, +INF, QNAN, 32@lo(sym)
  Label,      ///< `(.L_1), `($kernel$__cuda_sm20_rcp_rn_f32)
  Word,       ///< a closed set: comparisons (LE), texture shapes (1D, RECT) and masks (RGBA),
              ///< RRO modes (EX2), barrier names (b0), PR
};

/// Where a memory operand points.
enum class SassSpace : uint8_t {
  Generic,   ///< [..]: the opcode says (LD/ST global, LDS/STS shared, LDL/STL local)
  Constant,  ///< c [bank] [..]
  Shared,    ///< g [..] (sm_1x shared memory, where kernel parameters live)
  Global,    ///< global14 [..], global15 [..] (sm_1x)
  Local,     ///< local [..] (sm_1x)
  Discard,   ///< o [0x7f] (sm_1x: the result goes nowhere)
};

/// A condition test guarding an instruction: @P0, @!P1, (C0.NE), BRA C1.EQU, NOP.S CC.T.
struct SassGuard {
  bool present = false;
  SassRegister reg;      ///< a predicate, or a condition register (Cn, CC)
  bool negated = false;  ///< @!P
  std::string test;      ///< condition registers: NE, EQU, SIGN, ... ("" for predicates)
  size_t column = 0;
};

struct SassOperand {
  SassOperandKind kind = SassOperandKind::Immediate;
  size_t column = 0;         ///< 0-based start in the instruction text
  std::string text;          ///< as written, trimmed
  bool negate = false;       ///< -R, -c[..]
  bool invert = false;       ///< ~R
  bool logical_not = false;  ///< !P, !pt
  bool absolute = false;     ///< |R|, |c| [..] [..]
  /// Dotted suffixes after the operand, without the dot: CC, reuse, B3, U16, X ...
  std::vector<std::string> suffixes;
  SassRegister reg;  ///< Register
  // Memory
  SassSpace space = SassSpace::Generic;
  uint32_t bank = 0;  ///< constant bank of c[bank][..], N of globalN
  /// Registers inside the brackets (general, zero, address; with post-increment A1++).
  std::vector<SassRegister> address;
};

struct SassInstruction {
  SassGuard guard;
  std::string opcode;  ///< with modifiers: ISET.S32.C0, LD_LDU.E.E.32.32
  std::vector<SassOperand> operands;
  /// nvdisasm's (*"TARGET= .L_4 "*) note on Fermi .S syncs; empty when absent.
  std::string target;
  std::string text;  ///< the instruction without ';', braces and the (*..*) note

  std::string_view base() const;  ///< the mnemonic up to the first '.'
  std::vector<std::string_view> modifiers() const;
  bool has_modifier(std::string_view modifier) const;
};

/// Parses one instruction (the text after any address and encoding comments):
///   [{] [@[!]PRED] OPCODE[.MOD]... [OPERAND [(COND)] {, OPERAND}] [;] [}] [(*note*)]
/// A condition test written after the destination (MVC R0 (C0.NE), ...) or as the
/// first operand of a control transfer (BRA C0.NE, 0x100; RET C0.EQ; NOP.S CC.T) is
/// moved into `guard`. Throws SassSyntaxError naming the column of anything else.
SassInstruction parse_sass_syntax(std::string_view text);

/// True for a condition test name the grammar accepts (NE, EQU, NOT_SIGN, T, ...).
bool is_sass_condition_test(std::string_view test);

}  // namespace warpreg

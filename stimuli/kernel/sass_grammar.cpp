#include "stimuli/kernel/sass_grammar.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace warpreg {

namespace {

template <size_t N>
bool is_one_of(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Condition tests of sm_1x condition registers (Cn.TEST) and Fermi's CC.T.
constexpr std::array<std::string_view, 28> kConditionTests = {
    "F",    "FL",       "T",     "TR",        "LT",   "EQ",       "LE",  "GT",  "NE",  "GE",
    "NUM",  "NAN",      "LTU",   "EQU",       "LEU",  "GTU",      "NEU", "GEU", "OFL", "NOT_OFL",
    "SIGN", "NOT_SIGN", "CARRY", "NOT_CARRY", "ZERO", "NOT_ZERO", "LO",  "HS"};

// Comparison operands of ISET/FSET/ICMP (ISET.S32 R6, R2, R6, LT).
constexpr std::array<std::string_view, 16> kComparisons = {"F",   "LT",  "EQ",  "LE",  "GT",  "NE",
                                                           "GE",  "NUM", "NAN", "LTU", "EQU", "LEU",
                                                           "GTU", "NEU", "GEU", "T"};

// Texture shapes, RRO modes, the predicate file as a whole.
constexpr std::array<std::string_view, 13> kOtherWords = {
    "1D",   "2D",         "3D",         "CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_3D",
    "RECT", "ARRAY_CUBE", "ARRAY_RECT", "EX2",  "SINCOS",   "PR"};

/// RGBA, RXXX, RGXA: a four-letter texture component mask.
bool is_texture_mask(std::string_view word) {
  return word.size() == 4 && std::all_of(word.begin(), word.end(), [](char c) {
           return c == 'R' || c == 'G' || c == 'B' || c == 'A' || c == 'X';
         });
}

/// b0..b15: a barrier name (BAR.ARV.WAIT b0, 0xfff).
bool is_barrier_name(std::string_view word) {
  return word.size() >= 2 && word.size() <= 3 && word[0] == 'b' && all_digits(word.substr(1));
}

bool is_word(std::string_view word) {
  return is_one_of(word, kComparisons) || is_one_of(word, kOtherWords) || is_texture_mask(word) ||
         is_barrier_name(word);
}

/// Rn, n = 0..255.
bool numbered_general(std::string_view name, SassRegister& out) {
  if (name.size() < 2 || name[0] != 'R' || !all_digits(name.substr(1)) || name.size() > 4)
    return false;
  const int n = std::stoi(std::string(name.substr(1)));
  if (n > 255) return false;
  out.kind = SassRegisterKind::General;
  out.number = n;
  out.name = std::string(name);
  return true;
}

/// Parses a register name; false when `name` is not one.
bool register_from_name(std::string_view name, SassRegister& out) {
  out = SassRegister{};
  out.name = std::string(name);
  auto numbered = [&](std::string_view prefix, int max, SassRegisterKind kind) {
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return false;
    const std::string_view digits = name.substr(prefix.size());
    if (!all_digits(digits) || digits.size() > 3) return false;
    const int n = std::stoi(std::string(digits));
    if (n > max) return false;
    out.kind = kind;
    out.number = n;
    return true;
  };
  if (name == "RZ") {
    out.kind = SassRegisterKind::Zero;
    return true;
  }
  if (name == "PT" || name == "pt" || name == "UPT") {
    out.kind = SassRegisterKind::PredicateTrue;
    return true;
  }
  if (name == "CC") {
    out.kind = SassRegisterKind::Condition;
    return true;
  }
  if (name == "URZ") {
    out.kind = SassRegisterKind::Uniform;
    return true;
  }
  if (name.substr(0, 3) == "SR_" && name.size() > 3) {
    out.kind = SassRegisterKind::Special;
    return true;
  }
  if (numbered("SR", 255, SassRegisterKind::Special)) return true;
  if (numbered("UR", 63, SassRegisterKind::Uniform)) return true;
  if (numbered("UP", 6, SassRegisterKind::Predicate)) return true;
  if (numbered("P", 6, SassRegisterKind::Predicate)) return true;
  if (numbered("C", 3, SassRegisterKind::Condition)) return true;
  if (numbered("A", 7, SassRegisterKind::Address)) return true;
  if (name.size() >= 3 && name[0] == 'R' && (name.back() == 'L' || name.back() == 'H') &&
      all_digits(name.substr(1, name.size() - 2))) {
    std::string_view whole = name.substr(0, name.size() - 1);
    if (!numbered_general(whole, out)) return false;
    out.half = name.back() == 'L' ? SassHalf::Low : SassHalf::High;
    out.name = std::string(name);
    return true;
  }
  return numbered_general(name, out);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  SassInstruction run() {
    SassInstruction inst;
    strip_outer(inst);
    skip_space();
    if (peek() == '@') parse_prefix_guard(inst.guard);
    skip_space();
    parse_opcode(inst.opcode);
    skip_space();
    if (!at_end()) {
      while (true) {
        inst.operands.push_back(parse_operand(inst.guard));
        skip_space();
        if (at_end()) break;
        if (peek() != ',') fail(pos_, "expected ',' between operands, found " + found());
        ++pos_;
      }
    }
    move_condition_operand(inst);
    inst.text = std::string(trim(s_));
    return inst;
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& message) const {
    throw SassSyntaxError(offset_ + at, message);
  }

  std::string found() const {
    if (at_end()) return "the end of the instruction";
    return "'" + std::string(1, s_[pos_]) + "'";
  }

  static std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  }

  /// Removes the (*note*), the ';', and braces of a dual-issue pair; keeps columns.
  void strip_outer(SassInstruction& inst) {
    const size_t open = s_.find("(*");
    if (open != std::string_view::npos) {
      const size_t close = s_.find("*)", open + 2);
      if (close == std::string_view::npos) fail(open, "unclosed '(*' note");
      std::string_view note = s_.substr(open + 2, close - open - 2);
      const size_t key = note.find("TARGET=");
      if (key != std::string_view::npos) {
        note = note.substr(key + 7);
        inst.target = std::string(trim(note.substr(0, note.find('"'))));
      }
      const std::string_view after = s_.substr(close + 2);
      const size_t extra = after.find_first_not_of(" \t;}");
      if (extra != std::string_view::npos) fail(close + 2 + extra, "text after the '(*...*)' note");
      s_ = s_.substr(0, open);
    }
    const size_t first = s_.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && s_[first] == '{') {
      offset_ += first + 1;
      s_ = s_.substr(first + 1);
    }
    s_ = s_.substr(0, trim_end(s_));
    if (!s_.empty() && s_.back() == '}') s_ = s_.substr(0, trim_end(s_.substr(0, s_.size() - 1)));
    if (!s_.empty() && s_.back() == ';') s_ = s_.substr(0, trim_end(s_.substr(0, s_.size() - 1)));
    if (trim(s_).empty()) fail(0, "empty instruction");
  }

  static size_t trim_end(std::string_view s) {
    size_t end = s.size();
    while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
    return end;
  }

  bool at_end() const { return pos_ >= s_.size(); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  std::string_view identifier() {
    const size_t start = pos_;
    while (!at_end() && is_identifier_char(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  void parse_prefix_guard(SassGuard& guard) {
    guard.column = offset_ + pos_;
    ++pos_;  // '@'
    if (peek() == '!') {
      guard.negated = true;
      ++pos_;
    }
    const size_t at = pos_;
    const std::string_view name = identifier();
    if (!register_from_name(name, guard.reg) || (guard.reg.kind != SassRegisterKind::Predicate &&
                                                 guard.reg.kind != SassRegisterKind::PredicateTrue))
      fail(at, "bad guard '@" + std::string(name) + "': expected @P0..@P6 or @PT");
    guard.present = true;
    if (at_end() || !std::isspace(static_cast<unsigned char>(peek())))
      fail(pos_, "expected a space after the guard, found " + found());
  }

  void parse_opcode(std::string& opcode) {
    const size_t start = pos_;
    if (!std::isupper(static_cast<unsigned char>(peek())))
      fail(pos_, "expected an opcode, found " + found());
    while (!at_end() && (is_identifier_char(peek()) || peek() == '.')) {
      if (peek() == '.' && !is_identifier_char(peek(1)))
        fail(pos_, "empty opcode modifier after '.'");
      ++pos_;
    }
    opcode = std::string(s_.substr(start, pos_ - start));
    if (!at_end() && !std::isspace(static_cast<unsigned char>(peek())))
      fail(pos_, "unexpected " + found() + " in the opcode");
  }

  void parse_suffixes(SassOperand& op) {
    while (peek() == '.' && is_identifier_char(peek(1))) {
      ++pos_;
      op.suffixes.emplace_back(identifier());
    }
  }

  SassOperand parse_operand(SassGuard& guard) {
    skip_space();
    SassOperand op;
    op.column = offset_ + pos_;
    const size_t start = pos_;
    if (at_end() || peek() == ',') fail(pos_, "empty operand");
    bool abs_open = false;
    for (bool more = true; more;) {
      switch (peek()) {
        case '-':
          op.negate = true;
          ++pos_;
          break;
        case '~':
          op.invert = true;
          ++pos_;
          break;
        case '!':
          op.logical_not = true;
          ++pos_;
          break;
        case '|':
          if (abs_open) fail(pos_, "nested '|'");
          op.absolute = abs_open = true;
          ++pos_;
          break;
        case '+':
          if (!std::isalpha(static_cast<unsigned char>(peek(1))) && !is_digit(peek(1)))
            fail(pos_, "'+' must precede a number");
          ++pos_;
          break;
        default:
          more = false;
      }
      skip_space();
    }
    parse_primary(op, abs_open);
    parse_suffixes(op);  // |R3.reuse|
    if (abs_open) {
      if (peek() != '|') fail(pos_, "unclosed '|', found " + found());
      ++pos_;
    }
    parse_suffixes(op);
    skip_space();
    if (peek() == '(' && peek(1) == 'C') parse_condition_guard(guard);
    skip_space();
    if (!at_end() && peek() != ',') fail(pos_, "unexpected " + found() + " after the operand");
    op.text = std::string(trim(s_.substr(start, pos_ - start)));
    return op;
  }

  /// "(C0.NE)" or "(C3)" after an operand: the instruction's condition (sm_1x).
  void parse_condition_guard(SassGuard& guard) {
    const size_t at = pos_;
    ++pos_;  // '('
    if (guard.present) fail(at, "a second guard on one instruction");
    const std::string_view name = identifier();
    if (!register_from_name(name, guard.reg) || guard.reg.kind != SassRegisterKind::Condition)
      fail(at + 1,
           "expected a condition register C0..C3 in '(...)', found '" + std::string(name) + "'");
    if (peek() == '.') {
      ++pos_;
      const size_t test_at = pos_;
      guard.test = std::string(identifier());
      if (!is_sass_condition_test(guard.test))
        fail(test_at, "unknown condition test '" + guard.test + "'");
    } else {
      guard.test = "T";  // a register without a test: the always-true test (TR)
    }
    if (peek() != ')') fail(pos_, "expected ')' after the condition, found " + found());
    ++pos_;
    guard.present = true;
    guard.column = offset_ + at;
  }

  void parse_primary(SassOperand& op, bool& abs_open) {
    const char c = peek();
    if (c == '[') {
      op.kind = SassOperandKind::Memory;
      op.space = SassSpace::Generic;
      parse_brackets(op);
      return;
    }
    if (c == '`') {
      op.kind = SassOperandKind::Label;
      ++pos_;
      if (peek() != '(') fail(pos_, "expected '(' after '`'");
      const size_t close = s_.find(')', pos_);
      if (close == std::string_view::npos || close == pos_ + 1) fail(pos_, "bad label");
      pos_ = close + 1;
      return;
    }
    if (is_digit(c) || c == '.') {
      parse_number_or_word(op);
      return;
    }
    if (!is_identifier_start(c))
      fail(pos_, "unexpected " + found() + " at the start of an operand");
    const size_t at = pos_;
    const std::string_view name = identifier();
    if (parse_memory_space(op, name, abs_open)) return;
    if (name == "INF" || name == "QNAN" || name == "NAN") {
      op.kind = SassOperandKind::Immediate;
      return;
    }
    SassRegister reg;
    if (register_from_name(name, reg)) {
      if (reg.kind == SassRegisterKind::Special && name.substr(0, 3) == "SR_" && peek() == '.' &&
          (peek(1) == 'X' || peek(1) == 'Y' || peek(1) == 'Z') && !is_identifier_char(peek(2))) {
        reg.name += s_.substr(pos_, 2);  // SR_TID.X
        pos_ += 2;
      }
      op.kind = SassOperandKind::Register;
      op.reg = std::move(reg);
      return;
    }
    if (is_word(name)) {
      op.kind = SassOperandKind::Word;
      return;
    }
    fail(at, "unknown operand '" + std::string(name) + "'");
  }

  /// c [b] [..], g [..], globalN [..], local [..], o [..]; false if `name` is none.
  bool parse_memory_space(SassOperand& op, std::string_view name, bool& abs_open) {
    SassSpace space;
    if (name == "c") {
      space = SassSpace::Constant;
    } else if (name == "g") {
      space = SassSpace::Shared;
    } else if (name == "o") {
      space = SassSpace::Discard;
    } else if (name == "local") {
      space = SassSpace::Local;
    } else if (name.size() > 6 && name.substr(0, 6) == "global" && all_digits(name.substr(6))) {
      space = SassSpace::Global;
      op.bank = static_cast<uint32_t>(std::stoul(std::string(name.substr(6, 3))));
    } else {
      return false;
    }
    if (abs_open && peek() == '|') {  // |c| [..] [..]: sm_1x writes the bars around the space
      ++pos_;
      abs_open = false;
    }
    skip_space();
    if (peek() != '[') fail(pos_, "expected '[' after '" + std::string(name) + "'");
    op.kind = SassOperandKind::Memory;
    op.space = space;
    if (space == SassSpace::Constant) {
      ++pos_;
      skip_space();
      const size_t at = pos_;
      uint64_t bank = 0;
      if (!parse_unsigned(bank) || bank > 0xffff) fail(at, "bad constant bank");
      op.bank = static_cast<uint32_t>(bank);
      skip_space();
      if (peek() != ']') fail(pos_, "expected ']' after the constant bank, found " + found());
      ++pos_;
      skip_space();
      if (peek() != '[') fail(pos_, "expected '[offset]' after the constant bank");
    }
    parse_brackets(op);
    return true;
  }

  /// 0x1f or 31; false when no digit is here.
  bool parse_unsigned(uint64_t& out) {
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      const size_t start = pos_;
      while (is_hex_digit(peek())) ++pos_;
      if (pos_ == start || pos_ - start > 16) return false;
      out = std::stoull(std::string(s_.substr(start, pos_ - start)), nullptr, 16);
      return true;
    }
    const size_t start = pos_;
    while (is_digit(peek())) ++pos_;
    if (pos_ == start || pos_ - start > 19) return false;
    out = std::stoull(std::string(s_.substr(start, pos_ - start)));
    return true;
  }

  /// "[" term {"+" term} "]": registers (A1++ post-increments) and signed numbers.
  void parse_brackets(SassOperand& op) {
    const size_t open = pos_;
    ++pos_;  // '['
    skip_space();
    if (peek() == ']') fail(open, "empty address '[]'");
    while (true) {
      skip_space();
      const size_t at = pos_;
      if (is_identifier_start(peek())) {
        const std::string_view name = identifier();
        SassRegister reg;
        if (!register_from_name(name, reg) ||
            (reg.kind != SassRegisterKind::General && reg.kind != SassRegisterKind::Zero &&
             reg.kind != SassRegisterKind::Address && reg.kind != SassRegisterKind::Uniform) ||
            reg.half != SassHalf::Whole)
          fail(at, "bad address register '" + std::string(name) + "'");
        while (peek() == '.' && is_identifier_char(peek(1))) {  // [R2.64], [R4.X4]
          ++pos_;
          identifier();
        }
        if (peek() == '+' && peek(1) == '+') pos_ += 2;  // A3++: post-increment
        op.address.push_back(std::move(reg));
      } else {
        if (peek() == '-') ++pos_;
        uint64_t ignored = 0;
        if (!parse_unsigned(ignored)) fail(at, "bad address term, found " + found());
      }
      skip_space();
      if (peek() == ']') break;
      if (peek() != '+') fail(pos_, "expected '+' or ']' in the address, found " + found());
      ++pos_;
    }
    ++pos_;  // ']'
  }

  /// Hex, decimal, float (1.5e-38), 32@lo(sym), or a word starting with a digit (1D).
  void parse_number_or_word(SassOperand& op) {
    const size_t start = pos_;
    op.kind = SassOperandKind::Immediate;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      const size_t digits = pos_;
      while (is_hex_digit(peek())) ++pos_;
      if (pos_ == digits) fail(start, "hex number without digits");
      if (pos_ - digits > 16) fail(start, "hex number wider than 64 bits");
      return;
    }
    while (is_digit(peek())) ++pos_;
    if (peek() == '@') {  // 32@lo(symbol)
      const std::string_view width = s_.substr(start, pos_ - start);
      ++pos_;
      const std::string_view half = identifier();
      if (width != "32" || (half != "lo" && half != "hi") || peek() != '(')
        fail(start, "bad relocation, expected 32@lo(symbol) or 32@hi(symbol)");
      const size_t close = s_.find(')', pos_);
      if (close == std::string_view::npos) fail(pos_, "unclosed '(' in a relocation");
      pos_ = close + 1;
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(peek())) && peek() != 'e' && peek() != 'E') {
      identifier();  // 1D, 2D, 3D
      const std::string_view word = s_.substr(start, pos_ - start);
      if (!is_word(word)) fail(start, "unknown operand '" + std::string(word) + "'");
      op.kind = SassOperandKind::Word;
      return;
    }
    if (peek() == '.') {
      ++pos_;
      while (is_digit(peek())) ++pos_;
    }
    if (pos_ == start || (pos_ == start + 1 && s_[start] == '.')) fail(start, "bad number");
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      const size_t digits = pos_;
      while (is_digit(peek())) ++pos_;
      if (pos_ == digits) fail(start, "bad exponent");
    }
  }

  /// A control transfer's first operand "C0.NE" or "CC.T" is its guard.
  void move_condition_operand(SassInstruction& inst) {
    if (inst.operands.empty()) return;
    SassOperand& first = inst.operands.front();
    if (first.kind != SassOperandKind::Register || first.reg.kind != SassRegisterKind::Condition ||
        first.suffixes.size() != 1 || !is_sass_condition_test(first.suffixes[0]))
      return;
    // C2R R7, C2 and R2C C0, R13 name the register itself; only a tested one guards.
    const bool always = first.suffixes[0] == "T" || first.suffixes[0] == "TR";
    if (inst.guard.present && always) {  // @P0 NOP.S CC.T: the always-true test adds nothing
      inst.operands.erase(inst.operands.begin());
      return;
    }
    if (inst.guard.present)
      throw SassSyntaxError(first.column, "a second guard on one instruction");
    inst.guard.present = true;
    inst.guard.reg = first.reg;
    inst.guard.test = first.suffixes[0];
    inst.guard.column = first.column;
    inst.operands.erase(inst.operands.begin());
  }

  std::string_view s_;
  size_t offset_ = 0;  ///< columns removed from the front (a '{')
  size_t pos_ = 0;
};

}  // namespace

bool is_sass_condition_test(std::string_view test) { return is_one_of(test, kConditionTests); }

SassInstruction parse_sass_syntax(std::string_view text) { return Parser(text).run(); }

std::string_view SassInstruction::base() const {
  const std::string_view op(opcode);
  return op.substr(0, op.find('.'));
}

std::vector<std::string_view> SassInstruction::modifiers() const {
  std::vector<std::string_view> out;
  const std::string_view op(opcode);
  size_t dot = op.find('.');
  while (dot != std::string_view::npos) {
    const size_t next = op.find('.', dot + 1);
    out.push_back(op.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1));
    dot = next;
  }
  return out;
}

bool SassInstruction::has_modifier(std::string_view modifier) const {
  const auto mods = modifiers();
  return std::find(mods.begin(), mods.end(), modifier) != mods.end();
}

}  // namespace warpreg

#include "stimuli/kernel/kernel_ir.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace warpreg {

namespace {

constexpr uint16_t kHighestRegister = kZeroRegister - 1;
constexpr uint8_t kPredicateCount = 7;  // P0..P6; PT is the constant true predicate

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view base_mnemonic(std::string_view opcode) {
  return opcode.substr(0, opcode.find('.'));
}

std::vector<std::string_view> modifiers(std::string_view opcode) {
  std::vector<std::string_view> out;
  size_t dot = opcode.find('.');
  while (dot != std::string_view::npos) {
    const size_t next = opcode.find('.', dot + 1);
    out.push_back(opcode.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1));
    dot = next;
  }
  return out;
}

bool has_modifier(std::string_view opcode, std::string_view modifier) {
  const auto mods = modifiers(opcode);
  return std::find(mods.begin(), mods.end(), modifier) != mods.end();
}

template <size_t N>
bool is_one_of(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool all_hex_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

[[noreturn]] void bad_operand(std::string_view operand, std::string_view why) {
  throw std::invalid_argument("unparsable operand '" + std::string(operand) +
                              "': " + std::string(why));
}

/// "R12" (with an optional ".CC"/".H1"-style suffix) -> 12, "RZ" -> kZeroRegister,
/// anything else -> -1.
int parse_register_name(std::string_view s) {
  s = s.substr(0, s.find('.'));
  if (s == "RZ") return kZeroRegister;
  if (s.size() < 2 || s[0] != 'R' || !all_digits(s.substr(1)) || s.size() > 4) return -1;
  return std::atoi(std::string(s.substr(1)).c_str());
}

/// "P3" -> 3, "PT" -> kPredicateCount, anything else -> -1.
int parse_predicate_name(std::string_view s) {
  if (s == "PT") return kPredicateCount;
  if (s.size() == 2 && s[0] == 'P' && s[1] >= '0' && s[1] < '0' + kPredicateCount)
    return s[1] - '0';
  return -1;
}

bool is_immediate(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "INF" || s == "QNAN" || s == "NAN") return true;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return all_hex_digits(s.substr(2));
  if (s.empty() || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.')) return false;
  const std::string copy(s);
  char* end = nullptr;
  std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

/// Operands that name no register: relocations, special registers, texture shapes.
bool is_registerless_word(std::string_view s) {
  static constexpr std::array<std::string_view, 8> kShapes = {
      "1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_CUBE", "PR"};
  if (is_one_of(s, kShapes)) return true;
  if (s.rfind("SR_", 0) == 0) return true;
  return (s.rfind("32@hi(", 0) == 0 || s.rfind("32@lo(", 0) == 0) && s.back() == ')';
}

enum class OperandKind { Register, Predicate, Memory, Other };

struct Operand {
  OperandKind kind = OperandKind::Other;
  int number = -1;                ///< register or predicate number
  std::vector<int> address_regs;  ///< registers inside [..] or c[..][..]
  bool constant_bank = false;     ///< c[bank][offset]
};

/// "[R4+-0x4]" contents -> the address registers (RZ kept so callers can drop it).
void parse_address(std::string_view inner, std::string_view whole, std::vector<int>& regs) {
  if (trim(inner).empty()) bad_operand(whole, "empty address");
  size_t start = 0;
  while (start <= inner.size()) {
    const size_t plus = inner.find('+', start);
    const std::string_view term =
        trim(inner.substr(start, plus == std::string_view::npos ? plus : plus - start));
    const int reg = parse_register_name(term);
    if (reg >= 0) {
      regs.push_back(reg);
    } else if (!is_immediate(term)) {
      bad_operand(whole, "bad address term");
    }
    if (plus == std::string_view::npos) break;
    start = plus + 1;
  }
}

Operand parse_operand(std::string_view text) {
  std::string_view s = trim(text);
  if (s.empty()) bad_operand(text, "empty");
  Operand op;
  if (s.front() == '`') {  // branch/call target `(label)
    if (s.size() < 4 || s[1] != '(' || s.back() != ')') bad_operand(text, "bad label");
    return op;
  }
  if (s.front() == '[') {
    if (s.back() != ']') bad_operand(text, "unclosed '['");
    op.kind = OperandKind::Memory;
    parse_address(s.substr(1, s.size() - 2), text, op.address_regs);
    return op;
  }
  std::string_view body = s;
  if (body.front() == '-' || body.front() == '~' || body.front() == '!') body.remove_prefix(1);
  if (body.size() >= 2 && body.front() == '|' && body.back() == '|')
    body = body.substr(1, body.size() - 2);
  if (body.rfind("c[", 0) == 0) {
    const size_t mid = body.find("][");
    if (mid == std::string_view::npos || body.back() != ']') bad_operand(text, "bad constant");
    if (!is_immediate(body.substr(2, mid - 2))) bad_operand(text, "bad constant bank");
    op.kind = OperandKind::Memory;
    op.constant_bank = true;
    parse_address(body.substr(mid + 2, body.size() - mid - 3), text, op.address_regs);
    return op;
  }
  if (body.front() == 'R') {
    op.number = parse_register_name(body);
    if (op.number < 0) bad_operand(text, "bad register");
    if (op.number > kZeroRegister) bad_operand(text, "register beyond R254");
    op.kind = OperandKind::Register;
    return op;
  }
  if (body.front() == 'P' && body != "PR") {
    op.number = parse_predicate_name(body);
    if (op.number < 0) bad_operand(text, "bad predicate");
    op.kind = OperandKind::Predicate;
    return op;
  }
  if (is_immediate(s) || is_registerless_word(body)) return op;
  bad_operand(text, "unknown form");
}

/// Registers an operand of `width` 32-bit words occupies (R4 as a 64-bit value is R4:R5).
void add_registers(std::vector<uint16_t>& out, int first, unsigned width) {
  if (first == kZeroRegister) return;
  if (first + static_cast<int>(width) - 1 > kHighestRegister) {
    throw std::invalid_argument("register R" + std::to_string(first) + " of a " +
                                std::to_string(width * 32) + "-bit operand runs past R254");
  }
  for (unsigned k = 0; k < width; ++k) {
    const auto reg = static_cast<uint16_t>(first + static_cast<int>(k));
    if (std::find(out.begin(), out.end(), reg) == out.end()) out.push_back(reg);
  }
}

void add_predicate(std::vector<uint8_t>& out, int pred) {
  if (pred >= kPredicateCount) return;  // PT
  const auto p = static_cast<uint8_t>(pred);
  if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
}

bool is_memory_op(std::string_view base) {
  static constexpr std::array<std::string_view, 16> kMemory = {
      "LD", "LDG", "LDS", "LDL", "LDU", "LDSLK",  "ATOM", "ATOMS",
      "ST", "STG", "STS", "STL", "RED", "STSCUL", "STUL", "LDLK"};
  return is_one_of(base, kMemory);
}

/// Register words of a memory op's data operands: .64 -> 2, .128 -> 4, else 1.
unsigned memory_data_width(std::string_view opcode) {
  if (has_modifier(opcode, "128")) return 4;
  if (has_modifier(opcode, "64")) return 2;
  return 1;
}

/// For conversions, the register words of the destination and of the source, from the
/// first two type modifiers (destination type first, as SASS prints them).
std::pair<unsigned, unsigned> conversion_widths(std::string_view opcode) {
  static constexpr std::array<std::string_view, 11> kTypes = {
      "F16", "F32", "F64", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64"};
  std::vector<unsigned> widths;
  for (std::string_view mod : modifiers(opcode)) {
    if (is_one_of(mod, kTypes)) widths.push_back(mod.substr(1) == "64" ? 2 : 1);
  }
  if (widths.empty()) return {1, 1};
  return {widths[0], widths.size() > 1 ? widths[1] : widths[0]};
}

bool writes_no_register(std::string_view base, InstClass cls) {
  static constexpr std::array<std::string_view, 7> kNoDst = {
      "NOP", "CCTL", "CCTLL", "TEXDEPBAR", "MEMBAR", "DEPBAR", "SUST"};
  return cls == InstClass::Store || cls == InstClass::Branch || cls == InstClass::Barrier ||
         cls == InstClass::Exit || is_one_of(base, kNoDst);
}

/// Pulls nvdisasm's "(*"TARGET= .L_4 "*)" annotation out of the text.
std::string_view strip_annotation(std::string_view s, std::string& target) {
  const size_t open = s.find("(*");
  if (open == std::string_view::npos) return s;
  const size_t close = s.find("*)", open);
  if (close == std::string_view::npos) throw std::invalid_argument("unclosed '(*' annotation");
  std::string_view note = s.substr(open + 2, close - open - 2);
  const size_t key = note.find("TARGET=");
  if (key != std::string_view::npos) {
    note = note.substr(key + 7);
    const size_t quote = note.find('"');
    target = std::string(trim(note.substr(0, quote)));
  }
  return trim(s.substr(0, open));
}

}  // namespace

InstClass classify_opcode(std::string_view opcode, bool has_destination) {
  static constexpr std::array<std::string_view, 16> kLoads = {
      "LD",   "LDG",    "LDS", "LDL", "LDC",  "LDU", "LDSLK", "LDLK",
      "LDSM", "LDGSTS", "TEX", "TLD", "TLD4", "TXD", "TXQ",   "SULD"};
  // Atomics return the old value when they have a destination; reductions do not.
  static constexpr std::array<std::string_view, 6> kAtomics = {"ATOM",   "ATOMG", "ATOMS",
                                                               "SUATOM", "RED",   "SURED"};
  static constexpr std::array<std::string_view, 7> kStores = {"ST",     "STG",  "STS", "STL",
                                                              "STSCUL", "STUL", "SUST"};
  static constexpr std::array<std::string_view, 20> kBranches = {
      "BRA", "BRX",  "JMP",  "JMX",  "CAL",  "CALL",  "JCAL", "RET",   "SSY",      "PBK",
      "BRK", "SYNC", "CONT", "PCNT", "PRET", "PEXIT", "BSSY", "BSYNC", "WARPSYNC", "KIL"};
  const std::string_view base = base_mnemonic(opcode);
  if (is_one_of(base, kLoads)) return InstClass::Load;
  if (is_one_of(base, kAtomics)) return has_destination ? InstClass::Load : InstClass::Store;
  if (is_one_of(base, kStores)) return InstClass::Store;
  if (is_one_of(base, kBranches)) return InstClass::Branch;
  if (base == "BAR") return InstClass::Barrier;
  if (base == "EXIT") return InstClass::Exit;
  // RRO is the range reduction that feeds MUFU on Kepler-Pascal, on the same unit.
  if (base == "MUFU" || base == "RRO") return InstClass::Sfu;
  return InstClass::Alu;
}

StaticInst parse_sass(std::string_view text, uint64_t pc) {
  StaticInst inst;
  inst.pc = pc;
  std::string_view s = trim(text);
  if (!s.empty() && s.back() == ';') s = trim(s.substr(0, s.size() - 1));
  s = strip_annotation(s, inst.target);
  inst.text = std::string(s);
  if (s.empty()) throw std::invalid_argument("empty instruction");

  if (s.front() == '@') {
    const size_t space = s.find_first_of(" \t");
    if (space == std::string_view::npos) throw std::invalid_argument("guard without instruction");
    std::string_view guard = s.substr(1, space - 1);
    if (!guard.empty() && guard.front() == '!') {
      inst.guard_negated = true;
      guard.remove_prefix(1);
    }
    const int pred = parse_predicate_name(guard);
    if (pred < 0) throw std::invalid_argument("bad guard '" + std::string(guard) + "'");
    if (pred < kPredicateCount) inst.guard_pred = static_cast<int8_t>(pred);
    s = trim(s.substr(space));
  }

  const size_t space = s.find_first_of(" \t");
  inst.opcode = std::string(s.substr(0, space));
  // Provisional: an atomic is taken to return a value until its operands say otherwise.
  inst.cls = classify_opcode(inst.opcode, true);
  const std::string_view opcode = inst.opcode;
  const std::string_view base = base_mnemonic(opcode);

  std::vector<Operand> ops;
  if (space != std::string_view::npos) {
    std::string_view rest = trim(s.substr(space));
    if (!rest.empty() && rest.front() == '`' && rest.size() > 3) {  // BRA `(.L_1)
      inst.target = std::string(rest.substr(2, rest.find(')') - 2));
    }
    size_t start = 0;
    while (start <= rest.size()) {
      const size_t comma = rest.find(',', start);
      ops.push_back(parse_operand(
          rest.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }

  // Widths in 32-bit register words, by operand role.
  const bool double_op = base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DMNMX" ||
                         base == "DSETP" || base == "DSET";
  const bool conversion = base == "F2F" || base == "F2I" || base == "I2F" || base == "I2I";
  const bool memory = is_memory_op(base);
  unsigned dst_width = 1;
  unsigned src_width = 1;
  if (double_op) {
    dst_width = base == "DSET" ? 1 : 2;
    src_width = 2;
  } else if (conversion) {
    std::tie(dst_width, src_width) = conversion_widths(opcode);
  } else if (memory) {
    dst_width = src_width = memory_data_width(opcode);
  }
  const unsigned address_width = has_modifier(opcode, "E") ? 2 : 1;

  size_t next = 0;
  const bool setp =
      base == "ISETP" || base == "FSETP" || base == "DSETP" || base == "PSETP" || base == "HSETP2";
  if (base == "VOTE") {  // VOTE.op Rd, Pd, Ps
    if (next < ops.size() && ops[next].kind == OperandKind::Register)
      add_registers(inst.dst, ops[next++].number, 1);
    if (next < ops.size() && ops[next].kind == OperandKind::Predicate)
      add_predicate(inst.pred_dst, ops[next++].number);
  } else {
    // Leading predicates are written (ISETP P0, PT / SHFL PT, R6 / LDSLK P0, R5).
    const size_t max_pred_dst = setp ? 2 : 1;
    while (next < ops.size() && next < max_pred_dst && ops[next].kind == OperandKind::Predicate)
      add_predicate(inst.pred_dst, ops[next++].number);
    if (!setp && !writes_no_register(base, inst.cls) && next < ops.size() &&
        ops[next].kind == OperandKind::Register)
      add_registers(inst.dst, ops[next++].number, dst_width);
  }
  for (; next < ops.size(); ++next) {
    const Operand& op = ops[next];
    switch (op.kind) {
      case OperandKind::Register:
        add_registers(inst.src, op.number, src_width);
        break;
      case OperandKind::Predicate:
        add_predicate(inst.pred_src, op.number);
        break;
      case OperandKind::Memory:
        for (int reg : op.address_regs)
          add_registers(inst.src, reg, op.constant_bank ? 1 : address_width);
        break;
      case OperandKind::Other:
        break;
    }
  }
  inst.cls = classify_opcode(inst.opcode, !inst.dst.empty());
  return inst;
}

bool may_fall_through(const StaticInst& inst) {
  if (inst.guard_pred >= 0 || inst.guard_negated) return true;
  if (inst.cls == InstClass::Exit) return false;
  static constexpr std::array<std::string_view, 7> kJumps = {"BRA", "BRX", "JMP", "JMX",
                                                             "RET", "BRK", "CONT"};
  if (is_one_of(base_mnemonic(inst.opcode), kJumps)) return false;
  return !(has_modifier(inst.opcode, "S") && !inst.target.empty());
}

uint32_t Kernel::regs_used() const {
  int highest = -1;
  for (const BasicBlock& block : blocks) {
    for (const StaticInst& inst : block.insts) {
      for (uint16_t r : inst.dst) highest = std::max(highest, static_cast<int>(r));
      for (uint16_t r : inst.src) highest = std::max(highest, static_cast<int>(r));
    }
  }
  return static_cast<uint32_t>(highest + 1);
}

size_t Kernel::instruction_count() const {
  size_t n = 0;
  for (const BasicBlock& block : blocks) n += block.insts.size();
  return n;
}

size_t Kernel::edge_count() const {
  size_t n = 0;
  for (const BasicBlock& block : blocks) n += block.succ.size();
  return n;
}

void Kernel::add_edge(uint32_t from, uint32_t to) {
  auto& succ = blocks.at(from).succ;
  if (std::find(succ.begin(), succ.end(), to) != succ.end()) return;
  succ.push_back(to);
  blocks.at(to).pred.push_back(from);
}

std::vector<uint32_t> compute_immediate_post_dominators(const Kernel& kernel) {
  const auto n = static_cast<uint32_t>(kernel.blocks.size());
  const uint32_t exit_node = n;  // the virtual exit, root of the reverse CFG
  constexpr uint32_t kUnvisited = 0xFFFFFFFFu;

  // Postorder of the reverse CFG from the virtual exit (iterative DFS over CFG preds).
  // A block leaves the kernel when it has no successor or ends in a (guarded) EXIT/RET.
  auto leaves = [&](const BasicBlock& b) {
    if (b.succ.empty()) return true;
    if (b.insts.empty()) return false;
    const StaticInst& last = b.insts.back();
    return last.cls == InstClass::Exit || base_mnemonic(last.opcode) == "RET";
  };
  auto reverse_successors = [&](uint32_t v) {
    std::vector<uint32_t> out;
    if (v == exit_node) {
      for (const BasicBlock& b : kernel.blocks)
        if (leaves(b)) out.push_back(b.id);
    } else {
      out = kernel.blocks[v].pred;
    }
    return out;
  };
  std::vector<uint32_t> postorder_number(n + 1, kUnvisited);
  std::vector<uint32_t> postorder;
  std::vector<bool> seen(n + 1, false);
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> stack;
  stack.emplace_back(exit_node, reverse_successors(exit_node));
  seen[exit_node] = true;
  while (!stack.empty()) {
    auto& [node, pending] = stack.back();
    if (pending.empty()) {
      postorder_number[node] = static_cast<uint32_t>(postorder.size());
      postorder.push_back(node);
      stack.pop_back();
      continue;
    }
    const uint32_t next = pending.back();
    pending.pop_back();
    if (!seen[next]) {
      seen[next] = true;
      stack.emplace_back(next, reverse_successors(next));
    }
  }

  std::vector<uint32_t> idom(n + 1, kUnvisited);
  idom[exit_node] = exit_node;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (postorder_number[a] < postorder_number[b]) a = idom[a];
      while (postorder_number[b] < postorder_number[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      const uint32_t v = *it;
      if (v == exit_node) continue;
      // Predecessors in the reverse CFG: the CFG successors, or the virtual exit.
      std::vector<uint32_t> preds = kernel.blocks[v].succ;
      if (leaves(kernel.blocks[v])) preds.push_back(exit_node);
      uint32_t new_idom = kUnvisited;
      for (uint32_t p : preds) {
        if (idom[p] == kUnvisited) continue;
        new_idom = new_idom == kUnvisited ? p : intersect(p, new_idom);
      }
      if (new_idom != idom[v]) {
        idom[v] = new_idom;
        changed = true;
      }
    }
  }

  std::vector<uint32_t> result(n, kNoPostDominator);
  for (uint32_t v = 0; v < n; ++v) {
    if (idom[v] == kUnvisited) continue;
    result[v] = idom[v] == exit_node ? kVirtualExit : idom[v];
  }
  return result;
}

uint32_t reconvergence_point(const Kernel& kernel, uint32_t block) {
  if (kernel.blocks.at(block).succ.size() < 2) return kNoPostDominator;
  return compute_immediate_post_dominators(kernel)[block];
}

}  // namespace warpreg

#include "stimuli/kernel/kernel_ir.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "stimuli/kernel/sass_grammar.h"

namespace warpreg {

namespace {

constexpr uint16_t kHighestRegister = kZeroRegister - 1;
constexpr uint8_t kPredicateCount = 7;  // P0..P6; PT is the constant true predicate

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
  static constexpr std::array<std::string_view, 24> kMemory = {
      "LD",  "LDG", "LDS", "LDL", "LDU", "LDSLK",  "ATOM", "ATOMS",
      "ST",  "STG", "STS", "STL", "RED", "STSCUL", "STUL", "LDLK",
      "GLD", "GST", "LLD", "LST", "G2R", "R2G",    "GRED", "GATOM"};
  return is_one_of(base, kMemory);
}

/// Register words of a memory op's data operands: .64/.S64/.U64 -> 2, .128 -> 4, else 1.
unsigned memory_data_width(std::string_view opcode) {
  for (std::string_view mod : modifiers(opcode)) {
    const std::string_view bits =
        mod.size() > 2 && (mod[0] == 'S' || mod[0] == 'U' || mod[0] == 'B') ? mod.substr(1) : mod;
    if (bits == "128") return 4;
    if (bits == "64") return 2;
  }
  return 1;
}

/// Bytes per lane of a load or store: .U8/.S8 1, .U16/.S16 2, .64 8, .128 16, else 4.
uint8_t memory_access_bytes(std::string_view opcode) {
  for (std::string_view mod : modifiers(opcode)) {
    if (mod == "U8" || mod == "S8") return 1;
    if (mod == "U16" || mod == "S16") return 2;
  }
  return static_cast<uint8_t>(memory_data_width(opcode) * 4);
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

}  // namespace

MemorySpace memory_space_of(std::string_view opcode) {
  static constexpr std::array<std::string_view, 9> kShared = {
      "LDS", "STS", "ATOMS", "LDSLK", "STSCUL", "STUL", "LDSM", "G2R", "R2G"};
  static constexpr std::array<std::string_view, 4> kLocal = {"LDL", "STL", "LLD", "LST"};
  static constexpr std::array<std::string_view, 12> kGlobal = {
      "LDG", "STG", "LDU", "LD_LDU", "ATOM", "ATOMG", "RED", "GLD", "GST", "GATOM", "GRED", "LDLK"};
  const std::string_view base = base_mnemonic(opcode);
  if (is_one_of(base, kShared)) return MemorySpace::Shared;
  if (is_one_of(base, kLocal)) return MemorySpace::Local;
  if (base == "LDC") return MemorySpace::Constant;
  if (is_one_of(base, kGlobal)) return MemorySpace::Global;
  return MemorySpace::None;
}

InstClass classify_opcode(std::string_view opcode, bool has_destination) {
  // sm_1x: GLD/GST global, LLD/LST local, G2R/R2G shared memory.
  static constexpr std::array<std::string_view, 20> kLoads = {
      "LD",  "LDG", "LDS",  "LDL", "LDC", "LDU",  "LDSLK", "LDLK", "LDSM", "LDGSTS",
      "TEX", "TLD", "TLD4", "TXD", "TXQ", "SULD", "GLD",   "LLD",  "G2R",  "LD_LDU"};
  // Atomics return the old value when they have a destination; reductions do not.
  static constexpr std::array<std::string_view, 8> kAtomics = {"ATOM", "ATOMG", "ATOMS", "SUATOM",
                                                               "RED",  "SURED", "GATOM", "GRED"};
  static constexpr std::array<std::string_view, 10> kStores = {
      "ST", "STG", "STS", "STL", "STSCUL", "STUL", "SUST", "GST", "LST", "R2G"};
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
  // RRO is the range reduction that feeds MUFU on Kepler-Pascal, on the same unit; the
  // sm_1x transcendentals are separate mnemonics.
  static constexpr std::array<std::string_view, 9> kSfu = {"MUFU",  "RRO", "RCP", "RCP32", "RSQ",
                                                           "RSQ32", "EX2", "LG2", "SIN"};
  if (is_one_of(base, kSfu) || base == "COS") return InstClass::Sfu;
  return InstClass::Alu;
}

namespace {

/// True when a condition test holds where the last comparison or result did (NE, SIGN,
/// LT, ...); false for its complement (EQ, NOT_SIGN, GE, ...). Each test and its
/// complement take the two polarities, so complementary guards see complementary lanes.
bool positive_test(std::string_view test) {
  static constexpr std::array<std::string_view, 12> kPositive = {
      "NE", "NEU", "LT", "LTU", "LE", "LEU", "SIGN", "CARRY", "OFL", "NAN", "NOT_ZERO", "LO"};
  return is_one_of(test, kPositive);
}

/// Decodes one instruction's syntax tree into registers and flags (docs/kernel-ir.md).
class SassDecoder {
 public:
  SassDecoder(const SassInstruction& syntax, SassDialect dialect, StaticInst& inst)
      : syn_(syntax), dialect_(dialect), inst_(inst) {}

  void run() {
    decode_guard();
    const std::string_view opcode = inst_.opcode;
    const std::string_view base = base_mnemonic(opcode);
    // Provisional: an atomic is taken to return a value until its operands say otherwise.
    inst_.cls = classify_opcode(opcode, true);
    choose_widths(opcode, base);
    if (dialect_ == SassDialect::Tesla) {
      // ISET.S32.C0, IADD.C1: the result's flags go to a condition register.
      for (std::string_view mod : modifiers(opcode))
        if (mod.size() == 2 && mod[0] == 'C' && mod[1] >= '0' && mod[1] <= '3')
          add_predicate(inst_.pred_dst, mod[1] - '0');
    }
    size_t next = decode_destinations(base);
    for (; next < syn_.operands.size(); ++next) decode_source(syn_.operands[next]);
    inst_.cls = classify_opcode(opcode, !inst_.dst.empty());
    if (inst_.cls == InstClass::Load || inst_.cls == InstClass::Store) {
      inst_.space = memory_space_of(opcode);
      inst_.access_bytes = memory_access_bytes(opcode);
    }
  }

 private:
  [[noreturn]] static void fail(const SassOperand& op, const std::string& why) {
    throw SassSyntaxError(op.column, "operand '" + op.text + "': " + why);
  }

  void decode_guard() {
    const SassGuard& guard = syn_.guard;
    if (!guard.present) return;
    const SassRegister& reg = guard.reg;
    if (reg.kind == SassRegisterKind::PredicateTrue) {
      inst_.guard_negated = guard.negated;  // @!PT never runs; @PT always does
      return;
    }
    if (reg.kind == SassRegisterKind::Predicate) {
      if (dialect_ == SassDialect::Tesla)
        throw SassSyntaxError(guard.column, "predicate guard in sm_1x code");
      inst_.guard_pred = static_cast<int8_t>(reg.number);
      inst_.guard_negated = guard.negated;
      return;
    }
    // A condition register and its test.
    if (guard.test == "T" || guard.test == "TR") return;  // always true
    if (guard.test == "F" || guard.test == "FL") {
      inst_.guard_negated = true;  // never true, as @!PT
      return;
    }
    if (dialect_ != SassDialect::Tesla || reg.number < 0)
      throw SassSyntaxError(guard.column, "condition test '" + reg.name + "." + guard.test +
                                              "' is modelled only on sm_1x registers C0..C3");
    inst_.guard_pred = static_cast<int8_t>(reg.number);
    inst_.guard_negated = !positive_test(guard.test);
  }

  void choose_widths(std::string_view opcode, std::string_view base) {
    const bool double_op = base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DMNMX" ||
                           base == "DSETP" || base == "DSET";
    const bool conversion = base == "F2F" || base == "F2I" || base == "I2F" || base == "I2I";
    if (double_op) {
      dst_width_ = base == "DSET" ? 1 : 2;
      src_width_ = 2;
    } else if (conversion) {
      std::tie(dst_width_, src_width_) = conversion_widths(opcode);
    } else if (is_memory_op(base)) {
      dst_width_ = src_width_ = memory_data_width(opcode);
    }
    address_width_ = has_modifier(opcode, "E") ? 2 : 1;
  }

  /// Writes the leading operands the instruction defines; returns the first source.
  size_t decode_destinations(std::string_view base) {
    const std::vector<SassOperand>& ops = syn_.operands;
    size_t next = 0;
    if (base == "VOTE") {  // VOTE.op Rd, Pd, Ps
      if (next < ops.size() && is_general(ops[next])) add_general(inst_.dst, ops[next++], 1);
      if (next < ops.size() && is_flag(ops[next])) add_flag(inst_.pred_dst, ops[next++]);
      return next;
    }
    if (base == "LD_LDU") {  // LD_LDU.E.E.32.32 Rd1, Rd2, [a1], [a2]: two loads at once
      while (next < 2 && next < ops.size() && is_general(ops[next]))
        add_general(inst_.dst, ops[next++], 1);
      return next;
    }
    const bool setp = base == "ISETP" || base == "FSETP" || base == "DSETP" || base == "PSETP" ||
                      base == "HSETP2";
    // Leading predicates (or sm_1x condition registers) are written: ISETP P0, PT /
    // SHFL PT, R6 / LDSLK P0, R5 / R2C C0, R13.
    const size_t max_flags = setp ? 2 : 1;
    while (next < ops.size() && next < max_flags && is_flag(ops[next]))
      add_flag(inst_.pred_dst, ops[next++]);
    if (setp || writes_no_register(base, inst_.cls) || next >= ops.size()) return next;
    const SassOperand& op = ops[next];
    if (is_general(op)) {
      add_general(inst_.dst, op, dst_width_);
      // A 16-bit write keeps the other half: the register is read and written.
      if (op.reg.half != SassHalf::Whole) add_general(inst_.src, op, 1);
      return next + 1;
    }
    const bool address_register =
        op.kind == SassOperandKind::Register && op.reg.kind == SassRegisterKind::Address;
    const bool discarded = op.kind == SassOperandKind::Memory && op.space == SassSpace::Discard;
    return address_register || discarded ? next + 1 : next;  // R2A A1, .. / ISET o [0x7f], ..
  }

  void decode_source(const SassOperand& op) {
    switch (op.kind) {
      case SassOperandKind::Register:
        if (is_general(op)) {
          add_general(inst_.src, op, src_width_);
        } else if (is_flag(op)) {
          add_flag(inst_.pred_src, op);
        }
        break;  // address, special and uniform registers are not in the register file
      case SassOperandKind::Memory:
        if (op.space == SassSpace::Discard) fail(op, "o [..] is only a destination");
        for (const SassRegister& reg : op.address)
          if (reg.kind == SassRegisterKind::General)
            add_register_words(inst_.src, general_number(reg),
                               op.space == SassSpace::Constant ? 1 : address_width_);
        break;
      case SassOperandKind::Immediate:
      case SassOperandKind::Label:
      case SassOperandKind::Word:
        break;
    }
  }

  static bool is_general(const SassOperand& op) {
    return op.kind == SassOperandKind::Register &&
           (op.reg.kind == SassRegisterKind::General || op.reg.kind == SassRegisterKind::Zero);
  }

  bool is_flag(const SassOperand& op) const {
    if (op.kind != SassOperandKind::Register) return false;
    if (op.reg.kind == SassRegisterKind::Predicate ||
        op.reg.kind == SassRegisterKind::PredicateTrue)
      return true;
    return op.reg.kind == SassRegisterKind::Condition && op.reg.number >= 0;  // not Fermi's CC
  }

  /// The register number, or kZeroRegister for RZ and (sm_1x) R124.
  int general_number(const SassRegister& reg) const {
    if (reg.kind == SassRegisterKind::Zero) return kZeroRegister;
    if (dialect_ == SassDialect::Tesla && reg.number == kTeslaZeroRegister) return kZeroRegister;
    return reg.number;
  }

  void add_general(std::vector<uint16_t>& out, const SassOperand& op, unsigned width) {
    add_register_words(out, general_number(op.reg), op.reg.half == SassHalf::Whole ? width : 1);
  }

  void add_register_words(std::vector<uint16_t>& out, int first, unsigned width) {
    add_registers(out, first, width);
  }

  void add_flag(std::vector<uint8_t>& out, const SassOperand& op) {
    const SassRegister& reg = op.reg;
    if (reg.kind == SassRegisterKind::PredicateTrue) return;
    if (reg.kind == SassRegisterKind::Predicate && dialect_ == SassDialect::Tesla)
      fail(op, "predicate register in sm_1x code");
    if (reg.kind == SassRegisterKind::Condition && dialect_ != SassDialect::Tesla)
      fail(op, "condition register C" + std::to_string(reg.number) + " outside sm_1x code");
    add_predicate(out, reg.number);
  }

  static constexpr int kTeslaZeroRegister = 124;

  const SassInstruction& syn_;
  SassDialect dialect_;
  StaticInst& inst_;
  unsigned dst_width_ = 1;
  unsigned src_width_ = 1;
  unsigned address_width_ = 1;
};

}  // namespace

StaticInst parse_sass(std::string_view text, uint64_t pc, SassDialect dialect) {
  const SassInstruction syntax = parse_sass_syntax(text);
  StaticInst inst;
  inst.pc = pc;
  inst.opcode = syntax.opcode;
  inst.target = syntax.target;
  inst.text = syntax.text;
  if (inst.target.empty() && !syntax.operands.empty() &&
      syntax.operands.front().kind == SassOperandKind::Label) {
    const std::string& label = syntax.operands.front().text;  // `(.L_1)
    inst.target = label.substr(2, label.size() - 3);
  }
  SassDecoder(syntax, dialect, inst).run();
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

#pragma once
// Static kernel IR: a kernel's SASS as basic blocks of decoded instructions, the
// input of the register-file compiler passes (liveness, release flags, intervals).
// Plain C++; see docs/kernel-ir.md for what the decoder infers and what it does not.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/inst.h"

namespace warpreg {

/// One static SASS instruction with its architected operands.
struct StaticInst {
  uint64_t pc = 0;
  std::string opcode;  ///< full mnemonic with modifiers, e.g. "ISETP.GE.AND"
  InstClass cls = InstClass::Alu;
  std::vector<uint16_t> dst;      ///< general registers written, R0..R254 (RZ dropped)
  std::vector<uint16_t> src;      ///< general registers read, in operand order, no duplicates
  std::vector<uint8_t> pred_dst;  ///< predicates written, P0..P6 (PT dropped)
  std::vector<uint8_t> pred_src;  ///< predicates read as operands (the guard is separate)
  int8_t guard_pred = -1;         ///< the @P guard, -1 if none (or @PT)
  bool guard_negated = false;     ///< @!P
  /// Branch/call target label ("BRA `(.L_1)" -> ".L_1"), or the TARGET= annotation
  /// nvdisasm prints on Fermi ".S" sync instructions; empty otherwise.
  std::string target;
  std::string text;  ///< the SASS as printed, without the trailing ';'
};

/// Decodes one SASS instruction ("@!P0 IADD R4.CC, R6, c[0x0][0x150]"). Throws
/// std::invalid_argument naming the bad operand; callers add the file and line.
StaticInst parse_sass(std::string_view text, uint64_t pc);

/// The instruction class of a mnemonic, decided by its base (before the first '.'),
/// shared by every importer. `has_destination` splits atomics into loads (they return
/// a value) and reductions (stores). Table in docs/kernel-ir.md.
InstClass classify_opcode(std::string_view opcode, bool has_destination);

/// True unless `inst` always transfers control (unguarded BRA/JMP/RET/EXIT/BRK/CONT,
/// or an unguarded ".S" sync with a TARGET).
bool may_fall_through(const StaticInst& inst);

struct BasicBlock {
  uint32_t id = 0;
  std::string name;
  std::vector<StaticInst> insts;
  std::vector<uint32_t> succ;  ///< distinct successor ids
  std::vector<uint32_t> pred;  ///< distinct predecessor ids
};

struct Kernel {
  std::string name;
  std::vector<BasicBlock> blocks;  ///< in layout (address) order; blocks[i].id == i
  uint32_t entry = 0;

  /// 1 + the highest general register named anywhere, 0 if none.
  uint32_t regs_used() const;
  size_t instruction_count() const;
  size_t edge_count() const;
  /// Adds the edge from -> to (both directions of the adjacency) unless present.
  void add_edge(uint32_t from, uint32_t to);
};

/// ipdom sentinels: the post-dominator is the virtual exit joining all exit blocks, or
/// the block never reaches an exit (an infinite loop such as nvdisasm's trailing
/// "BRA self" padding), so it has no post-dominator.
constexpr uint32_t kVirtualExit = 0xFFFFFFFFu;
constexpr uint32_t kNoPostDominator = 0xFFFFFFFEu;

/// Per block, its immediate post-dominator (Cooper-Harvey-Kennedy on the reverse CFG).
std::vector<uint32_t> compute_immediate_post_dominators(const Kernel& kernel);

/// Where the threads of a block ending in a divergent branch (two or more successors)
/// meet again: its ipdom. kNoPostDominator for a block with fewer than two successors.
uint32_t reconvergence_point(const Kernel& kernel, uint32_t block);

}  // namespace warpreg

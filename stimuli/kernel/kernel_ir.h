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
  std::vector<uint16_t> dst;  ///< general registers written, R0..R254 (RZ dropped)
  std::vector<uint16_t> src;  ///< general registers read, in operand order, no duplicates
  /// Flags written: predicates P0..P6 (PT dropped), or sm_1x condition registers C0..C3.
  std::vector<uint8_t> pred_dst;
  std::vector<uint8_t> pred_src;  ///< flags read as operands (the guard is separate)
  /// The guard: @P, or an sm_1x condition test ((C0.NE), BRA C1.EQU); -1 if none (or @PT).
  int8_t guard_pred = -1;
  bool guard_negated = false;  ///< @!P, or a complement test (EQ, EQU, NOT_SIGN, GE ...)
  /// Branch/call target label ("BRA `(.L_1)" -> ".L_1"), or the TARGET= annotation
  /// nvdisasm prints on Fermi ".S" sync instructions; empty otherwise.
  std::string target;
  std::string text;  ///< the SASS as printed, without the trailing ';'
  /// Loads and stores: the space the opcode names (None for generic LD/ST, whose space
  /// is the address's) and the bytes each lane moves.
  MemorySpace space = MemorySpace::None;
  uint8_t access_bytes = 4;
};

/// Which SASS a text is. sm_1x (Tesla) reads R124 as zero and numbers its condition
/// registers C0..C3 as flags 0..3 (guard_pred, pred_dst, pred_src); sm_20 and later
/// (cuobjdump sm_20, nvdisasm) have predicates P0..P6 instead. docs/kernel-ir.md.
enum class SassDialect : uint8_t { Tesla, Fermi };

/// Decodes one SASS instruction ("@!P0 IADD R4.CC, R6, c[0x0][0x150]") through the one
/// grammar of stimuli/kernel/sass_grammar.h. Throws SassSyntaxError (a
/// std::invalid_argument) with the column of the bad operand; callers add file and line.
StaticInst parse_sass(std::string_view text, uint64_t pc, SassDialect dialect = SassDialect::Fermi);

/// The memory space a load or store mnemonic names (GLD global, LDS shared, LDL local,
/// LDC constant ...), None for generic LD/ST and non-memory mnemonics. Table in
/// docs/kernel-ir.md.
MemorySpace memory_space_of(std::string_view opcode);

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
  std::string arch;                ///< "sm_10", "sm_20" ... when the listing says; "" otherwise
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

#pragma once
// RFV release-flag pass (GPU register file virtualization, MICRO'15 §6): marks, per
// instruction, the source operands whose register can be released after the read
// (`pir` metadata), and the registers released at reconvergence points (`pbr`).
// Plain C++; the rule and encodings are in docs/pass-release-flags.md.
//
// The rule, on top of the conservative liveness (stimuli/compiler/liveness.h):
//  - Flag bit k of an instruction is set when its source k (k < 3, source order) is
//    not in live_after and not also a destination of the instruction. The liveness
//    already holds every register a pending divergent path or a later loop iteration
//    may read, so such a register is never flagged inside the region.
//  - pbr: at every reconvergence point R of a divergent branch, the registers live out
//    of some predecessor of R but not live into R (they die on an edge into R, i.e.
//    exactly at the end of a divergent region) are released at R's start.
//  - A fourth or later source that dies is not flagged (three bits per instruction,
//    as in the paper); it is counted in `unflaggable_deaths` and stays allocated until
//    it is written again or the warp exits. Deaths on edges of a branch with no
//    post-dominator (nvdisasm's "BRA self" padding) are not released either.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "designs/rfv/rfv_program.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// Reserved 10-bit opcodes of the two metadata instructions (top bits 63..54).
constexpr uint16_t kPirOpcode = 0x3FF;
constexpr uint16_t kPbrOpcode = 0x3FE;
constexpr size_t kPirSpan = 18;          ///< instructions covered by one pir
constexpr size_t kPbrSlots = 9;          ///< register ids per pbr
constexpr uint8_t kPbrEmptySlot = 0x3F;  ///< R63 is RZ on Fermi: never a storage register
/// pir: opcode in bits 63..54, flags of covered instruction j in bits 3j+2..3j, bit
/// 3j+k = source k. Throws std::invalid_argument if a flag exceeds 3 bits.
uint64_t encode_pir(const std::array<uint8_t, kPirSpan>& flags);
/// Throws std::invalid_argument if the opcode is not kPirOpcode.
std::array<uint8_t, kPirSpan> decode_pir(uint64_t word);

/// pbr: opcode in bits 63..54, register id of slot s in bits 6s+5..6s, unused slots
/// kPbrEmptySlot. Throws std::invalid_argument naming the register for more than nine
/// registers or an id that 6 bits cannot name (R63 and up).
uint64_t encode_pbr(const std::vector<uint16_t>& regs);
/// The registers of the non-empty slots, in slot order. Throws std::invalid_argument if
/// the opcode is not kPbrOpcode.
std::vector<uint16_t> decode_pbr(uint64_t word);

struct PirInst {
  uint32_t block = 0;
  uint32_t first_inst = 0;  ///< index in the block of the first covered instruction
  uint32_t covered = 0;     ///< 1..18
  uint64_t encoded = 0;
};

struct PbrInst {
  uint32_t block = 0;          ///< the reconvergence block it starts
  std::vector<uint16_t> regs;  ///< ascending, at most nine
  uint64_t encoded = 0;
};

struct ReleaseFlags {
  /// Per block, per instruction: bit k = release source k after the read.
  std::vector<std::vector<uint8_t>> flags;
  /// Per block: the registers the block's pbrs release at its start.
  std::vector<RegisterSet> released_at_entry;
  std::vector<PirInst> pir;       ///< in block, then instruction, order
  std::vector<PbrInst> pbr;       ///< in block order, before the block's first pir
  size_t instructions = 0;        ///< original instructions
  size_t flagged_operands = 0;    ///< set flag bits
  size_t pbr_registers = 0;       ///< register ids named by all pbrs
  size_t unflaggable_deaths = 0;  ///< dying sources beyond slot 2
  size_t empty_pir = 0;           ///< pirs whose flags are all zero

  /// (pir + pbr) / original instructions; 0 for an empty kernel.
  double static_code_increase() const;
};

/// The release flags of `kernel` from its liveness (compute_liveness(kernel)).
/// Throws std::invalid_argument naming a register a pbr would have to name but cannot.
ReleaseFlags compute_release_flags(const Kernel& kernel, const Liveness& liveness);
ReleaseFlags compute_release_flags(const Kernel& kernel);

}  // namespace warpreg

#include "designs/rfv/compiler/release_flags.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace warpreg {

namespace {

constexpr int kOpcodeShift = 54;
constexpr uint64_t kPayloadMask = (uint64_t{1} << kOpcodeShift) - 1;
constexpr uint8_t kRegisterLimit = kPbrEmptySlot;  // ids 0..62 fit beside the sentinel

uint16_t opcode_of(uint64_t word) { return static_cast<uint16_t>(word >> kOpcodeShift); }

}  // namespace

uint64_t encode_pir(const std::array<uint8_t, kPirSpan>& flags) {
  uint64_t word = uint64_t{kPirOpcode} << kOpcodeShift;
  for (size_t j = 0; j < kPirSpan; ++j) {
    if (flags[j] > 7)
      throw std::invalid_argument("pir flag of instruction " + std::to_string(j) +
                                  " exceeds 3 bits: " + std::to_string(flags[j]));
    word |= uint64_t{flags[j]} << (kFlagsPerInst * j);
  }
  return word;
}

std::array<uint8_t, kPirSpan> decode_pir(uint64_t word) {
  if (opcode_of(word) != kPirOpcode)
    throw std::invalid_argument("not a pir: opcode " + std::to_string(opcode_of(word)));
  std::array<uint8_t, kPirSpan> flags{};
  for (size_t j = 0; j < kPirSpan; ++j)
    flags[j] = static_cast<uint8_t>((word >> (kFlagsPerInst * j)) & 7u);
  return flags;
}

uint64_t encode_pbr(const std::vector<uint16_t>& regs) {
  if (regs.size() > kPbrSlots)
    throw std::invalid_argument("pbr holds at most 9 registers, got " +
                                std::to_string(regs.size()));
  uint64_t word = uint64_t{kPbrOpcode} << kOpcodeShift;
  for (size_t s = 0; s < kPbrSlots; ++s) {
    uint64_t id = kPbrEmptySlot;
    if (s < regs.size()) {
      if (regs[s] >= kRegisterLimit)
        throw std::invalid_argument("pbr cannot name register R" + std::to_string(regs[s]) +
                                    ": 6-bit ids reach R62 (R63 marks an empty slot)");
      id = regs[s];
    }
    word |= id << (6 * s);
  }
  return word;
}

std::vector<uint16_t> decode_pbr(uint64_t word) {
  if (opcode_of(word) != kPbrOpcode)
    throw std::invalid_argument("not a pbr: opcode " + std::to_string(opcode_of(word)));
  std::vector<uint16_t> regs;
  for (size_t s = 0; s < kPbrSlots; ++s) {
    const auto id = static_cast<uint16_t>((word >> (6 * s)) & 0x3Fu);
    if (id != kPbrEmptySlot) regs.push_back(id);
  }
  return regs;
}

double ReleaseFlags::static_code_increase() const {
  if (instructions == 0) return 0.0;
  return static_cast<double>(pir.size() + pbr.size()) / static_cast<double>(instructions);
}

ReleaseFlags compute_release_flags(const Kernel& kernel, const Liveness& liveness) {
  const size_t n = kernel.blocks.size();
  if (liveness.live_after.size() != n || liveness.live_in_block.size() != n)
    throw std::invalid_argument("liveness does not match kernel " + kernel.name);
  ReleaseFlags rf;
  rf.flags.resize(n);
  rf.released_at_entry.resize(n);

  // Reconvergence blocks: only there are all lanes that took either side back, so a
  // register dead on entry is dead for the whole warp (pending outer paths are covered
  // by the liveness holding their registers through the outer region).
  const std::vector<uint32_t> ipdom = compute_immediate_post_dominators(kernel);
  std::vector<bool> reconverges(n, false);
  for (uint32_t b = 0; b < n; ++b)
    if (kernel.blocks[b].succ.size() >= 2 && ipdom[b] < n) reconverges[ipdom[b]] = true;

  for (uint32_t b = 0; b < n; ++b) {
    const BasicBlock& block = kernel.blocks[b];
    if (reconverges[b]) {
      RegisterSet dying;
      for (uint32_t p : block.pred) dying |= liveness.live_out_block[p];
      dying &= ~liveness.live_in_block[b];
      rf.released_at_entry[b] = dying;
      std::vector<uint16_t> regs;
      for (size_t r = 0; r < dying.size(); ++r)
        if (dying.test(r)) regs.push_back(static_cast<uint16_t>(r));
      rf.pbr_registers += regs.size();
      for (size_t s = 0; s < regs.size(); s += kPbrSlots) {
        PbrInst pbr;
        pbr.block = b;
        pbr.regs.assign(
            regs.begin() + static_cast<std::ptrdiff_t>(s),
            regs.begin() + static_cast<std::ptrdiff_t>(std::min(s + kPbrSlots, regs.size())));
        pbr.encoded = encode_pbr(pbr.regs);
        rf.pbr.push_back(std::move(pbr));
      }
    }

    std::vector<uint8_t>& flags = rf.flags[b];
    flags.assign(block.insts.size(), 0);
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const StaticInst& inst = block.insts[i];
      const RegisterSet& after = liveness.live_after[b][i];
      for (size_t k = 0; k < inst.src.size(); ++k) {
        const uint16_t r = inst.src[k];
        const bool written = std::find(inst.dst.begin(), inst.dst.end(), r) != inst.dst.end();
        if (r >= after.size() || after.test(r) || written) continue;
        if (k < kFlagsPerInst) {
          flags[i] = static_cast<uint8_t>(flags[i] | (1u << k));
          ++rf.flagged_operands;
        } else {
          ++rf.unflaggable_deaths;
        }
      }
    }
    rf.instructions += block.insts.size();

    for (size_t first = 0; first < block.insts.size(); first += kPirSpan) {
      std::array<uint8_t, kPirSpan> window{};
      const size_t covered = std::min(kPirSpan, block.insts.size() - first);
      std::copy_n(flags.begin() + static_cast<std::ptrdiff_t>(first), covered, window.begin());
      PirInst pir;
      pir.block = b;
      pir.first_inst = static_cast<uint32_t>(first);
      pir.covered = static_cast<uint32_t>(covered);
      pir.encoded = encode_pir(window);
      if ((pir.encoded & kPayloadMask) == 0) ++rf.empty_pir;
      rf.pir.push_back(pir);
    }
  }
  return rf;
}

ReleaseFlags compute_release_flags(const Kernel& kernel) {
  return compute_release_flags(kernel, compute_liveness(kernel));
}

}  // namespace warpreg

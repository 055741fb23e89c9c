#pragma once
// One dynamic warp instruction as the driver hands it to the SM.
#include <array>
#include <cstdint>
#include <string_view>

#include "common/warp_register.h"

namespace warpreg {

/// Instruction class: picks the collector type, the execution unit and the latency.
enum class InstClass : uint8_t { Alu, Sfu, Load, Store, Branch, Barrier, Exit };
constexpr unsigned kInstClassCount = 7;

std::string_view to_string(InstClass c);
/// Parses "alu", "sfu", "load", "store", "branch", "barrier", "exit"; false if unknown.
bool parse_inst_class(std::string_view text, InstClass& out);

constexpr unsigned kMaxDst = 4;  // a 128-bit load writes four registers
constexpr unsigned kMaxSrc = 4;
/// Architected register ids run 0..254; 255 is the zero register (RZ, never stored).
constexpr uint16_t kZeroRegister = 255;
constexpr unsigned kMaxArchRegisters = 255;
/// WarpInst::local_word of an instruction that is not a spill or fill.
constexpr uint16_t kNoLocalWord = 0xffff;

struct WarpInst {
  uint64_t pc = 0;
  LaneMask active = kFullMask;
  InstClass cls = InstClass::Alu;
  uint8_t num_dst = 0;
  uint8_t num_src = 0;
  std::array<uint16_t, kMaxDst> dst{};
  std::array<uint16_t, kMaxSrc> src{};
  /// Index into WarpStream::values of the value of dst[0]; dst[k] is at value_index + k.
  uint32_t value_index = 0;
  /// A spill store or fill load (compiler spill code): the thread's local-memory word it
  /// accesses (a warp's 32 words are one 128-byte line); kNoLocalWord otherwise.
  uint16_t local_word = kNoLocalWord;

  /// A destination register (not RZ) named twice, or kZeroRegister when there is none.
  uint16_t repeated_destination() const {
    for (unsigned i = 0; i < num_dst; ++i)
      for (unsigned j = i + 1; j < num_dst; ++j)
        if (dst[i] == dst[j] && dst[i] != kZeroRegister) return dst[i];
    return kZeroRegister;
  }
};

}  // namespace warpreg

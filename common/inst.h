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

/// The memory space a load or store addresses (docs/memory.md, "Address models").
enum class MemorySpace : uint8_t { None, Global, Local, Shared, Constant };

/// What a memory instruction tells the memory system besides its PC, packed into one
/// byte (WarpInst::mem). Absent (space None) for other instructions and for streams
/// that know nothing about memory (text traces, the synthetic generator): the SM then
/// treats a load or store as a coalesced 4-byte global access.
struct MemOperand {
  uint8_t bits = 0;

  MemorySpace space() const { return static_cast<MemorySpace>(bits & 7u); }
  /// Bytes each lane accesses: 1, 2, 4, 8 or 16.
  uint32_t access_bytes() const { return 1u << ((bits >> 3) & 7u); }
  /// A read-modify-write performed at the L2 (ATOM, RED).
  bool atomic() const { return (bits & 0x40u) != 0; }
  /// The instruction carries its lanes' addresses (an Accel-Sim trace): two values after
  /// the destinations' (WarpInst::value_index + num_dst holds the low 32 bits of each
  /// lane's address, the next one the high 32 bits).
  bool traced() const { return (bits & 0x80u) != 0; }

  /// `access_bytes` must be a power of two up to 16.
  static MemOperand make(MemorySpace space, uint32_t access_bytes, bool atomic = false,
                         bool traced = false) {
    uint32_t log2 = 0;
    while ((1u << log2) < access_bytes && log2 < 4) ++log2;
    return MemOperand{static_cast<uint8_t>(static_cast<unsigned>(space) | (log2 << 3) |
                                           (atomic ? 0x40u : 0u) | (traced ? 0x80u : 0u))};
  }
};

/// "global", "local", "shared", "constant" ("none" for MemorySpace::None).
std::string_view to_string(MemorySpace space);

struct WarpInst {
  uint64_t pc = 0;
  LaneMask active = kFullMask;
  InstClass cls = InstClass::Alu;
  uint8_t num_dst = 0;
  uint8_t num_src = 0;
  MemOperand mem;  ///< loads and stores: space, access size, atomic, traced addresses
  std::array<uint16_t, kMaxDst> dst{};
  std::array<uint16_t, kMaxSrc> src{};
  /// Index into WarpStream::values of the value of dst[0]; dst[k] is at value_index + k.
  uint32_t value_index = 0;
  /// A spill store or fill load (compiler spill code): the thread's local-memory word it
  /// accesses (a warp's 32 words are one 128-byte line); kNoLocalWord otherwise.
  uint16_t local_word = kNoLocalWord;
  /// Loads and stores whose addresses a model generates: which execution of this PC by
  /// this warp it is (0 for the first), so that addresses do not depend on the order in
  /// which warps run. Local space: the word of the thread's local frame it accesses.
  uint32_t mem_tag = 0;

  /// Values the stream holds for this instruction from value_index: its destinations'
  /// and, for a traced memory instruction, the low and high halves of its lanes' addresses.
  unsigned value_count() const { return num_dst + (mem.traced() ? 2u : 0u); }

  /// A destination register (not RZ) named twice, or kZeroRegister when there is none.
  uint16_t repeated_destination() const {
    for (unsigned i = 0; i < num_dst; ++i)
      for (unsigned j = i + 1; j < num_dst; ++j)
        if (dst[i] == dst[j] && dst[i] != kZeroRegister) return dst[i];
    return kZeroRegister;
  }
};

}  // namespace warpreg

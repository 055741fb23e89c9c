#pragma once
// The memory requests one warp instruction issues: GPGPU-Sim's Fermi coalescing rule
// (warp_inst_t::memory_coalescing_arch for -gpgpu_coalesce_arch 20, one warp part):
//  * global and local: each active lane's access falls into a segment of 32 bytes
//    (1-byte accesses), 64 bytes (2-byte) or 128 bytes (4, 8, 16-byte); a segment the
//    warp touches is one request, which shrinks to its used 64-byte half and then to its
//    used 32-byte quarter (memory_coalescing_arch_reduce_and_send). A lane whose access
//    crosses a segment adds the next segment. Local accesses wider than 4 bytes are split
//    into 4-byte words first. With L1 bypass (ld.cg or -gpgpu_gmem_skip_L1D) every
//    segment is 32 bytes;
//  * atomics: as global, but lanes writing the same bytes of a segment go in separate
//    requests (memory_coalescing_arch_atomic);
//  * constant: one request per constant-cache line touched;
//  * shared: no memory request; the access takes as many passes as the most-conflicted
//    bank has distinct words (32 banks of 4-byte words, -gpgpu_shmem_limited_broadcast 0).
// Requests come out in increasing address order, as GPGPU-Sim's std::map yields them.
#include <array>
#include <cstdint>
#include <string_view>

#include "modules/memory/mem_request.h"

namespace warpreg::memory {

struct CoalescerConfig {
  uint32_t constant_line_bytes = 64;  ///< -gpgpu_const_cache:l1 N:64:64:2 (64-byte lines)
  uint32_t shared_banks = 32;         ///< -gpgpu_shmem_num_banks 32
  uint32_t shared_bank_bytes = 4;     ///< GPGPU-Sim WORD_SIZE
  bool skip_l1 = false;               ///< -gpgpu_gmem_skip_L1D 0
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;
};

/// One warp's memory instruction: per-lane byte addresses and what it does.
struct WarpAccess {
  std::array<uint64_t, kWarpSize> address{};
  LaneMask active = kFullMask;
  uint32_t bytes = 4;  ///< per lane: 1, 2, 4, 8 or 16
  MemSpace space = MemSpace::Global;
  MemKind kind = MemKind::Load;  ///< Load, Store or Atomic
  bool bypass_l1 = false;        ///< ld.cg: 32-byte segments
  /// Local accesses wider than 4 bytes: a lane's j-th word is at address + j x this
  /// (GPGPU-Sim's translate_local_memaddr interleaves words of all threads); 0 = unsplit.
  uint64_t local_word_stride = 0;
};

/// One request to the memory system.
struct LineRequest {
  uint64_t address = 0;  ///< first byte (segment-aligned)
  uint32_t bytes = 0;    ///< 32, 64 or 128 (constant: the constant line)
  uint8_t sectors = 0;   ///< 32-byte chunks of the 128-byte block touched
  LaneMask lanes = 0;    ///< lanes served
  ByteMask byte_mask;    ///< bytes of the 128-byte block the lanes access
};

struct CoalescedAccess {
  static constexpr uint32_t kCapacity = 256;  ///< 32 lanes x 4 words x 2 segments
  std::array<LineRequest, kCapacity> requests;
  uint32_t count = 0;
  uint32_t shared_passes = 0;  ///< shared space: bank-conflict passes (0 for other spaces)

  const LineRequest* begin() const { return requests.data(); }
  const LineRequest* end() const { return requests.data() + count; }
};

class Coalescer {
 public:
  explicit Coalescer(const CoalescerConfig& config = {}, std::string_view name = "coalescer");

  /// Fills `out` (reused: nothing is allocated). Throws std::invalid_argument for an access
  /// size other than 1, 2, 4, 8 or 16 bytes, or a store to constant memory.
  void coalesce(const WarpAccess& access, CoalescedAccess& out) const;

 private:
  void coalesce_segments(const WarpAccess& access, CoalescedAccess& out) const;
  void coalesce_lines(const WarpAccess& access, uint32_t line_bytes, CoalescedAccess& out) const;
  uint32_t shared_passes(const WarpAccess& access) const;

  CoalescerConfig config_;
};

}  // namespace warpreg::memory

#pragma once
// The memory-request protocol: a tlm_generic_payload plus one MemRequest extension.
// The payload's address is the first byte of the request and its data length the bytes
// it covers (one coalesced segment: 32, 64 or 128 bytes, never crossing a line); READ
// for loads and atomics, WRITE for stores and write-backs. The extension adds what TLM
// has no field for. The memory system is timing-only: no target reads or writes the
// data pointer (load values come from the workload, as register values do).
#include <cstdint>
#include <string_view>
#include <systemc>
#include <tlm>

#include "common/bits.h"
#include "common/inst.h"
#include "common/warp_register.h"
#include "modules/interfaces/tlm_refusal.h"

namespace warpreg::memory {

enum class MemKind : uint8_t {
  Load,       ///< read of global, local or constant memory
  Store,      ///< write of global or local memory (the bytes in `byte_mask`)
  Atomic,     ///< read-modify-write, performed at the L2 (the L1 passes it on)
  Writeback,  ///< a dirty line a cache evicts (whole line)
};

enum class MemSpace : uint8_t { Global, Local, Constant, Shared };
constexpr unsigned kMemSpaceCount = 4;

/// The memory system's space of an instruction's (common/inst.h); an instruction that
/// declares none (generic LD/ST, profiles) is a global access.
constexpr MemSpace mem_space_of(MemorySpace space) {
  switch (space) {
    case MemorySpace::Local:
      return MemSpace::Local;
    case MemorySpace::Shared:
      return MemSpace::Shared;
    case MemorySpace::Constant:
      return MemSpace::Constant;
    case MemorySpace::Global:
    case MemorySpace::None:
      break;
  }
  return MemSpace::Global;
}
/// The instruction's space of a memory-system space.
constexpr MemorySpace inst_space_of(MemSpace space) {
  switch (space) {
    case MemSpace::Local:
      return MemorySpace::Local;
    case MemSpace::Shared:
      return MemorySpace::Shared;
    case MemSpace::Constant:
      return MemorySpace::Constant;
    case MemSpace::Global:
      break;
  }
  return MemorySpace::Global;
}

/// Where a request was served (the level whose data or acknowledgement it got).
enum class MemLevel : uint8_t { None, L1, L2, Dram };

std::string_view to_string(MemKind kind);
std::string_view to_string(MemSpace space);
std::string_view to_string(MemLevel level);

/// Bytes of a 128-byte block: bit i of `lo` is byte i, bit i of `hi` byte 64 + i.
struct ByteMask {
  uint64_t lo = 0, hi = 0;

  static ByteMask range(uint32_t first, uint32_t count);  ///< bytes [first, first + count) of 128
  bool empty() const { return (lo | hi) == 0; }
  bool full() const { return lo == ~0ull && hi == ~0ull; }
  bool covers(const ByteMask& o) const { return (o.lo & ~lo) == 0 && (o.hi & ~hi) == 0; }
  uint32_t count() const { return static_cast<uint32_t>(popcount64(lo) + popcount64(hi)); }
  ByteMask& operator|=(const ByteMask& o) {
    lo |= o.lo;
    hi |= o.hi;
    return *this;
  }
  friend bool operator==(const ByteMask& a, const ByteMask& b) {
    return a.lo == b.lo && a.hi == b.hi;
  }
};
constexpr uint32_t kMaxLineBytes = 128;  ///< ByteMask covers one line of at most 128 bytes

class MemRequest : public tlm::tlm_extension<MemRequest> {
 public:
  // Set by the initiator.
  MemKind kind = MemKind::Load;
  MemSpace space = MemSpace::Global;
  uint16_t sm = 0;      ///< requesting SM
  uint16_t warp = 0;    ///< warp slot in that SM
  LaneMask lanes = 0;   ///< lanes the request serves (informational)
  uint8_t sectors = 0;  ///< 32-byte chunks of the 128-byte block touched (GPGPU-Sim's chunk mask)
  bool bypass_l1 = false;  ///< ld.cg-style global load: the L1 passes it on unallocated
  /// Stores: bytes of the 128-byte block the store writes (empty: every byte of the payload).
  ByteMask byte_mask;
  uint64_t id = 0;  ///< initiator's tag, returned unchanged

  // Set by the targets on the way back.
  MemLevel served_by = MemLevel::None;
  /// When the first target accepted the request (after port, MSHR and queue stalls): an
  /// initiator may send its next request from then on.
  sc_core::sc_time accepted = sc_core::SC_ZERO_TIME;

  tlm::tlm_extension_base* clone() const override { return new MemRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemRequest&>(other);
  }
};

/// A payload with its MemRequest attached once and reused for every request: an
/// initiator (an SM's load/store unit, a cache towards the next level) owns one per
/// request it may have in a blocking call; nothing is allocated per access.
class MemTransaction {
 public:
  MemTransaction() { payload_.set_extension(&request_); }
  ~MemTransaction() { payload_.clear_extension(&request_); }
  MemTransaction(const MemTransaction&) = delete;
  MemTransaction& operator=(const MemTransaction&) = delete;

  /// A request of `bytes` at `address`; the extension keeps its other fields, which the
  /// caller sets after this.
  tlm::tlm_generic_payload& prepare(MemKind kind, MemSpace space, uint64_t address, uint32_t bytes);

  MemRequest& request() { return request_; }
  tlm::tlm_generic_payload& payload() { return payload_; }

 private:
  tlm::tlm_generic_payload payload_;
  MemRequest request_;
  unsigned char data_[kMaxLineBytes] = {};  ///< valid storage for the data pointer, never read
};

/// What a target serves. The first problem found decides the response status:
/// no extension -> GENERIC_ERROR; command not READ/WRITE or not matching the kind ->
/// COMMAND_ERROR; byte enables -> BYTE_ENABLE_ERROR; zero length, streaming width
/// below the length or a request crossing a `line_bytes` line -> BURST_ERROR; a space
/// the target does not serve -> ADDRESS_ERROR.
struct RequestRules {
  uint32_t line_bytes = 128;
  uint8_t spaces = 0;  ///< bit per MemSpace the target serves
  bool writes = true;  ///< false: a read-only target (constant cache) refuses stores
};
constexpr uint8_t space_bit(MemSpace s) { return static_cast<uint8_t>(1u << unsigned(s)); }

/// The request's extension, or nullptr with the payload's response status set and a
/// warning naming `block` (modules/interfaces/tlm_refusal.h).
MemRequest* accept_request(tlm::tlm_generic_payload& payload, const RequestRules& rules,
                           const sc_core::sc_object& block);

}  // namespace warpreg::memory

#pragma once
// The TLM-2.0 extension every operand-path transaction carries. Register data
// travels in the generic payload's data pointer as one 128-byte WarpRegister;
// this extension says whose register it is and where it lives.
#include <cstdint>
#include <string_view>
#include <tlm>

#include "common/warp_register.h"

namespace warpreg {

enum class RfAccessKind : uint8_t {
  Read,      ///< operand read into a collector unit
  Write,     ///< writeback of a result (active lanes only)
  Release,   ///< the value is dead: a name-translation stage may free its location
  Acquire,   ///< a warp asks for extra registers (e.g. a shared-pool section)
  Prefetch,  ///< move a register towards the core (e.g. into a register-file cache)
  Wake,      ///< power a register up ahead of an access
  Sleep,     ///< return a register to its low-power state
  Launch,    ///< a warp's registers are allocated (CTA launch)
  Retire,    ///< a warp's registers are freed (warp exit)
};
std::string_view to_string(RfAccessKind kind);

constexpr uint32_t kNoPhysical = 0xffffffffu;
/// The collector of an access no operand collector makes: a register-file cache's fill
/// of, or write-back to, the register file behind it. Stages that act per collector unit
/// (COMA's active-mask table) pass it on unchanged.
constexpr uint16_t kNoCollector = 0xffff;

class RfAccess : public tlm::tlm_extension<RfAccess> {
 public:
  RfAccessKind kind = RfAccessKind::Read;
  uint16_t warp_slot = 0;    ///< hardware warp slot in the SM (0 .. max_warps-1)
  uint16_t cta_slot = 0;     ///< hardware CTA slot in the SM
  uint16_t arch_reg = 0;     ///< architected register id
  uint16_t collector = 0;    ///< operand collector unit id, or kNoCollector
  uint8_t operand_slot = 0;  ///< source operand index within the instruction (reads)
  LaneMask active_mask = kFullMask;
  /// Lanes whose storage a Read touches: only the lane slices holding them are read
  /// (and counted). All lanes by default; a codec narrows it to the slices a
  /// compressed register occupies, an active-mask stage to the active lanes.
  LaneMask read_lanes = kFullMask;
  uint32_t phys_reg = kNoPhysical;  ///< physical warp-register index after name translation
  uint32_t regs_per_warp = 0;       ///< registers the warp holds (Launch / Retire)
  uint64_t pc = 0;

  tlm::tlm_extension_base* clone() const override { return new RfAccess(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const RfAccess&>(other);
  }
};

/// A generic payload with its RfAccess extension attached once and reused for
/// every access: nothing is allocated on the hot path.
class RfTransaction {
 public:
  RfTransaction() { payload_.set_extension(&access_); }
  ~RfTransaction() { payload_.clear_extension(&access_); }
  RfTransaction(const RfTransaction&) = delete;
  RfTransaction& operator=(const RfTransaction&) = delete;

  /// Prepares a read of `reg` into `buffer` or a write of `buffer`.
  tlm::tlm_generic_payload& prepare(RfAccessKind kind, WarpRegister* buffer) {
    access_.kind = kind;
    access_.phys_reg = kNoPhysical;
    access_.read_lanes = kFullMask;
    const bool is_write = kind == RfAccessKind::Write;
    payload_.set_command(kind == RfAccessKind::Read ? tlm::TLM_READ_COMMAND
                         : is_write                 ? tlm::TLM_WRITE_COMMAND
                                                    : tlm::TLM_IGNORE_COMMAND);
    payload_.set_address(0);
    payload_.set_data_ptr(buffer ? buffer->bytes() : nullptr);
    payload_.set_data_length(buffer ? kWarpRegisterBytes : 0);
    payload_.set_streaming_width(buffer ? kWarpRegisterBytes : 0);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return payload_;
  }

  RfAccess& access() { return access_; }
  tlm::tlm_generic_payload& payload() { return payload_; }

 private:
  tlm::tlm_generic_payload payload_;
  RfAccess access_;
};

/// The extension of a payload on the operand path; every initiator attaches one.
inline RfAccess& rf_access_of(tlm::tlm_generic_payload& payload) {
  RfAccess* access = nullptr;
  payload.get_extension(access);
  return *access;
}

/// The extension of a payload a stage received, or nullptr after answering what it
/// cannot serve as the stage contract says (docs/composition.md): a payload without
/// the extension gets TLM_GENERIC_ERROR_RESPONSE, a Read or Write whose data is not one
/// 128-byte warp register TLM_BURST_ERROR_RESPONSE.
inline RfAccess* checked_rf_access(tlm::tlm_generic_payload& payload) {
  RfAccess* access = nullptr;
  payload.get_extension(access);
  if (!access) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return nullptr;
  }
  const bool data = access->kind == RfAccessKind::Read || access->kind == RfAccessKind::Write;
  if (data && (!payload.get_data_ptr() || payload.get_data_length() != kWarpRegisterBytes)) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return nullptr;
  }
  return access;
}

/// The register value a payload carries.
inline WarpRegister& register_of(tlm::tlm_generic_payload& payload) {
  return *reinterpret_cast<WarpRegister*>(payload.get_data_ptr());
}

}  // namespace warpreg

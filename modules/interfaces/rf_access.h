#pragma once
// The TLM-2.0 extension every operand-path transaction carries. Register data
// travels in the generic payload's data pointer as one 128-byte WarpRegister;
// this extension says whose register it is and where it lives.
#include <cstdint>
#include <tlm>

#include "common/warp_register.h"
#include "modules/interfaces/rf_access_kind.h"
#include "modules/interfaces/tlm_refusal.h"

namespace warpreg {

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

/// The extension of a payload on the operand path; every initiator attaches one. For a
/// payload a block received, checked_rf_access instead.
inline RfAccess& rf_access_of(tlm::tlm_generic_payload& payload) {
  RfAccess* access = nullptr;
  payload.get_extension(access);
  return *access;
}

/// What RfTransaction::prepare makes: a Read with the read command, a Write with the
/// write command and one 128-byte warp register, any other kind with the ignore command;
/// no byte enables (lanes are RfAccess::active_mask).
inline bool well_formed(const tlm::tlm_generic_payload& payload, const RfAccess& access) {
  const bool read = access.kind == RfAccessKind::Read, write = access.kind == RfAccessKind::Write;
  const tlm::tlm_command expected = read    ? tlm::TLM_READ_COMMAND
                                    : write ? tlm::TLM_WRITE_COMMAND
                                            : tlm::TLM_IGNORE_COMMAND;
  if (payload.get_command() != expected || payload.get_byte_enable_ptr() != nullptr) return false;
  return !(read || write) ||
         (payload.get_data_ptr() != nullptr && payload.get_data_length() == kWarpRegisterBytes &&
          payload.get_streaming_width() >= kWarpRegisterBytes);
}

/// Refuses a payload that is not well formed or has no RfAccess, with the response the
/// stage contract names (docs/composition.md), reported naming `block`.
void refuse_rf_payload(tlm::tlm_generic_payload& payload, const RfAccess* access,
                       const sc_core::sc_object& block);

/// The extension of a payload `block` received, or nullptr after refusing what it cannot
/// serve: no extension TLM_GENERIC_ERROR_RESPONSE, a command that does not match the kind
/// TLM_COMMAND_ERROR_RESPONSE, byte enables TLM_BYTE_ENABLE_ERROR_RESPONSE, a Read or Write
/// whose data is not one 128-byte warp register TLM_BURST_ERROR_RESPONSE.
inline RfAccess* checked_rf_access(tlm::tlm_generic_payload& payload,
                                   const sc_core::sc_object& block) {
  RfAccess* access = nullptr;
  payload.get_extension(access);
  if (access != nullptr && well_formed(payload, *access)) return access;
  refuse_rf_payload(payload, access, block);
  return nullptr;
}

/// The register value a payload carries.
inline WarpRegister& register_of(tlm::tlm_generic_payload& payload) {
  return *reinterpret_cast<WarpRegister*>(payload.get_data_ptr());
}

}  // namespace warpreg

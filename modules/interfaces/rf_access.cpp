#include "modules/interfaces/rf_access.h"

namespace warpreg {

void refuse_rf_payload(tlm::tlm_generic_payload& payload, const RfAccess* access,
                       const sc_core::sc_object& block) {
  if (access == nullptr) {
    refuse(payload, tlm::TLM_GENERIC_ERROR_RESPONSE, block,
           "no RfAccess extension (modules/interfaces/rf_access.h)");
    return;
  }
  const bool read = access->kind == RfAccessKind::Read;
  const bool write = access->kind == RfAccessKind::Write;
  const tlm::tlm_command command = read    ? tlm::TLM_READ_COMMAND
                                   : write ? tlm::TLM_WRITE_COMMAND
                                           : tlm::TLM_IGNORE_COMMAND;
  const std::string kind(to_string(access->kind));
  if (read || write) {
    accept_data(payload, command, kWarpRegisterBytes, block);
    return;
  }
  if (payload.get_command() != command)
    refuse(payload, tlm::TLM_COMMAND_ERROR_RESPONSE, block,
           "a " + kind + " access carries the ignore command");
  else
    refuse(payload, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, block, "byte enables are not supported");
}

}  // namespace warpreg

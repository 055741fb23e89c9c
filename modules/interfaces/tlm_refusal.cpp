#include "modules/interfaces/tlm_refusal.h"

#include <string>

namespace warpreg {

namespace {

const char* command_name(tlm::tlm_command command) {
  switch (command) {
    case tlm::TLM_READ_COMMAND:
      return "read";
    case tlm::TLM_WRITE_COMMAND:
      return "write";
    case tlm::TLM_IGNORE_COMMAND:
      return "ignore";
  }
  return "unknown-command";
}

}  // namespace

void refuse(tlm::tlm_generic_payload& payload, tlm::tlm_response_status status,
            const sc_core::sc_object& block, std::string_view why) {
  payload.set_response_status(status);
  const std::string message =
      std::string(block.name()) + " refused a " + command_name(payload.get_command()) +
      " payload: " + std::string(why) + " (" + payload.get_response_string() + ")";
  SC_REPORT_WARNING(kRefusedPayload, message.c_str());
}

bool accept_data(tlm::tlm_generic_payload& payload, tlm::tlm_command command, unsigned bytes,
                 const sc_core::sc_object& block) {
  if (payload.get_command() != command) {
    refuse(payload, tlm::TLM_COMMAND_ERROR_RESPONSE, block,
           std::string("expected a ") + command_name(command) + " command");
    return false;
  }
  if (payload.get_byte_enable_ptr() != nullptr) {
    refuse(payload, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, block, "byte enables are not supported");
    return false;
  }
  if (payload.get_data_ptr() == nullptr || payload.get_data_length() != bytes) {
    refuse(payload, tlm::TLM_BURST_ERROR_RESPONSE, block,
           "data of " + std::to_string(payload.get_data_length()) + " bytes, expected " +
               std::to_string(bytes) + (payload.get_data_ptr() ? "" : " (no data pointer)"));
    return false;
  }
  if (payload.get_streaming_width() < bytes) {
    refuse(payload, tlm::TLM_BURST_ERROR_RESPONSE, block,
           "streaming width " + std::to_string(payload.get_streaming_width()) +
               " below the data length");
    return false;
  }
  return true;
}

}  // namespace warpreg

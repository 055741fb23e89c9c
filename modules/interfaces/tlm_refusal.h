#pragma once
// How a TLM target answers a payload it cannot serve (the TLM-2.0 base protocol, IEEE
// 1666-2011 §14.17): it sets the error response the standard names for the fault, reports
// a warning naming itself and the fault, and touches nothing the payload lacks. Refusals
// are off the hot path: a correct initiator never causes one.
#include <string_view>
#include <systemc>
#include <tlm>

namespace warpreg {

/// The message type of the refusals' warnings, for sc_report_handler::set_actions.
inline constexpr const char* kRefusedPayload = "warpreg/refused_payload";

/// Sets `status` and reports "BLOCK refused a COMMAND payload: WHY (STATUS)" as a SystemC
/// warning of type kRefusedPayload.
void refuse(tlm::tlm_generic_payload& payload, tlm::tlm_response_status status,
            const sc_core::sc_object& block, std::string_view why);

/// The checks every target of a data payload makes (command, byte enables, data length and
/// streaming width): true when `payload` carries `command` with `bytes` of data and no byte
/// enables; otherwise it is refused (COMMAND, BYTE_ENABLE or BURST error) and false.
bool accept_data(tlm::tlm_generic_payload& payload, tlm::tlm_command command, unsigned bytes,
                 const sc_core::sc_object& block);

}  // namespace warpreg

#include "modules/memory/mem_request.h"

#include <string>

namespace warpreg::memory {

std::string_view to_string(MemKind kind) {
  switch (kind) {
    case MemKind::Load:
      return "load";
    case MemKind::Store:
      return "store";
    case MemKind::Atomic:
      return "atomic";
    case MemKind::Writeback:
      return "writeback";
  }
  return "?";
}

std::string_view to_string(MemSpace space) {
  switch (space) {
    case MemSpace::Global:
      return "global";
    case MemSpace::Local:
      return "local";
    case MemSpace::Constant:
      return "constant";
    case MemSpace::Shared:
      return "shared";
  }
  return "?";
}

std::string_view to_string(MemLevel level) {
  switch (level) {
    case MemLevel::None:
      return "none";
    case MemLevel::L1:
      return "l1";
    case MemLevel::L2:
      return "l2";
    case MemLevel::Dram:
      return "dram";
  }
  return "?";
}

ByteMask ByteMask::range(uint32_t first, uint32_t count) {
  ByteMask m;
  const uint32_t end = std::min<uint32_t>(first + count, kMaxLineBytes);
  const auto bits = [](uint32_t from, uint32_t to) {  // bits [from, to) of one 64-bit word
    if (from >= to) return 0ull;
    const uint64_t upto = to >= 64 ? ~0ull : (1ull << to) - 1;
    return upto & ~((1ull << from) - 1);
  };
  m.lo = bits(std::min<uint32_t>(first, 64), std::min<uint32_t>(end, 64));
  m.hi = bits(first > 64 ? first - 64 : 0, end > 64 ? end - 64 : 0);
  return m;
}

tlm::tlm_generic_payload& MemTransaction::prepare(MemKind kind, MemSpace space, uint64_t address,
                                                  uint32_t bytes) {
  request_.kind = kind;
  request_.space = space;
  request_.served_by = MemLevel::None;
  request_.byte_mask = ByteMask{};
  request_.bypass_l1 = false;
  const bool write = kind == MemKind::Store || kind == MemKind::Writeback;
  payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(address);
  payload_.set_data_ptr(data_);
  payload_.set_data_length(bytes);
  payload_.set_streaming_width(bytes);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_byte_enable_length(0);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return payload_;
}

MemRequest* accept_request(tlm::tlm_generic_payload& payload, const RequestRules& rules,
                           const sc_core::sc_object& block) {
  MemRequest* request = nullptr;
  payload.get_extension(request);
  if (request == nullptr) {
    refuse(payload, tlm::TLM_GENERIC_ERROR_RESPONSE, block,
           "no MemRequest extension (modules/memory/mem_request.h)");
    return nullptr;
  }
  const tlm::tlm_command command = payload.get_command();
  const bool write = request->kind == MemKind::Store || request->kind == MemKind::Writeback;
  const tlm::tlm_command expected = write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
  if (command != expected || (write && !rules.writes)) {
    refuse(payload, tlm::TLM_COMMAND_ERROR_RESPONSE, block,
           command != expected ? "the command does not match the request's kind"
                               : "a write to a read-only target");
    return nullptr;
  }
  if (payload.get_byte_enable_ptr() != nullptr) {
    refuse(payload, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, block,
           "byte enables are not supported (MemRequest::byte_mask)");
    return nullptr;
  }
  const uint64_t length = payload.get_data_length();
  const uint64_t offset = payload.get_address() & (rules.line_bytes - 1);
  if (length == 0 || payload.get_streaming_width() < length || offset + length > rules.line_bytes) {
    refuse(payload, tlm::TLM_BURST_ERROR_RESPONSE, block,
           "a request of " + std::to_string(length) + " bytes at line offset " +
               std::to_string(offset) + " (lines of " + std::to_string(rules.line_bytes) +
               " bytes, streaming width at least the length)");
    return nullptr;
  }
  if ((rules.spaces & space_bit(request->space)) == 0) {
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, block, "a memory space it does not serve");
    return nullptr;
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return request;
}

}  // namespace warpreg::memory

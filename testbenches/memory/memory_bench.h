#pragma once
// Stub initiators and targets for the memory-system module tests.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/memory/mem_request.h"

namespace memory_bench {

using namespace warpreg::memory;

/// A level below that answers every request `latency` after it arrives, or with `status`.
struct StubMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubMemory> socket{"socket"};
  sc_core::sc_time latency;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  std::vector<sc_core::sc_time> arrivals;  ///< absolute arrival time of each request
  std::vector<uint64_t> addresses;
  std::vector<uint32_t> lengths;
  std::vector<MemKind> kinds;

  StubMemory(sc_core::sc_module_name name, const sc_core::sc_time& latency)
      : sc_module(name), latency(latency) {
    socket.register_b_transport(this, &StubMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    MemRequest* r = nullptr;
    payload.get_extension(r);
    arrivals.push_back(sc_core::sc_time_stamp() + delay);
    addresses.push_back(payload.get_address());
    lengths.push_back(payload.get_data_length());
    kinds.push_back(r != nullptr ? r->kind : MemKind::Load);
    if (status != tlm::TLM_OK_RESPONSE) {
      payload.set_response_status(status);
      return;
    }
    if (r != nullptr) {
      r->served_by = MemLevel::Dram;
      r->accepted = sc_core::sc_time_stamp() + delay;
    }
    delay += latency;
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

/// What a request got back.
struct Answer {
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time done;      ///< absolute time the answer is back
  sc_core::sc_time accepted;  ///< absolute time the first target accepted it
  MemLevel served_by = MemLevel::None;
};

/// An SM-side initiator with one reusable transaction.
struct Requester : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Requester> socket{"socket"};
  MemTransaction txn;
  uint16_t sm = 0;

  explicit Requester(sc_core::sc_module_name name, uint16_t sm_id = 0)
      : sc_module(name), sm(sm_id) {}

  /// A request issued `at` after now (annotated delay).
  Answer request(MemKind kind, MemSpace space, uint64_t address, uint32_t bytes,
                 const sc_core::sc_time& at = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, space, address, bytes);
    txn.request().sm = sm;
    return send(p, at);
  }
  Answer send(tlm::tlm_generic_payload& p, const sc_core::sc_time& at = sc_core::SC_ZERO_TIME) {
    sc_core::sc_time delay = at;
    socket->b_transport(p, delay);
    Answer a;
    a.status = p.get_response_status();
    a.done = sc_core::sc_time_stamp() + delay;
    MemRequest* r = nullptr;
    p.get_extension(r);
    if (r != nullptr) {
      a.accepted = r->accepted;
      a.served_by = r->served_by;
    }
    return a;
  }
};

/// Runs `body` in an SC_THREAD.
struct Run : sc_core::sc_module {
  SC_HAS_PROCESS(Run);
  std::function<void()> body;
  bool done = false;
  Run(sc_core::sc_module_name name, std::function<void()> b) : sc_module(name), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() {
    body();
    done = true;
  }
};

/// Sends the payloads no memory target can serve and checks each answer; `good` is an
/// address the target serves (a Global load of 32 bytes there must be OK afterwards).
inline void check_refusals(
    Requester& r, uint64_t good,
    const std::function<void(tlm::tlm_response_status, tlm::tlm_response_status, const char*)>&
        expect) {
  // No extension.
  tlm::tlm_generic_payload bare;
  unsigned char data[256] = {};
  bare.set_command(tlm::TLM_READ_COMMAND);
  bare.set_address(good);
  bare.set_data_ptr(data);
  bare.set_data_length(32);
  bare.set_streaming_width(32);
  bare.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  expect(r.send(bare).status, tlm::TLM_GENERIC_ERROR_RESPONSE, "no extension");
  // Unknown command.
  tlm::tlm_generic_payload& ignore = r.txn.prepare(MemKind::Load, MemSpace::Global, good, 32);
  ignore.set_command(tlm::TLM_IGNORE_COMMAND);
  expect(r.send(ignore).status, tlm::TLM_COMMAND_ERROR_RESPONSE, "ignore command");
  // A load sent as a write.
  tlm::tlm_generic_payload& mismatch = r.txn.prepare(MemKind::Load, MemSpace::Global, good, 32);
  mismatch.set_command(tlm::TLM_WRITE_COMMAND);
  expect(r.send(mismatch).status, tlm::TLM_COMMAND_ERROR_RESPONSE, "load as write");
  // Wrong lengths: zero, more than a line, crossing a line, streaming width too small.
  expect(r.request(MemKind::Load, MemSpace::Global, good, 0).status, tlm::TLM_BURST_ERROR_RESPONSE,
         "zero length");
  expect(r.request(MemKind::Load, MemSpace::Global, good, 256).status,
         tlm::TLM_BURST_ERROR_RESPONSE, "256 bytes");
  expect(r.request(MemKind::Load, MemSpace::Global, good + 0x70, 32).status,
         tlm::TLM_BURST_ERROR_RESPONSE, "crossing a line");
  tlm::tlm_generic_payload& narrow = r.txn.prepare(MemKind::Load, MemSpace::Global, good, 32);
  narrow.set_streaming_width(4);
  expect(r.send(narrow).status, tlm::TLM_BURST_ERROR_RESPONSE, "streaming width");
  // Byte enables.
  unsigned char enables[32] = {};
  tlm::tlm_generic_payload& enabled = r.txn.prepare(MemKind::Store, MemSpace::Global, good, 32);
  enabled.set_byte_enable_ptr(enables);
  enabled.set_byte_enable_length(32);
  expect(r.send(enabled).status, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "byte enables");
  // Shared memory is the SM's own.
  expect(r.request(MemKind::Load, MemSpace::Shared, good, 32).status,
         tlm::TLM_ADDRESS_ERROR_RESPONSE, "shared space");
  // And a good request is still served.
  expect(r.request(MemKind::Load, MemSpace::Global, good, 32).status, tlm::TLM_OK_RESPONSE,
         "a good load afterwards");
}

}  // namespace memory_bench

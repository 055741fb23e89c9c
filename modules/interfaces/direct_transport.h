#pragma once
// A target's b_transport called without its socket (OperandStage::forward_directly).
#include <systemc>
#include <tlm>

namespace warpreg {

/// A target's b_transport reached without its socket, as through a DMI pointer: the
/// target object and a function that calls its b_transport. Empty: use the socket.
/// Whoever bound an initiator to the target knows it and may hand this over; the
/// socket stays bound (for binding checks and for initiators that do not know).
struct DirectTransport {
  using Call = void (*)(void* object, tlm::tlm_generic_payload&, sc_core::sc_time&);
  void* object = nullptr;
  Call call = nullptr;

  explicit operator bool() const { return call != nullptr; }
  void operator()(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) const {
    call(object, payload, delay);
  }
};

}  // namespace warpreg

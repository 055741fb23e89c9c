#pragma once
// A target's b_transport called without its socket (OperandStage::forward_directly).
#include <cstdint>
#include <systemc>
#include <tlm>

namespace warpreg {

class RfAccess;

/// A target's b_transport reached without its socket, as through a DMI pointer: the
/// target object and a function that calls its b_transport. Empty: use the socket.
/// Whoever bound an initiator to the target knows it and may hand this over; the
/// socket stays bound (for binding checks and for initiators that do not know).
struct DirectTransport {
  using Call = void (*)(void* object, tlm::tlm_generic_payload&, sc_core::sc_time&);
  /// Optional: b_transport for a payload whose RfAccess the caller has checked
  /// (checked_rf_access: attached and well formed), without looking it up again.
  using CallChecked = void (*)(void* object, tlm::tlm_generic_payload&, RfAccess&,
                               sc_core::sc_time&);
  /// Optional, for a target that serves a payload whose RfAccess the caller has checked at
  /// a cycle of its clock, without the time conversions of b_transport (the banks:
  /// RegisterFileModule::serve_at): sets `ready` to the cycle b_transport's delay would
  /// have named and returns true, or returns false having done nothing (then call
  /// b_transport).
  using Serve = bool (*)(void* object, tlm::tlm_generic_payload&, RfAccess&, uint64_t cycle,
                         uint64_t& ready);
  void* object = nullptr;
  Call call = nullptr;
  CallChecked call_checked = nullptr;
  Serve serve = nullptr;
  uint64_t ticks_per_cycle = 0;  ///< the clock `serve` counts cycles of

  explicit operator bool() const { return call != nullptr; }
  void operator()(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) const {
    call(object, payload, delay);
  }
  /// The call for a payload whose RfAccess `access` the caller has checked.
  void operator()(tlm::tlm_generic_payload& payload, RfAccess& access,
                  sc_core::sc_time& delay) const {
    if (call_checked != nullptr)
      call_checked(object, payload, access, delay);
    else
      call(object, payload, delay);
  }
};

}  // namespace warpreg

#pragma once
// A stage on the operand path between the SM's collectors and the register
// banks (crossbar, name translation, codec, power control ...). It receives
// register-file transactions on `target` and forwards them on `initiator`;
// a stage overrides b_transport to act on the transactions it cares about.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/direct_transport.h"

namespace warpreg {

class OperandStage : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<OperandStage> target;
  tlm_utils::simple_initiator_socket<OperandStage> initiator;

  explicit OperandStage(sc_core::sc_module_name name)
      : sc_core::sc_module(name), target("target"), initiator("initiator") {
    target.register_b_transport(this, &OperandStage::transport);
  }

  /// True for a stage that rewrites RfAccess::phys_reg (register renaming): the
  /// register file may then hold fewer registers than the resident warps name.
  virtual bool translates_names() const { return false; }

  /// True for a stage that needs to hear when a warp is assigned a collector unit: the
  /// SM then sends one Wake transaction per destination register (the first carries
  /// the collector and its active mask). TRIC wakes registers, COMA records the mask.
  virtual bool wants_collector_wakes() const { return false; }

  /// What a transaction on `target` reaches, without the socket.
  DirectTransport direct() {
    return {this, [](void* stage, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
              static_cast<OperandStage*>(stage)->b_transport(payload, delay);
            }};
  }

  /// `initiator` is bound to the target `next` reaches (the platform that bound it says
  /// so): forward() then calls it directly instead of through the socket hop. The same
  /// transactions arrive at the same b_transport, so nothing simulated changes.
  void forward_directly(DirectTransport next) { next_ = next; }

 protected:
  /// Default: pass the transaction on unchanged.
  virtual void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    forward(payload, delay);
  }

  /// Sends a transaction on towards the banks: initiator->b_transport, or the target
  /// it is bound to directly when that is known (forward_directly).
  void forward(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    if (next_)
      next_(payload, delay);
    else
      initiator->b_transport(payload, delay);
  }

  /// forward() for a transaction at `cycle` of a clock of `ticks_per_cycle` ticks, with
  /// the annotated delay that names it: when the target bound directly serves at a cycle
  /// of the same clock (DirectTransport::serve: the banks), it does so, sets `ready` to
  /// the cycle the returned delay would name and returns true, without converting the
  /// cycles to a delay and back on either side; otherwise returns false, nothing done.
  bool serve_next(tlm::tlm_generic_payload& payload, uint64_t ticks_per_cycle, uint64_t cycle,
                  uint64_t& ready) {
    return next_.serve != nullptr && next_.ticks_per_cycle == ticks_per_cycle &&
           next_.serve(next_.object, payload, cycle, ready);
  }

  /// Sends a transaction on at `cycle` of `clock` (not before the cycle `delay` names)
  /// and returns the cycle it is ready, `delay` then naming it: served by the banks at
  /// that cycle when they are bound directly (serve_next), else forward() with `delay`
  /// moved on by the cycles it waits. The caller checks the response (a served access is
  /// always OK).
  uint64_t forward_at(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay,
                      const CycleClock& clock, uint64_t cycle) {
    uint64_t ready = 0;
    if (serve_next(payload, clock.ticks_per_cycle(), cycle, ready)) {
      clock.complete_at(delay, ready);
      return ready;
    }
    const uint64_t named = clock.cycle_at(delay);
    if (cycle > named) delay += clock.cycles(cycle - named);
    forward(payload, delay);
    return clock.cycle_at(delay);
  }

  /// forward_at for a transaction the stage makes itself, at `cycle` of `clock`, with no
  /// delay to hand back: returns the cycle it is ready (served: without any time
  /// conversion).
  uint64_t send_at(tlm::tlm_generic_payload& payload, const CycleClock& clock, uint64_t cycle) {
    uint64_t ready = 0;
    if (serve_next(payload, clock.ticks_per_cycle(), cycle, ready)) return ready;
    sc_core::sc_time delay = clock.delay_until(cycle);
    forward(payload, delay);
    return clock.cycle_at(delay);
  }

 private:
  void transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    b_transport(payload, delay);
  }

  DirectTransport next_;
};

}  // namespace warpreg

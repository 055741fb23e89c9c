#pragma once
// A stage on the operand path between the SM's collectors and the register
// banks (crossbar, name translation, codec, power control ...). It receives
// register-file transactions on `target` and forwards them on `initiator`;
// a stage overrides transport() to act on the transactions it cares about, each
// checked once (checked_rf_access) on its way from the SM to the banks.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/direct_transport.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg {

class OperandStage : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<OperandStage> target;
  tlm_utils::simple_initiator_socket<OperandStage> initiator;

  explicit OperandStage(sc_core::sc_module_name name)
      : sc_core::sc_module(name), target("target"), initiator("initiator") {
    target.register_b_transport(this, &OperandStage::receive);
  }

  /// True for a stage that rewrites RfAccess::phys_reg (register renaming): the
  /// register file may then hold fewer registers than the resident warps name.
  virtual bool translates_names() const { return false; }

  /// True for a stage that needs to hear when a warp is assigned a collector unit: the
  /// SM then sends one Wake transaction per destination register (the first carries
  /// the collector and its active mask). TRIC wakes registers, COMA records the mask.
  virtual bool wants_collector_wakes() const { return false; }

  /// What a transaction on `target` reaches, without the socket: one call site for every
  /// stage, which then dispatches to the stage's transport() (see direct_to()).
  virtual DirectTransport direct() {
    DirectTransport d;
    d.object = this;
    d.call = [](void* stage, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
      static_cast<OperandStage*>(stage)->receive(payload, delay);
    };
    d.call_checked = [](void* stage, tlm::tlm_generic_payload& payload, RfAccess& access,
                        sc_core::sc_time& delay) {
      static_cast<OperandStage*>(stage)->transport(payload, access, delay);
    };
    return d;
  }

  /// `initiator` is bound to the target `next` reaches (the platform that bound it says
  /// so): forward() then calls it directly instead of through the socket hop. The same
  /// transactions arrive at the same b_transport, so nothing simulated changes.
  void forward_directly(DirectTransport next) { next_ = next; }

 protected:
  /// direct() for a stage of class `Stage` (which makes OperandStage a friend): a call
  /// site of its own, calling Stage::transport() without the virtual dispatch. For stages
  /// that follow another on a path (WRF's TRIC and COMA): through the shared call site the
  /// dispatch alternates between them on every access. Measured (docs/performance.md,
  /// ninth round): wrf about 2.5 % faster; single-stage designs about 1 % slower, so they
  /// keep direct().
  template <class Stage>
  DirectTransport direct_to() {
    DirectTransport d = OperandStage::direct();
    d.call_checked = [](void* stage, tlm::tlm_generic_payload& payload, RfAccess& access,
                        sc_core::sc_time& delay) {
      static_cast<Stage*>(static_cast<OperandStage*>(stage))
          ->Stage::transport(payload, access, delay);
    };
    return d;
  }

  /// `d` (a direct() of a stage of class `Stage`, which makes OperandStage a friend) with
  /// DirectTransport::serve: Stage::serve_at(payload, a, cycle, ready) at cycles of
  /// `clock`, for a stage that serves some kinds at a cycle (and answers false, nothing
  /// done, for the others).
  template <class Stage>
  static DirectTransport serving_at(DirectTransport d, const CycleClock& clock) {
    d.serve = [](void* stage, tlm::tlm_generic_payload& payload, RfAccess& access, uint64_t cycle,
                 uint64_t& ready) {
      return static_cast<Stage*>(static_cast<OperandStage*>(stage))
          ->serve_at(payload, access, cycle, ready);
    };
    d.ticks_per_cycle = clock.ticks_per_cycle();
    return d;
  }

  /// The stage's work on a transaction whose RfAccess `a` is checked (checked_rf_access:
  /// attached and well formed), by this stage or by the hop before it on the direct path.
  /// A refusal sets the payload's response and returns. Default: pass it on unchanged.
  virtual void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
    forward(payload, a, delay);
  }

  /// Sends a transaction on towards the banks: initiator->b_transport, or the target it is
  /// bound to directly when that is known (forward_directly). Its RfAccess `a` is checked
  /// and the stage has not made the payload malformed since (its command and data
  /// unchanged): a target bound directly takes it without checking it again.
  void forward(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
    if (next_)
      next_(payload, a, delay);
    else
      initiator->b_transport(payload, delay);
  }

  /// forward() for a transaction at `cycle` of `clock` (not before the cycle `delay`
  /// names), whose RfAccess `a` is checked, and returns the cycle it is ready, `delay`
  /// then naming it: served by the banks at that cycle when they are bound directly
  /// (DirectTransport::serve), else forward() with `delay` moved on by the cycles
  /// it waits. The caller checks the response (a served access is always OK).
  uint64_t forward_at(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay,
                      const CycleClock& clock, uint64_t cycle) {
    uint64_t ready = 0;
    if (serve_next(payload, a, clock, cycle, ready)) {
      clock.complete_at(delay, ready);
      return ready;
    }
    const uint64_t named = clock.cycle_at(delay);
    if (cycle > named) delay += clock.cycles(cycle - named);
    forward(payload, a, delay);
    return clock.cycle_at(delay);
  }

  /// forward_at for a transaction the stage makes itself (RfAccess `a`, well formed by
  /// construction: RfTransaction), at `cycle` of `clock`, with no delay to hand back:
  /// returns the cycle it is ready (served: without any time conversion).
  [[gnu::always_inline]] uint64_t send_at(tlm::tlm_generic_payload& payload, RfAccess& a,
                                          const CycleClock& clock, uint64_t cycle) {
    uint64_t ready = 0;
    if (serve_next(payload, a, clock, cycle, ready)) return ready;
    sc_core::sc_time delay = clock.delay_until(cycle);
    forward(payload, a, delay);
    return clock.cycle_at(delay);
  }

  /// When the target bound directly serves at a cycle of `clock` (DirectTransport::
  /// serve: the banks, or a stage that serves reads and writes so), serves the payload at
  /// `cycle`, sets `ready` to the cycle the returned delay would name and returns true,
  /// without converting the cycles to a delay and back on either side; otherwise returns
  /// false, nothing done.
  bool serve_next(tlm::tlm_generic_payload& payload, RfAccess& a, const CycleClock& clock,
                  uint64_t cycle, uint64_t& ready) {
    return next_.serve != nullptr && next_.ticks_per_cycle == clock.ticks_per_cycle() &&
           next_.serve(next_.object, payload, a, cycle, ready);
  }

 private:
  /// `target`'s b_transport: checks the payload (refusing what it cannot serve) first.
  void receive(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    if (RfAccess* a = checked_rf_access(payload, *this)) transport(payload, *a, delay);
  }

  DirectTransport next_;
};

}  // namespace warpreg

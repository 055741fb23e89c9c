#pragma once
// A stage on the operand path between the SM's collectors and the register
// banks (crossbar, name translation, codec, power control ...). It receives
// register-file transactions on `target` and forwards them on `initiator`;
// a stage overrides b_transport to act on the transactions it cares about.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

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

 protected:
  /// Default: pass the transaction on unchanged.
  virtual void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    initiator->b_transport(payload, delay);
  }

 private:
  void transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    b_transport(payload, delay);
  }
};

}  // namespace warpreg

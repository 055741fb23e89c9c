#pragma once
// Several initiators onto one target: an SM's L1 data cache and constant cache share the
// SM's interconnect port (GPGPU-Sim's load/store unit pushes both caches' misses into
// one injection queue). Blocking transport passes through unchanged: the interconnect
// times the port, so requests of both caches queue behind each other there.
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>
#include <tlm>

namespace warpreg::memory {

class PortMerger : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<PortMerger> in;  ///< each cache's mem_side
  tlm_utils::simple_initiator_socket<PortMerger> out;         ///< the interconnect's sm_side

  explicit PortMerger(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    in.register_b_transport(this, &PortMerger::b_transport);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    out->b_transport(payload, delay);
  }
};

}  // namespace warpreg::memory

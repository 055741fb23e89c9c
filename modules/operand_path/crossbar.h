#pragma once
// The crossbar between the register banks and the operand collectors: every
// register read or write moves 128 bytes as 128-bit flits over the wire.
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "power/energy.h"

namespace warpreg {

class Params;

class Crossbar : public OperandStage, public ReportingBlock {
 public:
  static constexpr unsigned kFlitBytes = 16;  ///< 128-bit links

  Crossbar(sc_core::sc_module_name name, const Params& params, const power::TechTable& tech,
           double cycle_ns);

  std::string block_name() const override { return "crossbar"; }
  /// Energy only: flits are its one event.
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// Counts the flits of `bytes` carried (what b_transport counts for a served access;
  /// the SM's direct path to the banks counts through it).
  void count_transfer(uint32_t bytes) { energy_.count(flits_, bytes / kFlitBytes); }

  /// What b_transport does with a payload that passes its check (RfAccess `a`): carries
  /// it on and counts what came back. For an initiator whose payloads are well formed by
  /// construction (the SM's RfTransaction), called directly (SmModule::use_direct_path).
  void carry(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
    forward(payload, a, delay);
    count_carried(payload);
  }
  /// carry() of an access at `cycle` of `clock` to a target behind that serves it at a
  /// cycle (DirectTransport::serve): sets `ready` to the cycle it completes and returns
  /// true, with no delay to convert on either side; false, nothing done, when that target
  /// does not take it (then carry()).
  bool carry_at(tlm::tlm_generic_payload& payload, RfAccess& a, const CycleClock& clock,
                uint64_t cycle, uint64_t& ready) {
    if (!serve_next(payload, a, clock, cycle, ready)) return false;
    count_carried(payload);
    return true;
  }

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override {
    carry(payload, a, delay);
  }

 private:
  void count_carried(const tlm::tlm_generic_payload& payload) {
    if (payload.get_data_length() != 0 && payload.is_response_ok())
      count_transfer(payload.get_data_length());
  }

  double wire_mm_;
  StatSet stats_{"crossbar"};
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId flits_;
};

}  // namespace warpreg

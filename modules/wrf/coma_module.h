#pragma once
// The COMA stage on the operand path (seed 002 §5.1): the active-mask table,
// written by the first Wake of a collector assignment and read by every operand
// read, narrows each read to the lane slices of the active lanes (the divided
// word line); a writeback's mask is the scoreboard's, which the write carries.
// With one lane slice per lane (rf.lane_slices = 32) a slice is one lane's
// word-line segment; with narrow banks (fewer lanes per bank) COMA gates whole
// bank accesses instead.
#include "modules/common/block.h"
#include "modules/operand_path/operand_stage.h"
#include "modules/wrf/coma_core.h"
#include "power/energy.h"

namespace warpreg {

class Params;

class ComaModule : public OperandStage, public ReportingBlock {
 public:
  ComaModule(sc_core::sc_module_name name, const Params& params, const power::TechTable& tech,
             double cycle_ns);

  static ComaConfig config_from(const Params& params);

  const ComaCore& core() const { return core_; }
  /// Lane segments kept idle over all segments of the reads and writes seen. With one
  /// lane slice per lane (the presets) and equal read and write energy per slice (wrf32)
  /// it is the register file's dynamic-energy saving (seed 002 Figure 7, second bar).
  double gated_share() const;

  std::string block_name() const override { return "coma"; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  ComaCore core_;
  uint32_t lane_slices_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId table_writes_, table_reads_;
};

}  // namespace warpreg

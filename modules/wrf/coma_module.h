#pragma once
// The COMA stage on the operand path (seed 002 §5.1): the active-mask table,
// written by the first Wake of a collector assignment and read by every operand
// read, narrows each read to the lane slices of the active lanes (the divided
// word line); a writeback's mask is the scoreboard's, which the write carries.
// With one lane slice per lane (rf.lane_slices = 32) a slice is one lane's
// word-line segment; with narrow banks (fewer lanes per bank) COMA gates whole
// bank accesses instead.
#include <vector>

#include "common/cycle_clock.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/wrf/coma_core.h"
#include "power/energy.h"

namespace warpreg {

class Params;

class ComaModule : public OperandStage, public ReportingBlock {
 public:
  ComaModule(sc_core::sc_module_name name, const Params& params, const power::TechTable& tech,
             const CycleClock& clock);

  static ComaConfig config_from(const Params& params);

  const ComaCore& core() const { return core_; }
  /// Lane segments kept idle over all segments of the reads and writes seen. With one
  /// lane slice per lane (the presets) and equal read and write energy per slice (wrf32)
  /// it is the register file's dynamic-energy saving (seed 002 Figure 7, second bar).
  double gated_share() const;

  std::string block_name() const override { return "coma"; }
  bool wants_collector_wakes() const override { return true; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  /// The bank of an access, as the register file maps it (RegFileCore::bank_of).
  uint32_t bank_of(const RfAccess& a) const;
  /// With coma.bank_ports: holds the access back to its bank port's first free cycle;
  /// returns the cycles it waited.
  uint64_t take_bank_port(std::vector<uint64_t>& next_free, const RfAccess& a,
                          sc_core::sc_time& delay);

  ComaCore core_;
  uint32_t lane_slices_;
  CycleClock clock_;
  bool bank_ports_;
  uint32_t banks_;
  bool interleaved_;
  std::vector<uint64_t> read_free_;   ///< per bank: first cycle the read port is free
  std::vector<uint64_t> write_free_;  ///< per bank: first cycle the write port is free
  /// Bank conflicts COMA resolved (the register file then sees none): reads and writes
  /// held back for their bank's port, and the cycles reads waited.
  uint64_t conflicted_reads_ = 0, read_conflict_cycles_ = 0, conflicted_writes_ = 0;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId table_writes_, table_reads_;
};

}  // namespace warpreg

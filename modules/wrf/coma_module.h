#pragma once
// The COMA stage on the operand path (seed 002 §5.1): the active-mask table,
// written by the first Wake of a collector assignment and read by every operand
// read, narrows each read to the lane slices of the active lanes (the divided
// word line); a writeback's mask is the scoreboard's, which the write carries.
// With one lane slice per lane (rf.lane_slices = 32) a slice is one lane's
// word-line segment; with narrow banks (fewer lanes per bank) COMA gates whole
// bank accesses instead. docs/blocks/coma.md.
#include <vector>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/wrf/coma_core.h"
#include "power/energy.h"

namespace warpreg {

/// COMA's parameters (coma.*).
struct ComaParams : ParamSet {
  explicit ComaParams(const Params* values = nullptr) : ParamSet("coma", values) {}
  Param<bool> bank_ports{
      this, "bank_ports", true,
      "COMA serialises the accesses of each bank through one read and one write port, as a "
      "divided-word-line bank with one row decoder serves one register per cycle whatever the "
      "masks. false: the register file's ports per lane slice, so two reads (or writes) of one "
      "bank with disjoint active masks can share a cycle (a timing artefact of the slice model).",
      "seed 002 §5.1, Figure 6: the DWL gates word-line segments of the one row being accessed; "
      "Table 3 (16 banks, 128-byte registers)"};
};

/// What COMA reports besides its energy account (blocks.coma in stats.json).
struct ComaStats : StatSet {
  ComaStats() : StatSet("coma") {}
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "The mask table: 32 bits per collector unit."};
  Counter writeback_masks{this, "writeback_masks", "writes",
                          "Writebacks gated by the scoreboard's mask."};
  Counter lanes_accessed{this, "lanes_accessed", "lane segments",
                         "Lane segments switched by reads and writes."};
  Counter lanes_gated{this, "lanes_gated", "lane segments",
                      "Lane segments kept idle by reads and writes."};
  Counter mask_mismatches{this, "mask_mismatches", "reads",
                          "Reads whose table entry differed from the collector's mask (0 when "
                          "the table is in step)."};
  Counter ungated_reads{
      this, "ungated_reads", "reads",
      "Reads COMA did not gate by the mask: a codec before it packed the register into fewer "
      "slices (a compressed image), or the collector's entry would cut lanes the read needs (a "
      "stage's own read, as RFV's spill; also a mask mismatch). 0 on the shipped presets."};
  Statistic<std::vector<uint64_t>> read_active_lanes{this, "read_active_lanes", "reads",
                                                     "Operand reads by active lanes, 0..32."};
  Statistic<std::vector<uint64_t>> assigned_active_lanes{
      this, "assigned_active_lanes", "instructions",
      "Collector assignments by active lanes, 0..32 (seed 002 Figure 3)."};
  Statistic<nlohmann::json> reads_by_lanes{
      this, "reads_by_lanes", "fraction",
      "Shares of reads with 32, 17-31 and 0-16 active lanes, and utilisation (mean active "
      "lanes / 32)."};
  Statistic<nlohmann::json> instructions_by_lanes{
      this, "instructions_by_lanes", "fraction",
      "The same for collector assignments (seed 002 Figure 3's categories)."};
  Statistic<double> gated_share{
      this, "gated_share", "fraction",
      "lanes_gated / (lanes_gated + lanes_accessed): with one slice per lane, the register file's "
      "dynamic saving (seed 002 Figure 7, second bar)."};
  Statistic<nlohmann::json> bank_conflicts{
      this, "bank_conflicts", "accesses",
      "With coma.bank_ports: reads and writes COMA held back for their bank's port, and the "
      "cycles reads waited (0 without: the register file counts them)."};
};

class ComaModule : public OperandStage, public ReportingBlock {
 public:
  /// Throws TechError when the technology table lacks coma_table_access.
  ComaModule(sc_core::sc_module_name name, const DesignContext& context);

  const ComaCore& core() const { return core_; }
  /// Lane segments kept idle over all segments of the reads and writes seen. With one
  /// lane slice per lane (the presets) and equal read and write energy per slice (wrf32)
  /// it is the register file's dynamic-energy saving (seed 002 Figure 7, second bar).
  double gated_share() const;

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  bool wants_collector_wakes() const override { return true; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// With serve: a stage before COMA sends reads and writes at a cycle, as to the banks.
  DirectTransport direct() override;

 protected:
  friend class OperandStage;  // direct_to() calls transport() without virtual dispatch
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  /// With coma.bank_ports: holds the access at `cycle` back to its bank port's first
  /// free cycle (moving `cycle` on to it); returns the cycles it waited.
  uint64_t take_bank_port(std::vector<uint64_t>& next_free, const RfAccess& a, uint64_t& cycle);
  /// The table's part of a Wake: the first of a collector assignment writes the warp's
  /// active mask; false when it refused the Wake (the payload says why).
  bool assign(tlm::tlm_generic_payload& payload, const RfAccess& a);
  /// The table's part of a read or a write: false when it refused the access (the
  /// payload says why).
  bool gate(tlm::tlm_generic_payload& payload, RfAccess& a);
  /// The cycle a read or a write asked for at `cycle` goes on to the banks: with
  /// coma.bank_ports, its bank port's first free cycle from `cycle` on.
  uint64_t bank_port_cycle(const RfAccess& a, uint64_t cycle);
  /// DirectTransport::serve: a read, a write or a Wake at `cycle`, without a delay to
  /// convert; false, nothing done, for any other kind (transport() takes it).
  bool serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle, uint64_t& ready);
  /// The refusal of an access naming no entry of the table, out of line: the message is
  /// built only then, and transport() saves no registers for it.
  [[gnu::noinline, gnu::cold]] void refuse_collector(tlm::tlm_generic_payload& payload,
                                                     uint32_t collector);

  ComaParams params_;
  ComaCore core_;
  RegFileGeometry regfile_;
  CycleClock clock_;
  bool bank_ports_;
  std::vector<uint64_t> read_free_;   ///< per bank: first cycle the read port is free
  std::vector<uint64_t> write_free_;  ///< per bank: first cycle the write port is free
  /// Bank conflicts COMA resolved (the register file then sees none): reads and writes
  /// held back for their bank's port, and the cycles reads waited.
  uint64_t conflicted_reads_ = 0, read_conflict_cycles_ = 0, conflicted_writes_ = 0;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId table_writes_, table_reads_;
  ComaStats stats_;
};

}  // namespace warpreg

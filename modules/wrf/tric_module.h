#pragma once
// The TRIC stage on the operand path (seed 002 §4.1): a power controller of the
// register file's entries. It keeps every physical register entry ON, DROWSY or OFF
// and tells the register file through StoragePower (which accounts the cells'
// leakage), holds an access back until its entry is ON, and checks that no OFF entry
// is ever accessed and no DROWSY one before it is ON.
//
// Transactions: Launch / Retire (a physical register range, OFF <-> DROWSY), Wake
// (a destination register of a warp assigned a collector unit), Read (a source:
// woken at its collector assignment, DROWSY again once read) and Write (the
// writeback: DROWSY again once written). Everything is forwarded unchanged except
// the annotated delay of an access that must wait for its entry to wake.
// docs/blocks/tric.md.
#include <vector>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/waveform.h"
#include "modules/wrf/tric_core.h"
#include "power/energy.h"

namespace warpreg {

class ComaModule;

/// TRIC's parameters (tric.*).
struct TricParams : ParamSet {
  explicit TricParams(const Params* values = nullptr) : ParamSet("tric", values) {}
  Param<uint32_t> wakeup_latency{
      this,
      "wakeup_latency",
      3,
      {1, 16},
      "cycles",
      "Cycles from the wake signal until a DROWSY register entry is ON; the entry leaks at full "
      "Vdd while it wakes.",
      "seed 002 §6.2: 'we assume a wakeup latency of three cycles'; Fig. 8 evaluates 2 and 3"};
  Param<uint32_t> hidden_cycles{
      this,
      "hidden_cycles",
      1,
      {0, 16},
      "cycles",
      "Cycles between the scheduler's wake signal and the collector's first possible read, which "
      "hide wake-up latency.",
      "seed 002 §4.2: 'there is a one cycle delay between when the scheduler sends a wakeup "
      "signal to the registers and when the collector unit starts reading'"};
  Param<uint32_t> lookahead{
      this,
      "lookahead",
      0,
      {0, 16},
      "cycles",
      "The scheduler wakes the registers of warps that will issue in the next n cycles, hiding up "
      "to n more cycles of wake-up latency (0: the paper's evaluated machine).",
      "seed 002 §4.2 (look-ahead into the ready warp queue); §4.2 results assume 'no way to hide "
      "wakeup delays beyond one cycle'"};
  Param<double> drowsy_leakage_fraction{
      this,
      "drowsy_leakage_fraction",
      0.1,
      {0, 1},
      "fraction",
      "Leakage of a DROWSY register entry relative to an ON one.",
      "seed 002 §4, Figure 4: 'an SRAM cell in the drowsy mode consumes less than 10% of the "
      "leakage current' (DRV + 250 mV)"};
};

/// What TRIC reports besides its energy account (blocks.tric in stats.json).
struct TricStats : StatSet {
  TricStats() : StatSet("tric") {}
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "Power-state bits: 2 per register entry."};
  Counter launches{this, "launches", "entries", "Entries allocated, OFF to DROWSY."};
  Counter retirements{this, "retirements", "entries", "Entries freed, to OFF."};
  Counter wakeups{this, "wakeups", "entries", "Entries woken, DROWSY to ON."};
  Counter sleeps{this, "sleeps", "entries", "Entries returned from ON to DROWSY."};
  Counter stay_on{this, "stay_on", "wakes", "Wakes that found the entry still ON."};
  Counter delayed_accesses{this, "delayed_accesses", "reads",
                           "Reads held back for their entry's wake-up."};
  Counter delay_cycles{this, "delay_cycles", "cycles", "Cycles those reads were held back."};
  Counter late_calls{this, "late_calls", "transactions",
                     "Transactions dated more than TRIC's reorder window before an earlier one, "
                     "taken at the first cycle still open (0 on every shipped preset)."};
  Statistic<nlohmann::json> inter_access_cycles{
      this, "inter_access_cycles", "cycles",
      "Cycles between two accesses of one entry: mean, mean of those up to 3000 cycles (seed "
      "002 Figure 2) and how many distances."};
  Statistic<nlohmann::json> violations{
      this, "violations", "accesses",
      "Content check: off_access (an OFF entry woken, read or written), drowsy_access (an "
      "access served before its entry was ON)."};
  Statistic<nlohmann::json> entry_cycles{
      this, "entry_cycles", "entry-cycles",
      "Entry-cycles in each state TRIC set (on, drowsy, off); the register file accounts their "
      "leakage (blocks.regfile.residency.cells)."};
  Statistic<double> all_on_leakage_pj{
      this, "all_on_leakage_pj", "pJ",
      "What the same entries would leak all ON over the run (the register file without TRIC)."};
  Statistic<double> leakage_saving{
      this, "leakage_saving", "fraction",
      "1 - leakage of TRIC's states / all_on_leakage_pj: seed 002 Figure 7's first bar."};
  Statistic<nlohmann::json> allocated_share{
      this, "allocated_share", "fraction",
      "Entries allocated at most (peak, seed 002 Table 1) and on average (mean) over all entries."};
  Statistic<double> dynamic_saving{this, "dynamic_saving", "fraction",
                                   "COMA's gated_share when COMA is on the same path, else 0."};
  Statistic<double> access_to_bank_leakage{
      this, "access_to_bank_leakage", "ratio",
      "Register-file dynamic energy without COMA over its leakage energy without TRIC when one "
      "entry access costs one cycle of a bank's leakage (r = 1): the run's activity, which "
      "weights the paper's r (seed 002 §6.4)."};
  Statistic<nlohmann::json> weighted_saving{
      this, "weighted_saving", "fraction",
      "Seed 002 §6.4's total power saving for r = 2, 5, 8, where one 128-byte access costs r "
      "cycles of a bank's leakage: 1 - (r a (1 - dynamic_saving) + leakage left) / (r a + 1), "
      "a = access_to_bank_leakage, leakage left = 1 - leakage_saving."};
};

class TricModule : public OperandStage,
                   public ReportingBlock,
                   public TracedBlock,
                   private TransitionSink {
 public:
  /// Throws ConfigError when the parameters describe no valid TRIC, TechError when the
  /// technology table lacks a coefficient it needs.
  TricModule(sc_core::sc_module_name name, const DesignContext& context);

  const TricCore& core() const { return core_; }
  const TricParams& params() const { return params_; }
  /// With COMA on the same path (preset `wrf`), stats() weights TRIC's leakage saving
  /// and COMA's dynamic saving into the paper's total (seed 002 §6.4).
  void attach_coma(const ComaModule* coma) { coma_ = coma; }

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  bool wants_collector_wakes() const override { return true; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  /// Waveform: register entries ON, DROWSY and OFF, and wake-ups in the cycle.
  void add_signals(Waveform& wave) override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// With serve: reads and writes at a cycle, as a stage before it or the SM sends them.
  DirectTransport direct() override;

 protected:
  friend class OperandStage;  // direct_to() calls transport() without virtual dispatch
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  void transition(uint32_t reg, RegPower from, RegPower to, uint64_t cycle) override;
  /// DirectTransport::serve: a read, a write or a Wake at `cycle`, without a delay to
  /// convert; false, nothing done, for anything else (transport() takes it).
  bool serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle, uint64_t& ready);

  TricParams params_;
  CycleClock clock_;
  uint32_t read_latency_;
  uint32_t write_latency_;
  StoragePower& storage_;
  StoragePower::Controller controller_ = 0;
  double entry_on_mw_ = 0;  ///< leakage of one ON register entry (for all_on_leakage_pj)
  double bank_on_mw_ = 0;   ///< leakage of one bank of the register file, all entries ON
  uint64_t accesses_ = 0;   ///< reads and writes the banks served (the dynamic energy's base)
  /// Leakage of an entry in each RegPower state as a fraction of ON.
  double fraction_[3] = {};
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId wakeup_event_, sleep_event_, launch_event_;
  TricCore core_;
  /// TRIC's own view of its entries, integrated per entry at its changes (each entry's
  /// come in cycle order): state and cycle of the latest change, side by side (one cache
  /// line per change), and entry-cycles per state up to those.
  struct EntryState {
    uint64_t since = 0;
    RegPower state = RegPower::Off;
  };
  std::vector<EntryState> entry_state_;
  uint32_t entries_in_[3] = {};  ///< entries in each RegPower state now (waveforms)
  uint64_t entry_cycles_[3] = {};
  TricStats stats_;
  const ComaModule* coma_ = nullptr;
};

}  // namespace warpreg

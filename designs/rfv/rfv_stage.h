#pragma once
// GPU register file virtualization (seed 000) as one operand-path stage that is also
// an issue hook, assembled from two blocks (its SystemC children):
//   rfv.renaming_table      translates every register access (modules/rfv)
//   rfv.release_flag_cache  supplies the compiler's pir flags at issue (modules/rfv;
//                           rfv.mode = compiler only)
// The stage itself keeps what belongs to the design: pir/pbr handling, the register
// balance throttle, spill and fill, and sub-array power gating (through the register
// file's StoragePower; the stage keeps the wake-up latency). As a translation stage
// it sends its own Launch / Retire per physical register as it maps and frees them
// (docs/composition.md). docs/blocks/rfv.md.
#include <array>
#include <memory>
#include <vector>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "designs/rfv/rfv_program.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/interfaces/storage_power.h"
#include "modules/interfaces/waveform.h"
#include "modules/rfv/register_balance.h"
#include "modules/rfv/release_flag_cache_module.h"
#include "modules/rfv/renaming_table_module.h"
#include "power/energy.h"

namespace warpreg {

struct DesignContext;

enum class RfvMode : uint8_t {
  Compiler,  ///< release flags (pir/pbr) from the compiler: the paper's design
  Hardware   ///< hardware-only renaming: registers are released only at warp exit
};

/// When a renamed destination gets its physical register.
enum class RfvAllocation : uint8_t {
  AtWrite,  ///< at the writeback (seed 000 §7: "allocate on write"); a bank slot is reserved
            ///< at issue so that the write always finds one
  AtIssue   ///< when the instruction issues, a few cycles before its write
};

/// What a pir that misses the release flag cache, or a pbr, costs at the issue stage.
enum class RfvMetadataIssue : uint8_t {
  Decode,  ///< fetch and decode only (seed 000 §9.4: "the only overhead ... occurs in
           ///< decoder logic"): no issue slot
  Slot     ///< each takes an issue slot of its warp, as an instruction would
};

/// The design's own parameters (rfv.*); its blocks declare theirs
/// (RenamingTableParams, ReleaseFlagCacheParams).
struct RfvParams : ParamSet {
  explicit RfvParams(const Params* values = nullptr) : ParamSet("rfv", values) {}
  Choice<RfvMode> mode{
      this,
      "mode",
      RfvMode::Compiler,
      {{"compiler", RfvMode::Compiler}, {"hardware", RfvMode::Hardware}},
      "Register renaming (design rfv): compiler = the paper's design (release after the read the "
      "compiler's pir flags, and at pbr reconvergence points); hardware = hardware-only "
      "renaming, a register is mapped at its first write and kept until the warp exits (the "
      "same register count as releasing on redefinition).",
      "seed 000 §6-7 (compiler support, renaming table); §9.5 (hardware-only renaming of the "
      "NVIDIA patent [46])"};
  Choice<bool> power_gating{
      this,
      "power_gating",
      false,
      {{"off", false}, {"on", true}},
      "Sub-array power gating: a register sub-array with no allocated entry is gated (its cells "
      "leak rf_gated_leakage_fraction of ON, accounted by the register file) and wakes when a "
      "register is allocated in it.",
      "seed 000 §8.2 (sub-array level power gating of dead registers)"};
  Choice<RfvAllocation> allocate_at{
      this,
      "allocate_at",
      RfvAllocation::AtWrite,
      {{"write", RfvAllocation::AtWrite}, {"issue", RfvAllocation::AtIssue}},
      "When a renamed destination is mapped to a physical register: write = at its writeback, "
      "the paper's (the issue stage reserves a register of the destination's bank, so the "
      "write always finds one); issue = when the instruction issues.",
      "seed 000 §7.1 and DESIGN.md: 'Allocate on write, release on pir/pbr'"};
  Choice<RfvMetadataIssue> metadata_issue{
      this,
      "metadata_issue",
      RfvMetadataIssue::Decode,
      {{"decode", RfvMetadataIssue::Decode}, {"slot", RfvMetadataIssue::Slot}},
      "What a pir missing the release flag cache and a pbr cost at issue: decode = fetch and "
      "decode energy only, the warp issues its instruction in the same cycle (the paper's); "
      "slot = each also takes an issue slot of its warp.",
      "seed 000 §9.4: 'As pbr and pir do not issue any instruction to the execution units, the "
      "only overhead that is caused by the two added instructions occurs in decoder logic'"};
  Param<uint32_t> wakeup_cycles{
      this,
      "wakeup_cycles",
      1,
      {0, 1000},
      "cycles",
      "Cycles a gated sub-array needs before the register allocated in it can be written or "
      "read.",
      "seed 000 §9.2: CACTI-P gives less than one cycle; the paper explores 1, 3 and 10 cycles"};
};

struct RfvStats : StatSet {
  RfvStats() : StatSet("rfv") {}
  Counter released_by_pir{this, "released_by_pir", "registers",
                          "Registers freed after the read their pir flag marks."};
  Counter released_by_pbr{this, "released_by_pbr", "registers",
                          "Registers freed by pbr instructions at reconvergence points."};
  Counter released_at_exit{this, "released_at_exit", "registers",
                           "Renamed registers still mapped when their warp exited."};
  Counter pir_fetches{this, "pir_fetches", "instructions",
                      "pir instructions fetched and decoded (release-flag-cache misses)."};
  Counter pbr_fetches{this, "pbr_fetches", "instructions",
                      "pbr instructions fetched and decoded (always)."};
  Counter warp_instructions{this, "warp_instructions", "instructions",
                            "Instructions issued (the base of the code increase)."};
  Counter throttled_issues{this, "throttled_issues", "verdicts",
                           "Issues held by the register balance throttle."};
  Counter allocation_waits{this, "allocation_waits", "verdicts",
                           "Issues held because a destination's bank had no free register."};
  Counter unwritten_reads{this, "unwritten_reads", "reads",
                          "Reads of a register never written (mapped then)."};
  Counter dead_writes{this, "dead_writes", "writes",
                      "Writebacks to a register a pbr released while the write was in flight."};
  Counter reservation_waits{this, "reservation_waits", "verdicts",
                            "Issues held because a destination's bank had no register left "
                            "beside those reserved for writes in flight (allocate_at = write)."};
  Counter subarray_wakeups{this, "subarray_wakeups", "wake-ups",
                           "Gated sub-arrays woken by an allocation."};
  Counter wake_waits{this, "wake_waits", "accesses",
                     "Accesses that waited for their sub-array to wake up."};
  Counter spills{this, "spills", "warps", "Warps whose renamed registers were spilled."};
  Counter spilled_registers{this, "spilled_registers", "registers", "Registers spilled."};
  Counter fills{this, "fills", "warps", "Spilled warps refilled."};
  Statistic<double> mean_mapped_registers{this, "mean_mapped_registers", "registers",
                                          "Renamed registers mapped, averaged over cycles."};
  Statistic<double> mean_allocated_registers{
      this, "mean_allocated_registers", "registers",
      "Registers allocated with renaming (mapped plus the exempt ones of resident warps), "
      "averaged over cycles (Fig. 10)."};
  Statistic<double> mean_baseline_registers{
      this, "mean_baseline_registers", "registers",
      "Registers the baseline allocates (every register of every resident warp), averaged."};
  Statistic<uint64_t> touched_registers{
      this, "touched_registers", "registers",
      "Physical registers used at least once (renamed ones mapped, exempt ones of resident "
      "warps): seed 000 §9.1's count."};
  Statistic<uint64_t> peak_allocated_registers{
      this, "peak_allocated_registers", "registers",
      "Most registers allocated at once with renaming (mapped plus exempt of resident warps).",
      StatSet::Combine::Max};
  Statistic<uint64_t> peak_baseline_registers{
      this, "peak_baseline_registers", "registers",
      "Most registers the baseline allocates at once (every register of every resident warp).",
      StatSet::Combine::Max};
  Statistic<double> allocation_reduction{
      this, "allocation_reduction", "fraction",
      "Fig. 10 as the paper counts it: 1 - touched_registers / peak_baseline_registers."};
  Statistic<double> allocation_reduction_peak{
      this, "allocation_reduction_peak", "fraction",
      "1 - peak_allocated_registers / peak_baseline_registers."};
  Statistic<double> allocation_reduction_mean{
      this, "allocation_reduction_mean", "fraction",
      "1 - mean_allocated_registers / mean_baseline_registers: the time average."};
  Statistic<double> dynamic_code_increase{this, "dynamic_code_increase", "fraction",
                                          "pir and pbr fetched per warp instruction (Fig. 13)."};
  Statistic<double> static_code_increase{this, "static_code_increase", "fraction",
                                         "pir and pbr per static instruction."};
  Statistic<nlohmann::json> breakdown_pj{
      this, "breakdown_pj", "pJ",
      "The design's energy as Fig. 12 splits it: renaming_table (the rfv.renaming_table "
      "block), flag_instructions (pir/pbr decode plus the rfv.release_flag_cache block)."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "The stage's own storage: the register balance counters."};
};

class RfvStage : public OperandStage, public IssueHook, public ReportingBlock, public TracedBlock {
 public:
  /// Throws ConfigError when the kernel has no static code (release flags need it)
  /// or does not fit the renaming table.
  RfvStage(sc_core::sc_module_name name, const DesignContext& context);

  bool translates_names() const override { return true; }
  /// With serve: reads and writes at a cycle, as the stage before it sends them.
  DirectTransport direct() override;

  // IssueHook
  IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index, const WarpInst& inst,
                            uint64_t now) override;
  void issued(uint32_t slot, uint32_t cta_slot, const WarpInst& inst, uint64_t now) override;
  void cta_launched(uint32_t cta_slot, uint32_t warps, uint32_t regs_per_warp,
                    uint64_t now) override;
  void cta_finished(uint32_t cta_slot, uint64_t now) override;
  std::string wait_report() const override;
  uint64_t next_change(uint64_t now) const override;
  /// The last resort against a deadlock (seed 000 §8.1): spill the renamed registers
  /// of a waiting warp to memory; it refills them when enough registers are free.
  bool resolve_stall(uint64_t now) override;

  // ReportingBlock
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  const RenamingTableModule& renaming_table() const { return table_; }
  /// Waveform: every sub-array's power state (ON or GATED) and the free physical registers.
  void add_signals(Waveform& wave) override;
  /// The release flag cache; nullptr with hardware-only renaming (no pir to cache).
  const ReleaseFlagCacheModule* release_flag_cache() const { return flag_cache_.get(); }
  const RfvProgram& program() const { return compiled_.program; }

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  /// Per warp slot: the release metadata handled for its next instruction, and the
  /// registers its issued instruction releases after reading them.
  struct WarpState {
    uint32_t cta_slot = 0;
    uint32_t meta_index = ~0u;  ///< instruction index the fields below refer to
    uint32_t pbrs_done = 0;
    bool pir_done = false;
    std::array<uint16_t, kFlagsPerInst> release{};
    std::array<uint8_t, kFlagsPerInst> reads_left{};  ///< reads of release[k] still to come
    uint8_t release_count = 0;
    bool spilled = false;
    uint64_t fill_ready = 0;  ///< a refilled warp waits for its fill loads until then
    std::vector<std::pair<uint16_t, WarpRegister>> spill_store;  ///< spilled values
  };

  /// Frees (slot, reg)'s physical register and tells the path (Retire).
  void release(uint32_t slot, uint16_t reg, uint64_t cycle);
  /// Maps (slot, reg) for a write and tells the path (Launch); wakes its sub-array if
  /// that was gated. kNoPhysical when its bank is full.
  uint32_t allocate(uint32_t slot, uint16_t reg, uint64_t cycle);
  /// Integrates the mapped-register count, and gates or wakes the sub-array of `phys`
  /// after its occupancy changed.
  void note_occupancy(uint32_t phys, uint64_t cycle);
  /// Asks the register file to put sub-array `subarray` of `bank` into `state`.
  void set_subarray_power(uint32_t bank, uint32_t subarray, power::PowerState state,
                          uint64_t cycle);
  bool destinations_fit(uint32_t slot, const WarpInst& inst) const;
  /// The warp's pir and pbr before instruction `index`: releases, flag-cache probes and
  /// fills, decode energy. True when one of them takes this issue slot (metadata_issue =
  /// slot); with decode only, all of them are handled at once.
  bool handle_metadata(uint32_t slot, WarpState& w, const WarpInst& inst, uint64_t now);
  /// (slot, reg) is a destination whose write is in flight without a register yet
  /// (allocate_at = write).
  uint8_t& pending(uint32_t slot, uint16_t reg) {
    return pending_[size_t(slot) * table_.core().config().max_regs_per_thread + reg];
  }
  /// Sends a transaction of the stage's own down the path at `cycle`: Launch / Retire
  /// of physical registers [phys, phys + count), or a spill read / fill write of one.
  void send(RfAccessKind kind, uint32_t slot, uint16_t reg, uint32_t phys, uint32_t count,
            WarpRegister* value, uint64_t cycle);
  void launch_warp(uint16_t slot, uint16_t cta_slot, uint64_t cycle);
  void retire_warp(uint16_t slot, uint64_t cycle);
  /// Read / Write at `cycle`: name translation, lookup and wake-up delay. Returns the
  /// cycle the access goes on to the banks, or kNever when it ends here (a dead write),
  /// `ended` then the cycle it completes.
  uint64_t translate(tlm::tlm_generic_payload& payload, RfAccess& access, uint64_t cycle,
                     uint64_t& ended);
  /// A dead write ends at the stage, answered after its lookup: kNever.
  uint64_t end_here(tlm::tlm_generic_payload& payload, uint64_t cycle, uint64_t lookup_cycles,
                    uint64_t& ended);
  /// A read or a write (slot and register in range) at `cycle`: returns the cycle it
  /// completes.
  uint64_t serve_access(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle);
  friend class OperandStage;  // serving_at() calls serve_at()
  /// DirectTransport::serve: a read or a write at `cycle`, without a delay to convert;
  /// false, nothing done, for anything else, refusals included (transport() takes it).
  bool serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle, uint64_t& ready);
  static constexpr uint64_t kNever = ~uint64_t(0);
  bool refill(uint32_t slot, uint64_t now);
  /// Bits of the register balance counters.
  uint64_t balance_bits() const;

  RfvParams params_;
  CycleClock clock_;
  /// The compiler's renaming plan and release program for the kernel.
  RfvMetadata compiled_;
  RenamingTableModule table_;
  std::unique_ptr<ReleaseFlagCacheModule> flag_cache_;  ///< compiler mode only
  RegisterBalance balance_;
  std::vector<WarpState> warps_;
  StoragePower& storage_power_;
  StoragePower::Controller power_controller_ = 0;
  std::vector<bool> subarray_on_;         ///< per (bank, sub-array): powered
  std::vector<uint64_t> subarray_ready_;  ///< per (bank, sub-array): first usable cycle
  uint64_t last_power_cycle_ = 0;         ///< transitions are dated monotonically
  uint32_t warps_per_cta_ = 0;
  uint32_t last_mapped_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t latest_fill_ready_ = 0;  ///< the latest WarpState::fill_ready set (next_change)
  uint32_t regs_per_thread_ = 0;
  uint32_t spill_latency_ = 400;             ///< cycles of a warp's fill loads (mem.miss_latency)
  LocalMemoryPort* local_memory_ = nullptr;  ///< spills and fills through the memory system
  RfTransaction own_txn_;  ///< the stage's own transactions (Launch/Retire, spill/fill)
  /// Time integrals of the mapped registers and resident warps (Fig. 10's allocation).
  uint64_t mapped_cycles_ = 0, resident_warp_cycles_ = 0, occupancy_since_ = 0;
  /// Fig. 10 as the paper counts it: every physical register ever allocated, and peaks.
  std::vector<bool> touched_;
  uint64_t touched_count_ = 0, peak_allocated_ = 0, peak_baseline_ = 0;
  /// allocate_at = write: per (warp, register) a write in flight without a register
  /// (kReserved) or one a pbr found dead meanwhile (kReservedDead); per bank, how many.
  static constexpr uint8_t kReserved = 1, kReservedDead = 2;
  std::vector<uint8_t> pending_;
  std::vector<uint32_t> reserved_per_bank_;

  RfvStats stats_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId pir_decodes_, pbr_decodes_;
};

}  // namespace warpreg

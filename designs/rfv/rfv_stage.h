#pragma once
// GPU register file virtualization (seed 000) as one operand-path stage that is also
// an issue hook: the renaming table translates every register access, the release
// flag cache supplies the compiler's release flags at issue, pbr instructions
// release registers at reconvergence points, and the register balance counters
// throttle CTAs when physical registers run short. docs/blocks/rfv.md.
#include <memory>
#include <vector>

#include "common/cycle_clock.h"
#include "designs/rfv/rfv_program.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/occupancy.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/regfile_geometry.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/rfv/register_balance.h"
#include "modules/rfv/release_flag_cache.h"
#include "modules/rfv/renaming_table.h"
#include "power/energy.h"

namespace warpreg {

class Params;
struct DesignContext;

enum class RfvMode : uint8_t {
  Off,
  Compiler,  ///< release flags (pir/pbr) from the compiler: the paper's design
  Hardware   ///< hardware-only renaming: registers are released only at warp exit
};

struct RfvConfig {
  RfvMode mode = RfvMode::Off;
  uint32_t table_bytes = 1024;  ///< renaming-table budget; 0: the full table
  uint32_t lookup_cycles = 1;   ///< extra pipeline cycles of a table lookup
  bool power_gating = false;    ///< gate sub-arrays with no allocated register
  uint32_t wakeup_cycles = 1;   ///< a gated sub-array's wake-up delay
  RenamingConfig renaming;
  ReleaseFlagCacheConfig flag_cache;
  /// Reads rfv.* and the SM's sizes. Throws ParamError / ConfigError naming the option.
  static RfvConfig from(const Params& params, const SmLimits& limits,
                        const RegFileGeometry& regfile);
};

class RfvStage : public OperandStage, public IssueHook, public ReportingBlock {
 public:
  /// Throws ConfigError when the kernel has no static code (release flags need it)
  /// or does not fit the renaming table.
  RfvStage(sc_core::sc_module_name name, const RfvConfig& config, const DesignContext& context);

  bool translates_names() const override { return true; }
  bool owns_register_leakage() const override { return config_.power_gating; }

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
  std::string block_name() const override { return "rfv"; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  const RenamingTable& table() const { return table_; }
  const RfvProgram& program() const { return program_; }

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

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

  void release(uint32_t slot, uint16_t reg, uint64_t cycle);
  /// Maps (slot, reg) for a write; wakes its sub-array if that was gated.
  uint32_t allocate(uint32_t slot, uint16_t reg, uint64_t cycle);
  /// Gates or wakes the sub-array of `phys` after its occupancy changed.
  void note_occupancy(uint32_t phys, uint64_t cycle);
  uint32_t subarray_index(uint32_t phys) const {
    return RenamingTable::bank_of_physical(phys, config_.renaming.rf_banks) *
               config_.renaming.subarrays_per_bank() +
           table_.subarray_of(phys);
  }
  uint64_t lookup_delay(uint64_t cycle, uint16_t collector, uint16_t reg);
  bool destinations_fit(uint32_t slot, const WarpInst& inst) const;
  /// Reads or writes a register through the banks outside any instruction (spill/fill).
  void move_register(RfAccessKind kind, uint32_t slot, uint16_t reg, uint32_t phys,
                     WarpRegister& value, uint64_t cycle);
  bool refill(uint32_t slot, uint64_t now);

  RfvConfig config_;
  CycleClock clock_;
  RenamingTable table_;
  ReleaseFlagCache flag_cache_;
  RegisterBalance balance_;
  RfvProgram program_;
  RenamingPlan plan_;
  std::vector<WarpState> warps_;
  std::vector<bool> subarray_on_;         ///< per (bank, sub-array): powered
  std::vector<uint64_t> subarray_ready_;  ///< per (bank, sub-array): first usable cycle
  uint64_t last_power_cycle_ = 0;         ///< transitions are dated monotonically
  /// Lookups per table bank of the instruction being looked up (collector, cycle).
  std::vector<uint32_t> lookups_in_bank_;
  uint16_t lookup_collector_ = 0xffff;
  uint64_t lookup_cycle_ = ~uint64_t(0);
  static constexpr uint16_t kWritebackUnit = 0xfffe;
  uint32_t warps_per_cta_ = 0;
  uint32_t last_mapped_ = 0;
  uint32_t resident_warps_ = 0;
  uint32_t regs_per_thread_ = 0;
  uint32_t spill_latency_ = 400;  ///< cycles of a warp's fill loads (mem.miss_latency)
  RfTransaction spill_txn_;

  struct Counters {
    uint64_t released_by_pir = 0, released_by_pbr = 0, released_at_exit = 0;
    uint64_t pir_fetches = 0, pbr_fetches = 0;
    uint64_t throttled = 0, allocation_waits = 0, unwritten_reads = 0;
    uint64_t dead_writes = 0;  ///< writebacks to a register released while in flight
    uint64_t lookup_conflicts = 0;
    uint64_t wakeups = 0, wake_waits = 0;
    uint64_t spills = 0, spilled_registers = 0, fills = 0;
    uint64_t mapped_cycles = 0;         ///< sum over cycles of renamed registers mapped
    uint64_t resident_warp_cycles = 0;  ///< sum over cycles of resident warps
    uint64_t warp_instructions = 0;     ///< instructions issued (for the code increase)
    uint64_t mapped_since = 0;          ///< cycle of the last change of the mapped count
  } counters_;

  power::EnergyAccount energy_;
  power::EnergyAccount::EventId lookups_, updates_, pir_decodes_, pbr_decodes_;
  power::EnergyAccount::GroupId table_banks_;
  power::EnergyAccount::GroupId subarrays_ = 0;
};

}  // namespace warpreg

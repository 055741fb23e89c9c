#pragma once
// GPU register file virtualization (seed 000) as one operand-path stage that is also
// an issue hook: the renaming table translates every register access, the release
// flag cache supplies the compiler's release flags at issue, pbr instructions
// release registers at reconvergence points, and the register balance counters
// throttle CTAs when physical registers run short. docs/blocks/rfv.md.
#include <memory>
#include <vector>

#include "modules/common/block.h"
#include "modules/common/cycle_clock.h"
#include "modules/operand_path/operand_stage.h"
#include "modules/rfv/register_balance.h"
#include "modules/rfv/release_flag_cache.h"
#include "modules/rfv/renaming_table.h"
#include "modules/rfv/rfv_program.h"
#include "platforms/sm/issue_hook.h"
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
  RenamingConfig renaming;
  ReleaseFlagCacheConfig flag_cache;
  /// Reads rfv.* and the SM's sizes. Throws ParamError / ConfigError naming the option.
  static RfvConfig from(const Params& params, const DesignContext& context);
};

class RfvStage : public OperandStage, public IssueHook, public ReportingBlock {
 public:
  /// Throws ConfigError when the kernel has no static code (release flags need it)
  /// or does not fit the renaming table.
  RfvStage(sc_core::sc_module_name name, const RfvConfig& config, const DesignContext& context);

  bool translates_names() const override { return true; }

  // IssueHook
  IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index, const WarpInst& inst,
                            uint64_t now) override;
  void issued(uint32_t slot, uint32_t cta_slot, const WarpInst& inst, uint64_t now) override;
  void cta_launched(uint32_t cta_slot, uint32_t warps, uint32_t regs_per_warp,
                    uint64_t now) override;
  void cta_finished(uint32_t cta_slot, uint64_t now) override;
  std::string wait_report() const override;

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
  };

  void release(uint32_t slot, uint16_t reg);
  uint64_t lookup_delay(uint64_t cycle, uint16_t collector, uint16_t reg);
  bool destinations_fit(uint32_t slot, const WarpInst& inst) const;

  RfvConfig config_;
  CycleClock clock_;
  RenamingTable table_;
  ReleaseFlagCache flag_cache_;
  RegisterBalance balance_;
  RfvProgram program_;
  RenamingPlan plan_;
  std::vector<WarpState> warps_;
  /// Lookups per table bank of the instruction being looked up (collector, cycle).
  std::vector<uint32_t> lookups_in_bank_;
  uint16_t lookup_collector_ = 0xffff;
  uint64_t lookup_cycle_ = ~uint64_t(0);
  static constexpr uint16_t kWritebackUnit = 0xfffe;
  uint32_t warps_per_cta_ = 0;

  struct Counters {
    uint64_t released_by_pir = 0, released_by_pbr = 0, released_at_exit = 0;
    uint64_t pir_fetches = 0, pbr_fetches = 0;
    uint64_t throttled = 0, allocation_waits = 0, unwritten_reads = 0;
    uint64_t lookup_conflicts = 0;
  } counters_;

  power::EnergyAccount energy_;
  power::EnergyAccount::EventId lookups_, updates_, pir_decodes_, pbr_decodes_;
  power::EnergyAccount::GroupId table_banks_;
};

}  // namespace warpreg

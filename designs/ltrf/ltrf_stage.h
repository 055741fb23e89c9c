#pragma once
// LTRF (seed 004) on the operand path: the assembly of its blocks in front of the SM's
// register file, which it makes the main register file (docs/blocks/ltrf.md).
//
//   collectors -> ... -> ltrf -> [tric, coma] -> regfile (main RF: Table 2 technology)
//                         |- address_allocation_unit (per-warp and global units, WCB tables)
//                         |- register_file_cache     (banks, ports, narrow-crossbar links)
//
// The stage keeps the controller (LtrfCore: active pool, PREFETCH, the WCB bit-vectors)
// and answers the issue stage (IssueHook). An operand read the cache holds ends here;
// a miss, a result the cache does not take, a PREFETCH fill and a write-back go on to
// the main register file as ordinary Read and Write transactions named by phys_reg, so
// that every stage behind sees them. The main register file's banks, latency and energy
// are the platform's register file, built with the technology the design states
// (RegFileTechnology of ltrf.main_rf_config). In mode direct there is no cache: the
// stage passes every access on.
#include <memory>
#include <vector>

#include "common/cycle_clock.h"
#include "common/stat_set.h"
#include "designs/ltrf/ltrf_program.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/ltrf/address_allocation_module.h"
#include "modules/ltrf/ltrf_core.h"
#include "modules/ltrf/main_rf_config.h"
#include "modules/ltrf/register_file_cache_module.h"
#include "power/energy.h"

namespace warpreg {

struct DesignContext;

struct LtrfConfig {
  LtrfCoreConfig core;                 ///< the controller (mode Direct: none)
  RegisterFileCacheConfig cache;       ///< the register-file cache
  AddressAllocationConfig allocation;  ///< the address allocation unit
  uint32_t main_rf_config = 1;         ///< Table 2 row of the main register file
  RegFileTechnology main_rf;           ///< what the design states to the platform
  bool strands = false;  ///< prefetch units are strands (§6.6), not register-intervals
  bool caches() const { return core.mode != LtrfMode::Direct; }
  /// The controller runs: a cache, or the active pool alone (mode direct, ltrf.active_pool).
  bool controls() const { return caches() || active_pool; }
  bool active_pool = true;  ///< mode direct: the two-level active pool without a cache
  /// From the ltrf.* parameter sets and the machine. Throws ConfigError naming the option.
  static LtrfConfig from(const DesignContext& context);
};

struct LtrfStats : StatSet {
  LtrfStats() : StatSet("ltrf") {}
  Statistic<std::string> mode{this, "mode", "", "ltrf.mode of the run."};
  Statistic<uint64_t> main_rf_config{this, "main_rf_config", "configuration",
                                     "Table 2 row of the main register file.",
                                     StatSet::Combine::Mean};
  Statistic<double> main_rf_latency_multiplier{
      this, "main_rf_latency_multiplier", "x",
      "Main register-file latency relative to configuration #1 (Table 2 or the override)."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "The warp control blocks' working-set and liveness vectors."};
  Counter prefetches{this, "prefetches", "operations", "PREFETCH operations (unit starts)."};
  Counter activations{this, "activations", "warps", "Warps given a warp-offset slot."};
  Counter deactivations{this, "deactivations", "warps",
                        "Warps that left the active pool (miss, barrier, exit)."};
  Counter miss_deactivations{this, "miss_deactivations", "warps",
                             "Deactivations on a load that turned out a miss."};
  Counter fetched{this, "fetched", "registers", "Registers fetched from the main RF."};
  Counter allocated_dead{this, "allocated_dead", "registers",
                         "LTRF+: cache slots allocated without a fetch (dead registers)."};
  Counter written_back{this, "written_back", "registers",
                       "Registers written back from the cache to the main RF."};
  Counter dropped_dead{this, "dropped_dead", "registers",
                       "LTRF+: dirty but dead registers not written back."};
  Counter evicted{this, "evicted", "registers",
                  "Cache entries freed (interval change, deactivation, RFC victim)."};
  Counter read_hits{this, "read_hits", "reads", "Operand reads served by the cache."};
  Counter read_misses{this, "read_misses", "reads", "Operand reads served by the main RF."};
  Statistic<double> hit_rate{this, "hit_rate", "fraction",
                             "read_hits / (read_hits + read_misses)."};
  Counter main_reads{this, "main_reads", "accesses",
                     "Reads the stage sent to the main RF (misses, fills)."};
  Counter main_writes{this, "main_writes", "accesses",
                      "Writes the stage sent to the main RF (results, write-backs)."};
  Counter direct_writes{this, "direct_writes", "writes",
                        "Results written to the main RF (their warp not caching them)."};
  Counter unfetched_reads{this, "unfetched_reads", "reads",
                          "Reads of lanes the cache never received (liveness said dead)."};
  Statistic<double> mean_prefetch_cycles{
      this, "mean_prefetch_cycles", "cycles",
      "Mean cycles from a PREFETCH or activation to a resident working set."};
  Statistic<uint64_t> max_prefetch_cycles{this, "max_prefetch_cycles", "cycles",
                                          "Longest PREFETCH or activation.", StatSet::Combine::Max};
  Statistic<double> instructions_per_prefetch{this, "instructions_per_prefetch", "instructions",
                                              "Issued warp instructions per PREFETCH."};
  Statistic<uint64_t> intervals{this, "intervals", "intervals",
                                "Register-intervals (or strands) of the kernel.",
                                StatSet::Combine::Mean};
  Statistic<double> mean_static_interval_length{
      this, "mean_static_interval_length", "instructions",
      "Mean static instructions per register-interval (or strand)."};
};

class LtrfStage : public OperandStage,
                  public IssueHook,
                  public ReportingBlock,
                  private MainRegisterFile {
 public:
  /// Throws ConfigError when LTRF needs static code the workload lacks, or the
  /// kernel does not fit.
  LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config, const DesignContext& context);
  /// For test benches: the blocks over an explicit program.
  LtrfStage(sc_core::sc_module_name name, const LtrfConfig& config, const CycleClock& clock,
            const power::TechTable& tech, LtrfProgram program);

  // IssueHook
  IssueVerdict before_issue(uint32_t slot, uint32_t cta_slot, uint32_t index, const WarpInst& inst,
                            uint64_t now) override;
  void attach_parking(WarpParking* parking) override {
    if (core_) core_->attach_parking(parking);
  }
  bool parked_probe(uint32_t slot, uint64_t now) override { return core_->parked_probe(slot, now); }
  void issued(uint32_t slot, uint32_t cta_slot, const WarpInst& inst, uint64_t now) override;
  uint64_t next_change(uint64_t now) const override;
  std::string wait_report() const override;

  // ReportingBlock
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// The controller; nullptr in mode direct.
  const LtrfCore* core() const { return core_.get(); }
  LtrfCore* core() { return core_.get(); }

  /// With a cache: serves reads and writes at a cycle, as the stage before it sends them.
  DirectTransport direct() override;

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  // MainRegisterFile: the accesses the controller makes of the main register file.
  Read read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out,
            MainAccess access) override;
  uint64_t write(uint32_t slot, uint16_t reg, uint64_t cycle, const WarpRegister& value,
                 LaneMask mask, MainAccess access) override;
  /// The collector's transaction being served, whose buffer is `buffer` (a miss, an
  /// uncached result): it goes on itself.
  tlm::tlm_generic_payload& collectors_access(const WarpRegister& buffer) const;
  /// Prepares the stage's own transaction (a fill or a write-back) of `reg` of warp `slot`,
  /// named as the SM names the warp's registers.
  void own_access(RfAccessKind kind, WarpRegister* buffer, uint32_t slot, uint16_t reg,
                  LaneMask lanes);
  /// Sends it at `cycle`; an error response stops the run (`what` names it).
  uint64_t send_own(uint64_t cycle, const char* what);
  /// False after refusing an access the stage cannot serve (with the error response).
  bool check(tlm::tlm_generic_payload& payload, const RfAccess& a);
  /// A checked read or write at `cycle` with the cache: returns the cycle it completes.
  uint64_t serve_cached(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle);
  friend class OperandStage;  // serving_at() calls serve_at()
  /// DirectTransport::serve: a read or a write at `cycle`, without a delay to convert;
  /// false, nothing done, for any other kind (transport() takes it).
  bool serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle, uint64_t& ready);
  void pass_wake(tlm::tlm_generic_payload& payload, RfAccess& access, sc_core::sc_time& delay);

  LtrfConfig config_;
  CycleClock clock_;
  LtrfProgram program_;
  std::unique_ptr<AddressAllocationModule> allocation_;
  std::unique_ptr<RegisterFileCacheModule> cache_;
  std::unique_ptr<LtrfCore> core_;
  /// Mode direct with the active pool: the pool's slots, with no cache behind them.
  std::unique_ptr<AddressAllocationCore> pool_slots_;
  std::unique_ptr<RegisterFileCacheCore> no_cache_;
  LtrfCore::Counters direct_;  ///< mode direct: the accesses passed on
  /// Per warp: the instruction it was last asked about (a warp asks every cycle), looked
  /// up once in the program.
  struct AskedPc {
    uint64_t pc = ~uint64_t(0);
    uint32_t index = PcIndex::kNone;  ///< in the program
    uint32_t interval = kNoInterval;
    bool header = false;
  };
  std::vector<AskedPc> asked_;
  /// Per warp: the first physical register of its range (from its Launch) and CTA slot,
  /// to name the stage's own accesses as the SM names the warp's.
  std::vector<uint32_t> phys_base_;
  std::vector<uint16_t> cta_of_;
  tlm::tlm_generic_payload* current_ = nullptr;  ///< the collector's access being served
  RfAccess* current_access_ = nullptr;           ///< its RfAccess
  RfTransaction own_;
  WarpRegister write_back_;
  uint64_t issued_instructions_ = 0;
  power::EnergyAccount energy_;
  LtrfStats stats_;
};

}  // namespace warpreg

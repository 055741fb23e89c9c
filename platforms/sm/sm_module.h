#pragma once
// The SM as a SystemC module: one thread runs the SmCore loosely timed, in
// quanta of sim.quantum_cycles, skipping idle spans; register-file accesses
// leave as TLM transactions on rf_socket with the access cycle annotated. With a memory
// system (mem.model = memory_system) loads and stores leave through the load/store unit
// as memory requests on memory_socket(), bound to the SM's L1, and constant loads on
// constant_socket(), bound to its constant cache.
#include <tlm_utils/simple_initiator_socket.h>

#include <chrono>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/waveform.h"
#include "modules/operand_path/crossbar.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/load_store_unit.h"
#include "platforms/sm/sm_core.h"
#include "power/energy.h"

namespace warpreg {

/// What the operand collectors report besides energy (stats.json blocks.collectors).
struct CollectorStats : StatSet {
  CollectorStats() : StatSet("collectors") {}
  Statistic<uint64_t> allocations{this, "allocations", "instructions",
                                  "Collector units assigned to issued instructions."};
  Statistic<uint64_t> dispatches{this, "dispatches", "instructions",
                                 "Instructions dispatched from collectors to execution units."};
};

class SmModule : public sc_core::sc_module,
                 public OperandPort,
                 public RequestPort,
                 public ReportingBlock,
                 public TracedBlock {
 public:
  using MemorySocket = tlm_utils::simple_initiator_socket<SmModule>;
  tlm_utils::simple_initiator_socket<SmModule> rf_socket;

  /// With `memory` the SM has a load/store unit and a memory socket (which the platform
  /// must bind); without, loads take the probability model's latencies.
  SmModule(sc_core::sc_module_name name, const SmConfig& config, Workload& workload,
           ShadowRegisterFile& shadow, const power::TechTable& tech, const CycleClock& clock,
           uint64_t quantum_cycles, uint64_t max_cycles, const LoadStoreConfig* memory = nullptr);

  /// The socket towards the L1 (nullptr without a memory system).
  MemorySocket* memory_socket() { return memory_socket_.get(); }
  /// The socket towards the constant cache: constant loads (nullptr without a memory system).
  MemorySocket* constant_socket() { return constant_socket_.get(); }
  /// The load/store unit (nullptr without a memory system).
  const LoadStoreUnit* load_store_unit() const { return load_store_unit_.get(); }
  LoadStoreUnit* load_store_unit() { return load_store_unit_.get(); }

  SmCore& core() { return core_; }
  const SmCore& core() const { return core_; }
  /// Cycle at which the run ended.
  uint64_t end_cycle() const { return end_cycle_; }
  bool hit_max_cycles() const { return hit_max_cycles_; }

  /// Called once per simulated cycle while a waveform is written (forces a quantum of 1).
  void set_cycle_hook(std::function<void(uint64_t)> hook) {
    cycle_hook_ = std::move(hook);
    quantum_ = 1;
  }
  /// Called before every step of the core with the cycle about to run (nothing changes
  /// between steps), without forcing a quantum: for time series.
  void set_step_observer(std::function<void(uint64_t)> observer) {
    step_observer_ = std::move(observer);
  }
  void set_progress(bool on) { progress_ = on; }
  /// Warp and scheduler signals (--trace-signals): instructions issued in the cycle,
  /// resident warps, warps at a barrier, instructions in flight, busy collectors.
  void add_signals(Waveform& wave) override;

  /// Before the run: rf_socket is bound to `crossbar`, and the crossbar straight to
  /// `banks` (no stage between them; SmNode knows). Reads and writes then go to the
  /// banks without the two socket hops, as through a DMI pointer, with the same timing,
  /// energy and statistics; anything the banks would refuse or log still takes the sockets.
  void use_direct_banks(Crossbar& crossbar, RegisterFileModule& banks) {
    direct_crossbar_ = &crossbar;
    direct_banks_ = &banks;
  }

  /// Before the run: rf_socket is bound to `crossbar` (SmNode knows). Accesses that do
  /// not go to the banks directly then go to Crossbar::carry_at (a first stage that serves
  /// them at their cycle) or Crossbar::carry, without the socket hop and the crossbar's
  /// payload check, which the core's RfTransaction payloads always pass (well formed by
  /// construction), with the same timing and payload.
  void use_direct_path(Crossbar& crossbar) { direct_path_ = &crossbar; }

  uint64_t access(RfTransaction& txn, uint64_t cycle) override;
  uint64_t send(memory::MemTransaction& txn, uint64_t cycle, uint64_t& accepted) override;

  std::string block_name() const override { return "collectors"; }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  void run();
  void advance_to(uint64_t cycle);
  /// Ends the run with status tlm_error: the operand path refused `txn` (out of line: the
  /// message is built only then).
  [[gnu::noinline, gnu::cold]] void refused(RfTransaction& txn);
  void report_progress(uint64_t now, bool final);

  CycleClock clock_;
  SmCore core_;
  uint64_t quantum_;
  uint64_t max_cycles_;
  uint64_t synced_cycle_ = 0;  ///< the cycle SystemC time stands at
  uint64_t end_cycle_ = 0;
  bool hit_max_cycles_ = false;
  bool progress_ = false;
  std::function<void(uint64_t)> cycle_hook_;
  std::function<void(uint64_t)> step_observer_;
  SmCore::Activity activity_;               ///< the core's activity at activity_cycle_
  uint64_t activity_cycle_ = ~uint64_t(0);  ///< (waveform signals only)
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_progress_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId buffer_writes_, buffer_reads_;
  uint32_t collector_units_;
  CollectorStats stats_;
  int log_verbosity_;  ///< --log sm=LEVEL (modules/interfaces/log.h)
  std::unique_ptr<MemorySocket> memory_socket_;
  std::unique_ptr<MemorySocket> constant_socket_;
  std::unique_ptr<LoadStoreUnit> load_store_unit_;
  Crossbar* direct_crossbar_ = nullptr;  ///< see use_direct_banks
  RegisterFileModule* direct_banks_ = nullptr;
  Crossbar* direct_path_ = nullptr;  ///< see use_direct_path
};

}  // namespace warpreg

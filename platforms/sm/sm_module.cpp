#include "platforms/sm/sm_module.h"

#include <cstdio>

#include "modules/interfaces/log.h"
#include "modules/memory/mem_timing.h"
#include "power/tech_scaling.h"

namespace warpreg {

WARPREG_REGISTER_STATS(CollectorStats);

SmModule::SmModule(sc_core::sc_module_name name, const SmConfig& config, Workload& workload,
                   ShadowRegisterFile& shadow, const power::TechTable& tech,
                   const CycleClock& clock, uint64_t quantum_cycles, uint64_t max_cycles,
                   const LoadStoreConfig* memory)
    : sc_core::sc_module(name),
      rf_socket("rf_socket"),
      clock_(clock),
      core_(config, workload, *this, shadow),
      quantum_(quantum_cycles),
      max_cycles_(max_cycles),
      energy_("collectors", clock.ns_per_cycle()),
      collector_units_(config.collectors[0] + config.collectors[1] + config.collectors[2]),
      log_verbosity_(LogLevels::of(this->name())) {
  buffer_writes_ =
      energy_.add_event("operand_writes", "operands written into collector buffers (128 B each)",
                        power::scaled(tech, "collector_write", "access_bytes", kWarpRegisterBytes));
  buffer_reads_ = energy_.add_event(
      "operand_reads", "operands read out of collector buffers at dispatch (128 B each)",
      power::scaled(tech, "collector_read", "access_bytes", kWarpRegisterBytes));
  if (memory) {
    memory_socket_ = std::make_unique<MemorySocket>("memory_socket");
    constant_socket_ = std::make_unique<MemorySocket>("constant_socket");
    load_store_unit_ = std::make_unique<LoadStoreUnit>(*memory, workload, *this);
    core_.attach_memory(load_store_unit_.get());
  }
  SC_HAS_PROCESS(SmModule);
  SC_THREAD(run);
}

uint64_t SmModule::send(memory::MemTransaction& txn, uint64_t cycle, uint64_t& accepted) {
  sc_core::sc_time delay = clock_.cycles(cycle - synced_cycle_);
  MemorySocket& socket =
      txn.request().space == memory::MemSpace::Constant ? *constant_socket_ : *memory_socket_;
  socket->b_transport(txn.payload(), delay);
  if (txn.payload().is_response_error())
    SC_REPORT_FATAL("warpreg/sm",
                    ("memory request failed: " + txn.payload().get_response_string()).c_str());
  // Both times may fall between two SM edges (the memory blocks have their own clocks).
  accepted = std::max(cycle, memory::cycle_not_before(clock_, txn.request().accepted));
  return memory::cycle_not_before(clock_, sc_core::sc_time_stamp() + delay);
}

uint64_t SmModule::access(RfTransaction& txn, uint64_t cycle) {
  // Each operand read fills a collector buffer and leaves it at dispatch; counted here
  // so that time series see the collectors' energy as it is spent.
  const RfAccess& a = txn.access();
  if (a.kind == RfAccessKind::Read) {
    energy_.count(buffer_writes_);
    energy_.count(buffer_reads_);
  }
  // The direct path needs the kernel time at this SM's synced cycle, as the banks'
  // conversion of the annotated delay assumes (it always is: the SM only waits there).
  uint64_t ready = 0;
  if (direct_banks_ && clock_.now_ticks() == synced_cycle_ * clock_.ticks_per_cycle() &&
      direct_banks_->serve_direct(
          a, txn.payload().get_data_ptr() != nullptr ? &register_of(txn.payload()) : nullptr, cycle,
          ready)) {
    if (a.kind == RfAccessKind::Read || a.kind == RfAccessKind::Write)
      direct_crossbar_->count_transfer(kWarpRegisterBytes);
    return ready;
  }
  // The first stage may serve the access at its cycle (DirectTransport::serve), with the
  // same condition on the kernel time.
  if (direct_path_ && clock_.now_ticks() == synced_cycle_ * clock_.ticks_per_cycle() &&
      direct_path_->carry_at(txn.payload(), txn.access(), clock_, cycle, ready)) {
    if (txn.payload().is_response_error()) refused(txn);
    return ready;
  }
  sc_core::sc_time delay = clock_.cycles(cycle - synced_cycle_);
  if (direct_path_)
    direct_path_->carry(txn.payload(), txn.access(), delay);
  else
    rf_socket->b_transport(txn.payload(), delay);
  if (txn.payload().is_response_error()) refused(txn);
  return clock_.cycle_of(delay) + synced_cycle_;
}

void SmModule::refused(RfTransaction& txn) {
  // A refusal on the operand path (a block's warning names the block and the fault) ends
  // the run with status tlm_error, as a failed integrity check does: no abort.
  core_.fail("tlm_error", std::string(name()) + ": a register " +
                              std::string(to_string(txn.access().kind)) + " of warp slot " +
                              std::to_string(txn.access().warp_slot) + " was refused with " +
                              txn.payload().get_response_string());
}

void SmModule::advance_to(uint64_t cycle) {
  if (cycle > synced_cycle_) {
    sc_core::wait(clock_.cycles(cycle - synced_cycle_));
    synced_cycle_ = cycle;
  }
}

void SmModule::report_progress(uint64_t now, bool final) {
  const auto t = std::chrono::steady_clock::now();
  if (!final && t - last_progress_ < std::chrono::milliseconds(500)) return;
  if (!final && t - started_ < std::chrono::seconds(2)) return;
  last_progress_ = t;
  const SmCore::Counters& c = core_.counters();
  std::fprintf(
      stderr, "\r[warpreg] cycle %llu, %llu warp instructions, CTA %llu of %u%s",
      static_cast<unsigned long long>(now), static_cast<unsigned long long>(c.warp_instructions),
      static_cast<unsigned long long>(c.ctas_launched), core_.kernel().ctas, final ? "\n" : "");
}

void SmModule::add_signals(Waveform& wave) {
  const std::string prefix = "sm.";
  wave.add_count(prefix + "issued", 8, [this] { return core_.counters().warp_instructions; });
  // The core scans its warps once per traced cycle for the four signals below.
  const auto field = [this](uint32_t SmCore::Activity::*member) {
    return [this, member](uint64_t cycle) {
      if (cycle != activity_cycle_) {
        activity_ = core_.activity();
        activity_cycle_ = cycle;
      }
      return activity_.*member;
    };
  };
  wave.add(prefix + "resident_warps", 8, field(&SmCore::Activity::resident_warps));
  wave.add(prefix + "warps_at_barrier", 8, field(&SmCore::Activity::warps_at_barrier));
  wave.add(prefix + "instructions_in_flight", 16, field(&SmCore::Activity::instructions_in_flight));
  wave.add(prefix + "busy_collectors", 8, field(&SmCore::Activity::busy_collectors));
}

void SmModule::run() {
  started_ = last_progress_ = std::chrono::steady_clock::now();
  uint64_t now = 0;
  uint64_t steps = 0;
  if (log_verbosity_ >= sc_core::SC_LOW)
    log_message(name(), sc_core::SC_LOW,
                "kernel " + core_.kernel().name + ": " + std::to_string(core_.kernel().ctas) +
                    " CTAs, " + std::to_string(core_.occupancy().ctas) + " resident (" +
                    core_.occupancy().limiter + " limits)");
  for (;;) {
    if (step_observer_) step_observer_(now);
    const uint64_t next = core_.step(now);
    // The hook sees cycle `now` after every access of that cycle was made.
    if (cycle_hook_) cycle_hook_(now);
    if (next == SmCore::kNever) break;
    if (max_cycles_ != 0 && next >= max_cycles_) {
      hit_max_cycles_ = true;
      now = max_cycles_;
      break;
    }
    if (cycle_hook_) {
      // Trace every cycle in between so the waveform shows idle spans too.
      for (uint64_t c = now + 1; c < next; ++c) {
        advance_to(c);
        cycle_hook_(c);
      }
    }
    now = next;
    if (now - synced_cycle_ >= quantum_) advance_to(now);
    if ((++steps & 0xffff) == 0) {
      if (progress_) report_progress(now, false);
      if (log_verbosity_ >= sc_core::SC_MEDIUM)
        log_message(name(), sc_core::SC_MEDIUM,
                    "cycle " + std::to_string(now) + ": " +
                        std::to_string(core_.counters().warp_instructions) +
                        " warp instructions, " + std::to_string(core_.counters().ctas_launched) +
                        " CTAs launched");
    }
  }
  if (core_.done()) now = core_.counters().last_cycle;
  end_cycle_ = now;
  advance_to(now);
  if (log_verbosity_ >= sc_core::SC_LOW)
    log_message(name(), sc_core::SC_LOW,
                "finished at cycle " + std::to_string(now) + " after " +
                    std::to_string(core_.counters().warp_instructions) + " warp instructions" +
                    (core_.failed() ? " (" + core_.failure_kind() + ")" : std::string()));
  if (progress_ && std::chrono::steady_clock::now() - started_ >= std::chrono::seconds(2))
    report_progress(now, true);
}

nlohmann::json SmModule::stats(uint64_t end_cycle) {
  const SmCore::Counters& c = core_.counters();
  // Reads the core counted but no access carried (none on the shipped platform).
  for (const auto event : {buffer_writes_, buffer_reads_})
    if (c.operand_reads > energy_.events(event))
      energy_.count(event, c.operand_reads - energy_.events(event));
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  j["storage_bits"] = uint64_t(collector_units_) * kMaxSrc * kWarpRegisterBytes * 8;
  stats_.allocations.set(c.collector_allocations);
  stats_.dispatches.set(c.dispatches);
  stats_.write(j);
  return j;
}

nlohmann::json SmModule::describe() const {
  const Occupancy& occ = core_.occupancy();
  const SmConfig& c = core_.config();
  return {{"storage_bits",
           {{"operand_buffers", uint64_t(collector_units_) * kMaxSrc * kWarpRegisterBytes * 8}}},
          {"units", collector_units_},
          {"operands_per_unit", kMaxSrc},
          {"ports",
           {{"collectors",
             {{"sp", c.collectors[0]}, {"sfu", c.collectors[1]}, {"mem", c.collectors[2]}}},
            {"execution_units",
             {{"sp", c.exec_units[0]}, {"sfu", c.exec_units[1]}, {"mem", c.exec_units[2]}}},
            {"issue", {{"schedulers", c.schedulers}, {"width_per_scheduler", c.issue_width}}}}},
          {"latency_cycles",
           {{"alu", c.alu_latency},
            {"sfu", c.sfu_latency},
            {"sfu_interval", c.sfu_interval},
            {"branch", c.branch_latency},
            {"store", c.store_latency},
            {"load_hit", c.mem_hit_latency},
            {"load_miss", c.mem_miss_latency}}},
          {"occupancy",
           {{"ctas", occ.ctas},
            {"warps", occ.warps()},
            {"regs_per_thread", occ.regs_per_thread},
            {"limiter", occ.limiter}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

#pragma once
// Parameters of the SM platform, each declared once here as a typed member. Defaults are
// the Fermi-like SM all five seeds evaluate on (GPGPU-Sim 3.x GTX480 configuration).
#include "common/param_set.h"
#include "modules/scheduler/warp_scheduler.h"

namespace warpreg {

namespace sm_source {
inline constexpr const char* kFermi =
    "GPGPU-Sim 3.x GTX480 (Fermi) configuration; seeds 000-004 baseline";
inline constexpr const char* kModel = "warpreg";
}  // namespace sm_source

/// Occupancy limits and issue (sm.*).
struct SmParams : ParamSet {
  explicit SmParams(const Params* values = nullptr) : ParamSet("sm", values) {}
  Param<uint32_t> max_warps{
      this, "max_warps", 48, {1, 64}, "warps", "Hardware warp slots per SM.", sm_source::kFermi};
  Param<uint32_t> max_threads{this,
                              "max_threads",
                              1536,
                              {32, 4096},
                              "threads",
                              "Resident threads per SM.",
                              sm_source::kFermi};
  Param<uint32_t> max_ctas{
      this, "max_ctas", 8, {1, 32}, "CTAs", "Resident CTAs per SM.", sm_source::kFermi};
  Param<uint32_t> shared_mem_bytes{this,
                                   "shared_mem_bytes",
                                   49152,
                                   {0, 1 << 20},
                                   "bytes",
                                   "Shared memory per SM available to resident CTAs.",
                                   sm_source::kFermi};
  Param<uint32_t> registers{this,
                            "registers",
                            32768,
                            {32, 1 << 22},
                            "32-bit registers",
                            "Register file capacity per SM (32768 = 128 KB = 1024 warp registers).",
                            sm_source::kFermi};
  Param<uint32_t> reg_alloc_granularity{
      this,
      "reg_alloc_granularity",
      4,
      {1, 64},
      "registers",
      "Registers per thread are rounded up to a multiple of this when a CTA is allocated "
      "(GPGPU-Sim rounds to 4).",
      sm_source::kFermi};
  Param<uint32_t> schedulers{this,
                             "schedulers",
                             2,
                             {1, 8},
                             "schedulers",
                             "Warp schedulers per SM; warp slot w belongs to scheduler w mod N.",
                             sm_source::kFermi};
  Param<uint32_t> issue_width{this,
                              "issue_width",
                              1,
                              {1, 4},
                              "instructions/cycle",
                              "Warp instructions each scheduler may issue per cycle.",
                              sm_source::kFermi};
  Choice<SchedulerPolicy> scheduler{
      this,
      "scheduler",
      SchedulerPolicy::Gto,
      {{"gto", SchedulerPolicy::Gto},
       {"lrr", SchedulerPolicy::Lrr},
       {"two_level", SchedulerPolicy::TwoLevel}},
      "Warp scheduling policy: greedy-then-oldest, loose round-robin, or two-level (an active "
      "ready queue refilled from a pending pool).",
      sm_source::kFermi};
  Param<uint32_t> ready_queue{this,
                              "ready_queue",
                              8,
                              {1, 64},
                              "warps",
                              "Two-level scheduler: warps in each scheduler's active ready queue.",
                              "Gebhart et al. ISCA'11 two-level scheduler; seed 002 §5 uses 6-8"};
};

/// Operand collector units per instruction type (collector.*).
struct CollectorParams : ParamSet {
  explicit CollectorParams(const Params* values = nullptr) : ParamSet("collector", values) {}
  Param<uint32_t> sp{this,
                     "sp",
                     6,
                     {1, 64},
                     "units",
                     "Operand collector units for ALU and branch instructions.",
                     sm_source::kFermi};
  Param<uint32_t> sfu{this,
                      "sfu",
                      8,
                      {1, 64},
                      "units",
                      "Operand collector units for SFU instructions.",
                      sm_source::kFermi};
  Param<uint32_t> mem{this,
                      "mem",
                      2,
                      {1, 64},
                      "units",
                      "Operand collector units for load/store instructions.",
                      sm_source::kFermi};
};

/// Execution pipelines and latencies (exec.*).
struct ExecParams : ParamSet {
  explicit ExecParams(const Params* values = nullptr) : ParamSet("exec", values) {}
  Param<uint32_t> sp_units{this,
                           "sp_units",
                           2,
                           {1, 16},
                           "units",
                           "SP pipelines fed by the collectors.",
                           sm_source::kFermi};
  Param<uint32_t> sfu_units{
      this, "sfu_units", 1, {1, 16}, "units", "SFU pipelines.", sm_source::kFermi};
  Param<uint32_t> mem_units{
      this, "mem_units", 1, {1, 16}, "units", "Load/store pipelines.", sm_source::kFermi};
  Param<uint32_t> alu_latency{this,
                              "alu_latency",
                              4,
                              {1, 1000},
                              "cycles",
                              "ALU result latency.",
                              "GPGPU-Sim GTX480 ptx_opcode_latency_int (add)"};
  Param<uint32_t> sfu_latency{this,
                              "sfu_latency",
                              20,
                              {1, 1000},
                              "cycles",
                              "SFU result latency.",
                              "model default, Fermi-like"};
  Param<uint32_t> sfu_interval{this,
                               "sfu_interval",
                               8,
                               {1, 64},
                               "cycles",
                               "Cycles an SFU pipeline is busy per warp instruction (4 SFU lanes "
                               "per Fermi SM: 32 lanes take 8 cycles).",
                               "Fermi whitepaper: 4 SFUs per SM"};
  Param<uint32_t> branch_latency{this,
                                 "branch_latency",
                                 4,
                                 {1, 1000},
                                 "cycles",
                                 "Branch, barrier and exit latency.",
                                 sm_source::kFermi};
  Param<uint32_t> store_latency{
      this,
      "store_latency",
      4,
      {1, 1000},
      "cycles",
      "Cycles a store occupies before it retires (stores write no register).",
      sm_source::kFermi};
};

/// How loads and stores are timed.
enum class MemoryModel : uint8_t {
  Probability,   ///< a seeded hit-or-miss draw per load, fixed latencies, no bandwidth
  MemorySystem,  ///< addresses, coalescing, L1, interconnect, L2 and DRAM (docs/memory.md)
};

/// The memory model of loads and stores (mem.*).
struct MemParams : ParamSet {
  explicit MemParams(const Params* values = nullptr) : ParamSet("mem", values) {}
  Choice<MemoryModel> model{
      this,
      "model",
      MemoryModel::Probability,
      {{"probability", MemoryModel::Probability}, {"memory_system", MemoryModel::MemorySystem}},
      "probability: a load hits the L1 with probability mem.hit_rate and takes mem.hit_latency "
      "or mem.miss_latency cycles, stores take exec.store_latency, no bandwidth or sharing (the "
      "shipped single-SM figures); memory_system: loads and stores carry addresses, coalesce per "
      "warp and go through the SM's L1, the interconnect, the L2 slices and the DRAM channels "
      "(l1.*, icnt.*, l2.*, dram.*; docs/memory.md).",
      "warpreg (issue 16)"};
  Param<double> hit_rate{this,
                         "hit_rate",
                         0.75,
                         {0, 1},
                         "fraction",
                         "mem.model = probability: probability that a load hits in L1 (seeded, "
                         "deterministic).",
                         "model default; Fermi-class L1 hit rates of the seeds' workloads"};
  Param<uint32_t> hit_latency{this,
                              "hit_latency",
                              28,
                              {1, 100000},
                              "cycles",
                              "mem.model = probability: load latency on an L1 hit. The memory "
                              "system's L1 takes l1.latency instead (docs/memory.md, 'Latencies').",
                              "GPGPU-Sim GTX480 L1 hit latency (approx.)"};
  Param<uint32_t> miss_latency{this,
                               "miss_latency",
                               400,
                               {1, 100000},
                               "cycles",
                               "mem.model = probability: load latency on an L1 miss.",
                               "model default: DRAM round trip of a Fermi-class GPU"};
  Param<uint32_t> local_lines{
      this,
      "local_lines",
      128,
      {0, 1u << 20},
      "lines",
      "128-byte local-memory lines (a warp's spill slot) the L1 keeps, least recently used "
      "first out: a spill store allocates its line, a fill load hits when its line is kept "
      "(compiler spill code; other loads use mem.hit_rate). 0: every fill misses.",
      "GPGPU-Sim GTX480: 16 KB L1D (-gpgpu_cache:dl1 32:128:4) = 128 lines; local memory is "
      "written back and allocated in L1, global stores are not"};
};

/// Simulation control (sim.*).
struct SimParams : ParamSet {
  explicit SimParams(const Params* values = nullptr) : ParamSet("sim", values) {}
  Param<uint64_t> seed{this,
                       "seed",
                       1,
                       {0, 4294967295.0},
                       "",
                       "Seed of every random choice (memory model, synthetic workload).",
                       sm_source::kModel};
  Param<uint64_t> watchdog_cycles{this,
                                  "watchdog_cycles",
                                  100000,
                                  {100, 1e12},
                                  "cycles",
                                  "End the run with a report of every warp's state when no warp "
                                  "instruction retires for this many cycles.",
                                  sm_source::kModel};
  Param<uint64_t> max_cycles{this,
                             "max_cycles",
                             0,
                             {0, 1e15},
                             "cycles",
                             "Stop after this many cycles (0: run to completion).",
                             sm_source::kModel};
  Param<uint64_t> quantum_cycles{this,
                                 "quantum_cycles",
                                 1024,
                                 {1, 1 << 20},
                                 "cycles",
                                 "Loosely-timed quantum: the SM synchronises with SystemC time at "
                                 "most this often.",
                                 sm_source::kModel};
  Param<double> clock_mhz{this,
                          "clock_mhz",
                          1400,
                          {1, 10000},
                          "MHz",
                          "SM clock; converts cycles to time for leakage energy.",
                          "GTX480 shader clock (GPGPU-Sim gtx480 config)"};
};

}  // namespace warpreg

// Parameters of the baseline SM platform. Defaults are the Fermi-like SM all
// five seeds evaluate on (GPGPU-Sim 3.x GTX480 configuration).
#include "common/params.h"

namespace warpreg {

namespace {
constexpr const char* kFermi = "GPGPU-Sim 3.x GTX480 (Fermi) configuration; seeds 000-004 baseline";

// Most defaults here are the Fermi baseline's; the others name their source.
ParamSpec fermi_int(const char* name, int64_t def, double min, double max, const char* unit,
                    const char* description, const char* source = kFermi) {
  return int_param(name, def, min, max, unit, description, source);
}
ParamSpec fermi_choice(const char* name, const char* def, std::vector<std::string> choices,
                       const char* description, const char* source = kFermi) {
  return choice_param(name, def, std::move(choices), description, source);
}

}  // namespace

static void declare_platform_params(std::vector<ParamSpec>& out) {
  // Occupancy limits.
  out.push_back(fermi_int("sm.max_warps", 48, 1, 64, "warps", "Hardware warp slots per SM."));
  out.push_back(fermi_int("sm.max_threads", 1536, 32, 4096, "threads", "Resident threads per SM."));
  out.push_back(fermi_int("sm.max_ctas", 8, 1, 32, "CTAs", "Resident CTAs per SM."));
  out.push_back(fermi_int("sm.shared_mem_bytes", 49152, 0, 1 << 20, "bytes",
                          "Shared memory per SM available to resident CTAs."));
  out.push_back(fermi_int("sm.registers", 32768, 32, 1 << 22, "32-bit registers",
                          "Register file capacity per SM (32768 = 128 KB = 1024 warp registers)."));
  out.push_back(fermi_int("sm.reg_alloc_granularity", 4, 1, 64, "registers",
                          "Registers per thread are rounded up to a multiple of this when a CTA "
                          "is allocated (GPGPU-Sim rounds to 4)."));
  // Issue.
  out.push_back(fermi_int("sm.schedulers", 2, 1, 8, "schedulers",
                          "Warp schedulers per SM; warp slot w belongs to scheduler w mod N."));
  out.push_back(fermi_int("sm.issue_width", 1, 1, 4, "instructions/cycle",
                          "Warp instructions each scheduler may issue per cycle."));
  out.push_back(fermi_choice("sm.scheduler", "gto", {"gto", "lrr", "two_level"},
                             "Warp scheduling policy: greedy-then-oldest, loose round-robin, or "
                             "two-level (an active ready queue refilled from a pending pool)."));
  out.push_back(fermi_int("sm.ready_queue", 8, 1, 64, "warps",
                          "Two-level scheduler: warps in each scheduler's active ready queue.",
                          "Gebhart et al. ISCA'11 two-level scheduler; seed 002 §5 uses 6-8"));
  // Operand collectors.
  out.push_back(fermi_int("collector.sp", 6, 1, 64, "units",
                          "Operand collector units for ALU and branch instructions."));
  out.push_back(fermi_int("collector.sfu", 8, 1, 64, "units",
                          "Operand collector units for SFU instructions."));
  out.push_back(fermi_int("collector.mem", 2, 1, 64, "units",
                          "Operand collector units for load/store instructions."));
  // Execution.
  out.push_back(
      fermi_int("exec.sp_units", 2, 1, 16, "units", "SP pipelines fed by the collectors."));
  out.push_back(fermi_int("exec.sfu_units", 1, 1, 16, "units", "SFU pipelines."));
  out.push_back(fermi_int("exec.mem_units", 1, 1, 16, "units", "Load/store pipelines."));
  out.push_back(fermi_int("exec.alu_latency", 4, 1, 1000, "cycles", "ALU result latency.",
                          "GPGPU-Sim GTX480 ptx_opcode_latency_int (add)"));
  out.push_back(fermi_int("exec.sfu_latency", 20, 1, 1000, "cycles", "SFU result latency.",
                          "model default, Fermi-like"));
  out.push_back(fermi_int("exec.sfu_interval", 8, 1, 64, "cycles",
                          "Cycles an SFU pipeline is busy per warp instruction (4 SFU lanes per "
                          "Fermi SM: 32 lanes take 8 cycles).",
                          "Fermi whitepaper: 4 SFUs per SM"));
  out.push_back(
      fermi_int("exec.branch_latency", 4, 1, 1000, "cycles", "Branch, barrier and exit latency."));
  out.push_back(fermi_int("exec.store_latency", 4, 1, 1000, "cycles",
                          "Cycles a store occupies before it retires (stores write no register)."));
  // Memory latency model for loads.
  out.push_back(real_param("mem.hit_rate", "0.75", 0, 1, "fraction",
                           "Probability that a load hits in L1 (seeded, deterministic).",
                           "model default; Fermi-class L1 hit rates of the seeds' workloads"));
  out.push_back(fermi_int("mem.hit_latency", 28, 1, 100000, "cycles", "Load latency on an L1 hit.",
                          "GPGPU-Sim GTX480 L1 hit latency (approx.)"));
  out.push_back(fermi_int("mem.miss_latency", 400, 1, 100000, "cycles",
                          "Load latency on an L1 miss.",
                          "model default: DRAM round trip of a Fermi-class GPU"));
  // Simulation control.
  out.push_back(fermi_int("sim.seed", 1, 0, 4294967295.0, "",
                          "Seed of every random choice (memory model, synthetic workload).",
                          "warpreg"));
  out.push_back(fermi_int("sim.watchdog_cycles", 100000, 100, 1e12, "cycles",
                          "End the run with a report of every warp's state when no warp "
                          "instruction retires for this many cycles.",
                          "warpreg"));
  out.push_back(fermi_int("sim.max_cycles", 0, 0, 1e15, "cycles",
                          "Stop after this many cycles (0: run to completion).", "warpreg"));
  out.push_back(fermi_int("sim.quantum_cycles", 1024, 1, 1 << 20, "cycles",
                          "Loosely-timed quantum: the SM synchronises with SystemC time at most "
                          "this often.",
                          "warpreg"));
  out.push_back(real_param("sim.clock_mhz", "1400", 1, 10000, "MHz",
                           "SM clock; converts cycles to time for leakage energy.",
                           "GTX480 shader clock (GPGPU-Sim gtx480 config)"));
}

// platform.cpp refers to it, so that every program with an SM links these declarations.
extern const ParamRegistrar kPlatformParams;
const ParamRegistrar kPlatformParams(declare_platform_params);

}  // namespace warpreg

#pragma once
// Parameters of the memory system (mem.model = memory_system): the SM's L1 data cache
// (l1.*), the interconnect (icnt.*), the L2 slices (l2.*) and the DRAM channels (dram.*).
// Defaults are GPGPU-Sim's GTX480 configuration as docs/memory.md, "Parameters", cites
// field by field; the fields not listed here keep the config structs' defaults.
#include "common/param_set.h"
#include "modules/memory/coalescer.h"
#include "modules/memory/memory_system.h"
#include "power/energy.h"

namespace warpreg {

namespace mem_source {
inline constexpr const char* kDl1 =
    "GPGPU-Sim 3.x GTX480 -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8";
inline constexpr const char* kConst =
    "GPGPU-Sim GTX480 -gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4";
inline constexpr const char* kDl2 =
    "GPGPU-Sim 3.x GTX480 -gpgpu_cache:dl2 N:64:128:8,L:B:m:W:L,A:32:4,4:0,32";
}  // namespace mem_source

/// The SM's L1 data cache and load/store unit (l1.*).
struct L1Params : ParamSet {
  explicit L1Params(const Params* values = nullptr) : ParamSet("l1", values) {}
  Param<uint32_t> sets{this,
                       "sets",
                       32,
                       {1, 4096},
                       "sets",
                       "L1 data cache sets (a power of two; 32 x 4 ways x 128 B = 16 KB).",
                       mem_source::kDl1};
  Param<uint32_t> ways{
      this, "ways", 4, {1, 64}, "ways", "L1 data cache associativity.", mem_source::kDl1};
  Param<uint32_t> mshr_entries{this,
                               "mshr_entries",
                               32,
                               {1, 4096},
                               "MSHRs",
                               "L1 miss status holding registers.",
                               mem_source::kDl1};
  Param<uint32_t> mshr_max_merge{this,
                                 "mshr_max_merge",
                                 8,
                                 {1, 256},
                                 "requests",
                                 "Requests one L1 MSHR merges.",
                                 mem_source::kDl1};
  Param<uint32_t> latency{this,
                          "latency",
                          35,
                          {1, 10000},
                          "L1 cycles",
                          "L1 hit latency, in the L1's clock (l1.clock_mhz).",
                          "GPGPU-Sim 4.x SM2_GTX480 -gpgpu_l1_latency 35"};
  Param<double> clock_mhz{this,
                          "clock_mhz",
                          700,
                          {1, 10000},
                          "MHz",
                          "Clock of the L1 (GPGPU-Sim's core clock domain).",
                          "GPGPU-Sim 3.x GTX480 -gpgpu_clock_domains 700.0:700.0:700.0:924.0"};
  Param<uint32_t> shared_latency{
      this,
      "shared_latency",
      24,
      {1, 10000},
      "SM cycles",
      "Shared-memory access latency without bank conflicts; each further conflict pass adds "
      "one SM cycle.",
      "GPGPU-Sim 4.x SM2_GTX480 -gpgpu_smem_latency 24 (from memory, not verified)"};
  Param<bool> skip{this, "skip", false, "Global loads bypass the L1 (32-byte segments, as ld.cg).",
                   "GPGPU-Sim 4.x -gpgpu_gmem_skip_L1D 0"};
};

/// The SM's constant cache (l1c.*): read-only, 64-byte lines, misses to the L2 through
/// the SM's interconnect port.
struct L1cParams : ParamSet {
  explicit L1cParams(const Params* values = nullptr) : ParamSet("l1c", values) {}
  Param<uint32_t> sets{this,
                       "sets",
                       64,
                       {1, 4096},
                       "sets",
                       "Constant cache sets (a power of two; 64 x 2 ways x 64 B = 8 KB).",
                       mem_source::kConst};
  Param<uint32_t> ways{
      this, "ways", 2, {1, 64}, "ways", "Constant cache associativity.", mem_source::kConst};
  Param<uint32_t> latency{this,
                          "latency",
                          35,
                          {1, 10000},
                          "L1 cycles",
                          "Constant cache hit latency, in the L1's clock (l1.clock_mhz).",
                          "assumed equal to the L1's (GPGPU-Sim 4.x SM2_GTX480 "
                          "-gpgpu_l1_latency 35); GPGPU-Sim gives the constant cache no "
                          "latency of its own"};
};

/// The interconnect between the SMs and the L2 slices (icnt.*).
struct IcntParams : ParamSet {
  explicit IcntParams(const Params* values = nullptr) : ParamSet("icnt", values) {}
  Param<uint32_t> flit_bytes{this,
                             "flit_bytes",
                             32,
                             {1, 4096},
                             "bytes",
                             "Bytes per flit: each port moves one flit per interconnect cycle.",
                             "GPGPU-Sim 3.x config_fermi_islip.icnt flit_size = 32"};
  Param<uint32_t> latency{this,
                          "latency",
                          4,
                          {0, 10000},
                          "cycles",
                          "Zero-load traversal of the network, in interconnect cycles.",
                          "estimate of the one-stage butterfly of config_fermi_islip.icnt (not a "
                          "configuration value; docs/memory.md)"};
};

/// The L2 slices (l2.*): two per DRAM channel.
struct L2Params : ParamSet {
  explicit L2Params(const Params* values = nullptr) : ParamSet("l2", values) {}
  Param<uint32_t> sets{this,
                       "sets",
                       64,
                       {1, 65536},
                       "sets",
                       "Sets per L2 slice (64 x 8 ways x 128 B = 64 KB; 12 slices = 768 KB).",
                       mem_source::kDl2};
  Param<uint32_t> ways{
      this, "ways", 8, {1, 64}, "ways", "L2 slice associativity.", mem_source::kDl2};
  Param<uint32_t> mshr_entries{
      this, "mshr_entries", 32, {1, 4096}, "MSHRs", "MSHRs per L2 slice.", mem_source::kDl2};
  Param<uint32_t> latency{this,
                          "latency",
                          120,
                          {1, 10000},
                          "L2 cycles",
                          "Cycles from a slice's port to its tags (the ROP queue).",
                          "GPGPU-Sim 3.x GTX480 -rop_latency 120"};
};

/// The DRAM channels (dram.*).
struct DramParams : ParamSet {
  explicit DramParams(const Params* values = nullptr) : ParamSet("dram", values) {}
  Param<uint32_t> channels{this,
                           "channels",
                           6,
                           {1, 64},
                           "channels",
                           "DRAM channels (memory partitions), 29.568 GB/s each by default.",
                           "GPGPU-Sim 3.x GTX480 -gpgpu_n_mem 6"};
  Param<uint32_t> queue_entries{this,
                                "queue_entries",
                                16,
                                {1, 4096},
                                "requests",
                                "Scheduler queue of each channel.",
                                "GPGPU-Sim 3.x GTX480 -gpgpu_frfcfs_dram_sched_queue_size 16"};
  Param<uint32_t> controller_latency{
      this,
      "controller_latency",
      132,
      {0, 100000},
      "DRAM cycles",
      "Cycles a request spends in the controller before its bank is scheduled.",
      "GPGPU-Sim 3.x GTX480 -dram_latency 100 core cycles = 132 DRAM cycles (its comment)"};
};

/// The L1 data cache of `params`, its energies from `tech` (memory_tech).
memory::CacheConfig l1_config(const Params& params, const power::TechTable& tech);
/// The constant cache of `params`, its energies from `tech` by rules S3 and S4 from the
/// L1's (docs/power.md): the same SRAM, smaller.
memory::CacheConfig l1c_config(const Params& params, const power::TechTable& tech);
/// The shared memory system of `params` for `sms` SMs (one interconnect port each), its
/// energies from `tech` (memory_tech).
memory::MemorySystemConfig memory_system_config(const Params& params, uint32_t sms,
                                                const power::TechTable& tech);
/// The table the memory system's energies come from: the run's technology when it has
/// them (fermi40 does), else fermi40 (the paper tables rfv40, wc45, wrf32 cost the
/// register file only; docs/memory.md, "Energy").
power::TechTable memory_tech(const power::TechTable& run_tech);

}  // namespace warpreg

// Parameters of LTRF, LTRF+ and the RFC baseline (modules/ltrf, seed 004).
#include "common/params.h"

namespace warpreg {

void declare_ltrf_params(std::vector<ParamSpec>& out) {
  out.push_back(choice_param(
      "ltrf.mode", "ltrf", {"direct", "rfc", "ltrf", "ltrf-plus"},
      "Two-level register file (design ltrf): direct = no cache, every "
      "access goes to a main register file of ltrf.main_rf_config (the BL and Ideal points); "
      "rfc = hardware register-file cache without prefetching (allocate on write, FIFO); ltrf "
      "= PREFETCH of each register-interval's working set; ltrf-plus = LTRF with the liveness "
      "bit-vector (fetch and write back live registers only).",
      "seed 004 §5 'Comparison Points' (BL, RFC [19], LTRF, LTRF+, Ideal); §3-4"));
  out.push_back(choice_param(
      "ltrf.rfc_sharing", "shared", {"shared", "pool"},
      "RFC only: shared = one 16 KB cache for every resident warp, FIFO over all entries, warps "
      "displace each other's registers (the RFC of LTRF's Figure 4 and §2.3); pool = Gebhart's "
      "partition of ltrf.regs_per_interval entries per active warp with the active pool of "
      "ltrf.active_warps, flushed when a warp leaves it.",
      "seed 004 §2.3 (reasons for the 8-30 % hit rate: 'Different warps can displace each "
      "other's registers'); §5 comparison point (2), [19]"));
  out.push_back(choice_param(
      "ltrf.prefetch_unit", "interval", {"interval", "strand"},
      "What a PREFETCH covers: interval = a register-interval (Algorithms 1 and 2; a loop "
      "inside it is prefetched once); strand = LTRF with strands (§6.6): pieces of a basic "
      "block and of a register-interval that end after each load, prefetched again every "
      "time a warp reaches one (so every loop iteration).",
      "seed 004 §6.6 and Figure 14 ('LTRF (strand)'); strands of [20]"));
  out.push_back(int_param(
      "ltrf.main_rf_config", 1, 1, 7, "configuration",
      "Main register-file technology, a row of Table 2: 1 HP SRAM 1x; 2 HP SRAM 8x bank size; "
      "3 HP SRAM 8x banks; 4/5 LSTP SRAM; 6 TFET SRAM; 7 DWM. Sets the latency and power "
      "multipliers and the bank count (x rf.banks); the capacity is sm.registers (set it to 8x "
      "for #2-#7).",
      "seed 004 §2.2 Table 2"));
  out.push_back(
      real_param("ltrf.main_rf_latency_scale", "0", 0, 64, "x",
                 "Main register-file latency relative to configuration #1; 0 = Table 2's value of "
                 "ltrf.main_rf_config. For the maximum-tolerable-latency sweep.",
                 "seed 004 §6.3 (latency increased while the size is kept)"));
  out.push_back(int_param("ltrf.main_rf_base_latency", 0, 0, 64, "cycles",
                          "Main register-file access latency of configuration #1; 0 = "
                          "rf.read_latency.",
                          "assumption: the seed gives latencies relative to #1 only (Table 2)"));
  out.push_back(
      int_param("ltrf.regs_per_interval", 16, 1, 64, "registers",
                "Registers a warp may cache = register-file-cache banks (N of "
                "Algorithms 1 and 2).",
                "seed 004 Table 3 'Number of registers in a register-interval 16'; §4.1"));
  out.push_back(int_param("ltrf.active_warps", 8, 1, 64, "warps",
                          "Active warps: warp-offset slots = entries per cache bank.",
                          "seed 004 Table 3 'Number of active warps 8 per SM'; §6.4 Figure 13"));
  out.push_back(int_param("ltrf.max_regs_per_thread", 256, 1, 256, "registers",
                          "Architected registers per warp the WCB's address table and bit-vectors "
                          "cover (hardware size; sets the WCB storage).",
                          "seed 004 §4.1: 'a 256-entry table per warp'; §4.3 storage cost"));
  out.push_back(int_param("ltrf.lookup_cycles", 1, 0, 8, "cycles",
                          "Extra cycles of a WCB lookup on every cached access.",
                          "seed 004 §4.3: 'the WCB can be accessed within one extra clock cycle'"));
  out.push_back(int_param("ltrf.wcb_read_ports", 2, 1, 8, "ports",
                          "WCB read ports: an instruction with more operands looks them up over "
                          "several cycles.",
                          "seed 004 §4.1: 'we provide two read ports for each register cache "
                          "address table'"));
  out.push_back(int_param("ltrf.cache_latency", 1, 1, 16, "cycles",
                          "Register-file-cache bank access latency.",
                          "assumption: a 1 KB bank of the Table 2 #1 technology, as fast as a "
                          "baseline bank (rf.read_latency = 1)"));
  out.push_back(int_param(
      "ltrf.miss_cycles", 0, 0, 100000, "cycles",
      "A load still outstanding this long after issue counts as a data-cache miss: its warp "
      "leaves the active pool (writing back its working set) when another warp waits for a "
      "slot. 0 = 2 x mem.hit_latency.",
      "seed 004 §3.2: 'Whenever a warp encounters a long latency operation, such as a data "
      "cache miss, it becomes inactive and gets replaced by another one'; the threshold is an "
      "assumption (the SM decides hit or miss at dispatch)"));
  out.push_back(int_param("ltrf.fill_cycles", 4, 1, 64, "cycles",
                          "Cycles one register occupies the narrow main-RF-to-cache crossbar "
                          "link of its cache bank.",
                          "seed 004 §4.2 'Interconnect': 4x narrower crossbar, 'from 1 cycle to "
                          "4 cycles'"));
}

}  // namespace warpreg

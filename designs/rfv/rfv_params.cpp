// Parameters of GPU register file virtualization (modules/rfv, seed 000).
#include "common/params.h"

namespace warpreg {

void declare_rfv_params(std::vector<ParamSpec>& out) {
  out.push_back(choice_param(
      "rfv.mode", "compiler", {"compiler", "hardware"},
      "Register renaming (design rfv): compiler = the paper's design (release after "
      "the read the compiler's pir flags, and at pbr reconvergence points); hardware = "
      "hardware-only renaming, a register is mapped at its first write and kept until the warp "
      "exits (the same register count as releasing on redefinition).",
      "seed 000 §6-7 (compiler support, renaming table); §9.5 (hardware-only renaming of the "
      "NVIDIA patent [46])"));
  out.push_back(int_param("rfv.table_bytes", 1024, 0, 1 << 20, "bytes",
                          "Renaming-table budget; registers that do not fit are exempt (mapped "
                          "directly, never released). 0: the full table (every warp x every "
                          "register).",
                          "seed 000 §7.1: 'we limit the renaming table size to 1KB, which is 25% "
                          "of the full renaming table'"));
  out.push_back(
      int_param("rfv.table_banks", 4, 1, 32, "banks",
                "Renaming-table banks looked up in parallel; same-bank lookups in one "
                "cycle serialise. Register r of a warp is in bank r mod banks.",
                "seed 000 §7.1 and Table 2: 'The renaming table consists of four banks'"));
  out.push_back(int_param("rfv.lookup_cycles", 1, 0, 16, "cycles",
                          "Extra pipeline cycles of a renaming-table lookup on every renamed "
                          "register access.",
                          "seed 000 §7.1: 0.22 ns access, conservatively 'one extra cycle "
                          "pipeline latency'"));
  out.push_back(int_param("rfv.max_regs_per_thread", 63, 1, 255, "registers",
                          "Architected registers per thread the table can name (the full table "
                          "is max_warps x this x log2(physical registers) bits).",
                          "seed 000 §7.1: 'each warp can have a maximum of 63 registers'"));
  out.push_back(int_param("rfv.flag_cache_entries", 10, 0, 4096, "entries",
                          "Release flag cache entries (direct mapped, 54 flag bits each); 0: no "
                          "cache, every pir is fetched and decoded.",
                          "seed 000 §7.2: 'a release flag cache of 10 entries is sufficient'"));
  out.push_back(choice_param("rfv.power_gating", "off", {"off", "on"},
                             "Sub-array power gating: a register sub-array with no allocated "
                             "entry is gated (its leakage is rf_gated_leakage_fraction of ON) and "
                             "wakes when a register is allocated in it; the stage then accounts "
                             "the register file's leakage.",
                             "seed 000 §8.2 (sub-array level power gating of dead registers)"));
  out.push_back(int_param("rfv.wakeup_cycles", 1, 0, 1000, "cycles",
                          "Cycles a gated sub-array needs before the register allocated in it "
                          "can be written or read.",
                          "seed 000 §9.2: CACTI-P gives less than one cycle; the paper explores "
                          "1, 3 and 10 cycles"));
  out.push_back(int_param("rfv.subarrays_per_bank", 4, 1, 256, "sub-arrays",
                          "Sub-arrays per register bank: the renaming allocator fills the "
                          "lowest free entry of a bank so whole sub-arrays stay empty.",
                          "seed 000 §8.2 Figure 8 (four sub-arrays per bank in the example)"));
}

}  // namespace warpreg

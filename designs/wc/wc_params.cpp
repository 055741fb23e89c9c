// Parameters of Warped-Compression (seed 001): the BDI codec, its units and the
// bank-level power gating. Defaults from the seed's Table 2 and §4-§5.
#include "common/params.h"

namespace warpreg {

void declare_bdi_params(std::vector<ParamSpec>& out) {
  out.push_back(choice_param(
      "wc.variant", "warped", {"warped", "only_4_0", "only_4_1", "only_4_2", "original"},
      "BDI <base,delta> choices the compressor tries: warped = <4,0>, <4,1>, <4,2> (the fewest "
      "16-byte banks: 1, 3, 5); only_4_* = that single choice (Figures 15-16); original = the "
      "original BDI search over <4,0..2>, <8,0>, <8,1>, <8,2>, <8,4> and <2,1>, picking the "
      "smallest image (Figure 5; its range indicator needs 4 bits).",
      "seed 001 §4 ('we selected <4,0>, <4,1>, <4,2> as the three fixed choices'), §6.6"));
  out.push_back(int_param("wc.compressors", 2, 1, 64, "units",
                          "Compression units per SM; each is pipelined and accepts one warp "
                          "register per cycle.",
                          "seed 001 Table 2: '# Compressors 2'; §5.1"));
  out.push_back(int_param("wc.decompressors", 4, 1, 64, "units",
                          "Decompression units per SM; each is pipelined and accepts one warp "
                          "register per cycle.",
                          "seed 001 Table 2: '# Decompressors 4'; §5.1"));
  out.push_back(int_param("wc.compress_latency", 2, 0, 64, "cycles",
                          "Cycles a compression adds between the execution unit and the bank "
                          "write (non-divergent writes).",
                          "seed 001 Table 2: 'Compression Latency 2 Cycles (varied)'; Figure 20"));
  out.push_back(int_param("wc.decompress_latency", 1, 0, 64, "cycles",
                          "Cycles a decompression adds between the bank read of a compressed "
                          "register and the operand collector.",
                          "seed 001 Table 2: 'Decompression Latency 1 Cycle (varied)'; Figure 21"));
  out.push_back(bool_param("wc.bank_gating", true,
                           "Bank-level power gating: a 16-byte bank (one lane-slice column) whose "
                           "entries are all invalid is gated; a write to it wakes it.",
                           "seed 001 §5.3"));
  out.push_back(int_param("wc.wakeup_latency", 10, 0, 100000, "cycles",
                          "Cycles to wake a gated bank before a write can use it.",
                          "seed 001 Table 2: 'Bank Wakeup Latency 10 Cycles'; §5.3"));
  out.push_back(real_param("wc.unit_energy_scale", "1.0", 0, 100, "factor",
                           "Multiplies the compressor and decompressor activation energy of the "
                           "technology table (1.5, 2.0, 2.5 in Figure 17).",
                           "seed 001 §6.7, Figure 17 (1.0 = Table 3)"));
}

}  // namespace warpreg

// Parameters of the Warped Register File blocks (seed 002): TRIC, the tri-modal
// register power control, and COMA, the active-mask gating of the divided word line.
#include "common/params.h"

namespace warpreg {

void declare_wrf_params(std::vector<ParamSpec>& out) {
  out.push_back(int_param("tric.wakeup_latency", 3, 1, 16, "cycles",
                          "Cycles from the wake signal until a DROWSY register entry is ON; "
                          "the entry leaks at full Vdd while it wakes.",
                          "seed 002 §6.2: 'we assume a wakeup latency of three cycles'; Fig. 8 "
                          "evaluates 2 and 3"));
  out.push_back(int_param("tric.hidden_cycles", 1, 0, 16, "cycles",
                          "Cycles between the scheduler's wake signal and the collector's first "
                          "possible read, which hide wake-up latency.",
                          "seed 002 §4.2: 'there is a one cycle delay between when the scheduler "
                          "sends a wakeup signal to the registers and when the collector unit "
                          "starts reading'"));
  out.push_back(int_param("tric.lookahead", 0, 0, 16, "cycles",
                          "The scheduler wakes the registers of warps that will issue in the next "
                          "n cycles, hiding up to n more cycles of wake-up latency (0: the "
                          "paper's evaluated machine).",
                          "seed 002 §4.2 (look-ahead into the ready warp queue); §4.2 results "
                          "assume 'no way to hide wakeup delays beyond one cycle'"));
  out.push_back(real_param("tric.drowsy_leakage_fraction", "0.1", 0, 1, "fraction",
                           "Leakage of a DROWSY register entry relative to an ON one.",
                           "seed 002 §4, Figure 4: 'an SRAM cell in the drowsy mode consumes "
                           "less than 10% of the leakage current' (DRV + 250 mV)"));
  out.push_back(bool_param(
      "coma.bank_ports", true,
      "COMA serialises the accesses of each bank through one read and one write port, as a "
      "divided-word-line bank with one row decoder serves one register per cycle whatever "
      "the masks. false: the register file's ports per lane slice, so two reads (or writes) "
      "of one bank with disjoint active masks can share a cycle (a timing artefact of the "
      "slice model).",
      "seed 002 §5.1, Figure 6: the DWL gates word-line segments of the one row being "
      "accessed; Table 3 (16 banks, 128-byte registers)"));
}

}  // namespace warpreg

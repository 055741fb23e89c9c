#pragma once
// Parameters of the energy model (power.*), declared once here.
#include <string>

#include "common/param_set.h"

namespace warpreg {

struct PowerParams : ParamSet {
  explicit PowerParams(const Params* values = nullptr) : ParamSet("power", values) {}
  /// Keep in step with the files in power/tech (a test checks it).
  Choice<std::string> tech{
      this,
      "tech",
      "fermi40",
      {{"fermi40", "fermi40"}, {"rfv40", "rfv40"}, {"wc45", "wc45"}, {"wrf32", "wrf32"}},
      "Technology table of energy and leakage coefficients (power/tech/NAME.json): fermi40 = 40 "
      "nm, 0.96 V, one table for every block so that designs and combinations compare (seed "
      "000's CACTI values plus the scaling rules of docs/power.md; the default); the per-paper "
      "tables reproduce each paper: rfv40 = 40 nm, 0.96 V, CACTI 5.3 (register virtualization, "
      "seed 000 Table 2); wc45 = 45 nm, 1.0 V, CACTI and wire model (Warped-Compression, seed 001 "
      "Table 3); wrf32 = 32 nm, 0.9 V, PTM circuit simulation (Warped Register File, seed 002 "
      "Table 2).",
      "seeds 000-002 (see docs/power.md)"};
  Param<double> wire_mm{
      this,
      "wire_mm",
      1.0,
      {0, 100},
      "mm",
      "Wire length of the operand crossbar between the register banks and the operand "
      "collectors; every 128-bit transfer over it costs the table's crossbar_transfer (pJ/mm) "
      "times this length.",
      "seed 001 §6.1: 'the data read from the register banks travels 1 mm' (Table 3)"};
  Param<double> rf_access_scale{
      this,
      "rf_access_scale",
      1.0,
      {0, 100},
      "factor",
      "Multiplies the technology table's register-bank read and write energy (rf_bank_read, "
      "rf_bank_write) charged by the register file; 1.5, 2.0, 2.5 in the per-bank access energy "
      "study.",
      "seed 001 §6.7, Figure 18 (1.0 = Table 3)"};
};

}  // namespace warpreg

#pragma once
// The main register-file technology configurations #1-#7 of LTRF's Table 2 (seed 004
// §2.2): every number is relative to the 256 KB, 16-bank HP-SRAM register file (#1).
// LTRF makes the SM's register file the main register file of one of them: the design
// states its banks, latency and energy to the platform (RegFileTechnology).
#include <cstdint>

#include "common/param_set.h"
#include "modules/regfile/regfile_technology.h"

namespace warpreg {

struct MainRfTechnology {
  uint32_t id = 1;
  const char* cell = "";     ///< "HP SRAM", "LSTP SRAM", "TFET SRAM", "DWM"
  const char* network = "";  ///< "crossbar" or "flattened butterfly"
  uint32_t banks = 1;        ///< bank-count multiplier (1x = 16 banks)
  uint32_t bank_size = 1;    ///< bank-size multiplier (1x = 16 KB)
  double capacity = 1.0;     ///< capacity multiplier
  double area = 1.0;         ///< area multiplier
  double power = 1.0;        ///< power multiplier
  double latency = 1.0;      ///< access-latency multiplier (with bank-conflict queuing)
};

constexpr uint32_t kMainRfConfigs = 7;

/// Table 2 row `id` (1..7). Throws std::out_of_range otherwise.
const MainRfTechnology& main_rf_technology(uint32_t id);

/// The main register file's parameters (ltrf.main_rf_*).
struct MainRfParams : ParamSet {
  explicit MainRfParams(const Params* values = nullptr) : ParamSet("ltrf", values) {}
  Param<uint32_t> config{
      this,
      "main_rf_config",
      1,
      {1, kMainRfConfigs},
      "configuration",
      "Main register-file technology, a row of Table 2: 1 HP SRAM 1x; 2 HP SRAM 8x bank size; "
      "3 HP SRAM 8x banks; 4/5 LSTP SRAM; 6 TFET SRAM; 7 DWM. Sets the latency and power "
      "multipliers and the bank count (x rf.banks) of the SM's register file, which LTRF makes "
      "its main register file; the capacity is sm.registers (set it to 8x for #2-#7).",
      "seed 004 §2.2 Table 2"};
  Param<double> latency_scale{
      this,
      "main_rf_latency_scale",
      0.0,
      {0, 64},
      "x",
      "Main register-file latency relative to configuration #1; 0 = Table 2's value of "
      "ltrf.main_rf_config. For the maximum-tolerable-latency sweep.",
      "seed 004 §6.3 (latency increased while the size is kept)"};
  Choice<bool> pipelined_banks{
      this,
      "main_rf_pipelined",
      false,
      {{"off", false}, {"on", true}},
      "Whether a main register-file bank takes a new access every cycle (on) or only after the "
      "previous one's latency (off: the paper's non-pipelined banks).",
      "seed 004 §2.2: 'we first use CACTI [51] (the non-pipelined register file bank models)'"};
  Param<uint32_t> base_latency{
      this,
      "main_rf_base_latency",
      0,
      {0, 64},
      "cycles",
      "Main register-file access latency of configuration #1; 0 = rf.read_latency (reads) and "
      "rf.write_latency (writes).",
      "assumption: the seed gives latencies relative to #1 only (Table 2)"};
};

/// What the main register file of `params` is, for the platform's register file: Table 2's
/// bank multiplier, latency multiplier (or ltrf.main_rf_latency_scale), power multiplier on
/// every access and power / capacity on the leakage per byte (the 8x capacity brings the
/// capacity back).
RegFileTechnology main_rf_regfile_technology(const MainRfParams& params);

}  // namespace warpreg

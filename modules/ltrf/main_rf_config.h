#pragma once
// The main register-file technology configurations #1-#7 of LTRF's Table 2 (seed 004
// §2.2): every number is relative to the 256 KB, 16-bank HP-SRAM register file (#1).
#include <cstdint>

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

}  // namespace warpreg

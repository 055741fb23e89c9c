#include "modules/ltrf/main_rf_config.h"

#include <array>
#include <stdexcept>
#include <string>

namespace warpreg {

namespace {

// seed 004 Table 2 ("Various register file designs with different configurations"),
// columns Config., Cell Technology, #Banks, Bank Size, Network, Cap., Area, Power,
// Latency; Cap./Area and Cap./Power follow from these.
const std::array<MainRfTechnology, kMainRfConfigs> kTable2 = {{
    {1, "HP SRAM", "crossbar", 1, 1, 1.0, 1.0, 1.0, 1.0},
    {2, "HP SRAM", "crossbar", 1, 8, 8.0, 8.0, 8.0, 1.25},
    {3, "HP SRAM", "flattened butterfly", 8, 1, 8.0, 8.0, 8.0, 1.5},
    {4, "LSTP SRAM", "crossbar", 1, 8, 8.0, 8.0, 3.2, 1.6},
    {5, "LSTP SRAM", "flattened butterfly", 8, 1, 8.0, 8.0, 3.2, 2.8},
    {6, "TFET SRAM", "flattened butterfly", 8, 1, 8.0, 8.0, 1.05, 5.3},
    {7, "DWM", "flattened butterfly", 8, 1, 8.0, 0.25, 0.65, 6.3},
}};

}  // namespace

const MainRfTechnology& main_rf_technology(uint32_t id) {
  if (id < 1 || id > kMainRfConfigs)
    throw std::out_of_range("main register-file configuration #" + std::to_string(id) +
                            " is not in Table 2 (1..7)");
  return kTable2[id - 1];
}

RegFileTechnology main_rf_regfile_technology(const MainRfParams& params) {
  const MainRfTechnology& t = main_rf_technology(params.config);
  RegFileTechnology r;
  r.stated_by = "ltrf.main_rf_config = " + std::to_string(t.id) + " (LTRF main register file, " +
                t.cell + ", " + t.network + ")";
  r.bank_multiplier = t.banks;
  r.base_latency = params.base_latency;
  r.latency_multiplier = params.latency_scale > 0.0 ? params.latency_scale.get() : t.latency;
  r.access_energy_multiplier = t.power;
  r.leakage_multiplier = t.power / t.capacity;
  r.capacity_multiplier = t.capacity;
  // Seed 004 §5: the main register file's banks are not pipelined (its latency is
  // "with bank-conflict queuing"), so a bank serves one access per latency.
  r.pipelined = params.pipelined_banks;
  return r;
}

}  // namespace warpreg

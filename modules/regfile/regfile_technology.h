#pragma once
// The register file's technology as a design states it, on top of rf.*. A design that
// puts the SM's register file behind another level says so here: LTRF (seed 004) makes
// it the main register file of a Table 2 configuration, with more banks, a longer
// latency and another energy per access and leakage per byte. The platform builds the
// register file with it before any design is elaborated (DesignSpec::regfile_technology),
// so every block sees the banks and the cells the register file really has. The default
// is the identity: rf.* as they are.
#include <cstdint>
#include <string>

namespace warpreg {

struct RegFileTechnology {
  /// Who states it, for messages and describe ("ltrf.main_rf_config = 7: DWM ..."); empty:
  /// nobody (the identity).
  std::string stated_by;
  uint32_t bank_multiplier = 1;  ///< banks = rf.banks x this, the capacity unchanged
  /// Cycles the multiplier applies to, for reads and writes; 0: rf.read_latency for reads
  /// and rf.write_latency for writes.
  uint32_t base_latency = 0;
  double latency_multiplier = 1.0;        ///< latency = max(1, round(base x multiplier))
  double access_energy_multiplier = 1.0;  ///< x the energy of a bank read or write
  double leakage_multiplier = 1.0;        ///< x the leakage of a bank (of each cell)
  /// The capacity the multipliers are relative to is sm.registers / this (LTRF's Table 2 is
  /// relative to configuration #1, 8x smaller than #2-#7): the access energy of the
  /// reference is rule S3's for a bank of rf.banks over that capacity, so the energy
  /// multiplier is not applied on top of a larger bank's own growth.
  double capacity_multiplier = 1.0;
  /// A bank's port is busy for one cycle per access (pipelined) or for the whole latency.
  bool pipelined = true;

  bool stated() const { return !stated_by.empty(); }
};

}  // namespace warpreg

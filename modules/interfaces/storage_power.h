#pragma once
// The register file's storage as power-control blocks see it. Cells are (physical
// register, lane slice). A controller (RFV's sub-array gating, Warped-Compression's
// bank gating, TRIC's tri-modal entries) says what state it wants cells in; a cell
// leaks at the lowest fraction of ON leakage any controller gives it (a gated supply
// wins over a drowsy one), and the register file accounts every cell's leakage once,
// whatever designs are combined. Wake-up latencies stay with the controllers.
// Bound at elaboration: the register file implements it, designs get it through their
// DesignContext.
#include <cstdint>
#include <string>

#include "power/energy.h"

namespace warpreg {

class StoragePower {
 public:
  using Controller = uint8_t;
  /// Leakage of a cell in each state as a fraction of ON, as one controller models it.
  struct Fractions {
    double of[power::kPowerStateCount] = {1.0, 1.0, 0.0, 0.0};
  };

  virtual ~StoragePower() = default;
  /// Registers a controller before the run; in its view every cell starts in `initial`.
  virtual Controller add_controller(const std::string& name, const Fractions& fractions,
                                    power::PowerState initial) = 0;
  /// `controller` wants every lane slice of physical registers [first, first + count) in
  /// `state` from `cycle` on.
  virtual void set_registers(Controller controller, uint32_t first, uint32_t count,
                             power::PowerState state, uint64_t cycle) = 0;
  /// `controller` wants lane slices `slices` (bit mask) of every entry of `bank` in
  /// `state` from `cycle` on (a bank-column gate).
  virtual void set_bank(Controller controller, uint32_t bank, uint32_t slices,
                        power::PowerState state, uint64_t cycle) = 0;
};

}  // namespace warpreg

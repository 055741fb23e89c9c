// The register file's power map (plain C++): per-register and bank-column controllers,
// the lowest leakage winning per cell, and exact lazy residency.
#include <catch2/catch.hpp>

#include "modules/regfile/storage_power_map.h"

using namespace warpreg;
using power::PowerState;

namespace {

StoragePower::Fractions fractions(double drowsy, double off, double gated) {
  StoragePower::Fractions f;
  f.of[static_cast<unsigned>(PowerState::On)] = 1.0;
  f.of[static_cast<unsigned>(PowerState::Drowsy)] = drowsy;
  f.of[static_cast<unsigned>(PowerState::Off)] = off;
  f.of[static_cast<unsigned>(PowerState::Gated)] = gated;
  return f;
}

}  // namespace

TEST_CASE("power map: one per-register controller integrates each register's residency",
          "[regfile][power]") {
  // 8 registers x 4 slices in 2 banks.
  StoragePowerMap map(8, 4, 2);
  const auto tric = map.add_controller("tric", fractions(0.1, 0.0, 0.0), PowerState::Off);
  map.set_registers(tric, 0, 2, PowerState::Drowsy, 10);  // registers 0, 1
  map.set_registers(tric, 1, 1, PowerState::On, 20);
  map.set_registers(tric, 1, 1, PowerState::Drowsy, 25);
  map.finish(100);
  // Off: 6 registers x 100 + 2 x 10 cycles; drowsy: r0 90 + r1 (10 + 75); on: r1 5.
  CHECK(map.cell_cycles(PowerState::Off) == 4 * (6 * 100 + 2 * 10));
  CHECK(map.cell_cycles(PowerState::Drowsy) == 4 * (90 + 85));
  CHECK(map.cell_cycles(PowerState::On) == 4 * 5);
  CHECK(map.on_equivalent_cell_cycles() == Approx(4 * (5 + 0.1 * 175)));
}

TEST_CASE("power map: a bank-column gate and a register state combine to the lowest leakage",
          "[regfile][power]") {
  StoragePowerMap map(8, 4, 2);
  const auto tric = map.add_controller("tric", fractions(0.1, 0.0, 0.0), PowerState::Drowsy);
  const auto wc = map.add_controller("wc", fractions(1.0, 0.0, 0.02), PowerState::On);
  // Gate slices 1 and 2 of bank 1 (registers 1, 3, 5, 7) from cycle 0.
  map.set_bank(wc, 1, 0b0110, PowerState::Gated, 0);
  CHECK(map.state_of(3, 1) == PowerState::Gated);
  CHECK(map.state_of(3, 0) == PowerState::Drowsy);
  CHECK(map.state_of(2, 1) == PowerState::Drowsy);
  // Register 3 woken: its gated slices stay gated (0.02 < 1.0), the others are ON.
  map.set_registers(tric, 3, 1, PowerState::On, 50);
  CHECK(map.state_of(3, 0) == PowerState::On);
  CHECK(map.state_of(3, 2) == PowerState::Gated);
  map.finish(100);
  const double gated = 8 * 100;                          // 4 registers x 2 slices x 100
  const double on = 2 * 50;                              // register 3, slices 0 and 3
  const double drowsy = 8 * 4 * 100 - gated - on;        // everything else
  CHECK(map.cell_cycles(PowerState::Gated) == uint64_t(gated));
  CHECK(map.cell_cycles(PowerState::On) == uint64_t(on));
  CHECK(map.cell_cycles(PowerState::Drowsy) == uint64_t(drowsy));
  CHECK(map.on_equivalent_cell_cycles() == Approx(0.02 * gated + on + 0.1 * drowsy));
}

TEST_CASE("power map: a change dated before a cell's last change is taken at that change",
          "[regfile][power]") {
  StoragePowerMap map(2, 1, 1);
  const auto c = map.add_controller("c", fractions(0.5, 0.0, 0.0), PowerState::On);
  map.set_registers(c, 0, 1, PowerState::Drowsy, 40);
  map.set_registers(c, 0, 1, PowerState::On, 30);  // earlier than 40: no negative time
  map.finish(100);
  CHECK(map.cell_cycles(PowerState::On) == 100 + 40 + 60);
  CHECK(map.cell_cycles(PowerState::Drowsy) == 0);
}

TEST_CASE("power map: without controllers every cell is ON", "[regfile][power]") {
  StoragePowerMap map(4, 2, 2);
  CHECK_FALSE(map.controlled());
  map.finish(10);
  CHECK(map.cell_cycles(PowerState::On) == 4 * 2 * 10);
  CHECK(map.on_equivalent_cell_cycles() == Approx(80));
}

// The register file's power map (plain C++): per-register and bank-column controllers,
// the lowest leakage winning per cell, and exact lazy residency.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

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
  const double gated = 8 * 100;                    // 4 registers x 2 slices x 100
  const double on = 2 * 50;                        // register 3, slices 0 and 3
  const double drowsy = 8 * 4 * 100 - gated - on;  // everything else
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

TEST_CASE("power map: a controller added after changes keeps every cell's state",
          "[regfile][power]") {
  // Adding a controller ranks the wishes anew: each cell keeps its state, fraction and
  // counts, whatever rank they have now.
  StoragePowerMap map(4, 1, 1);
  const auto first = map.add_controller("first", fractions(0.5, 0.0, 0.0), PowerState::On);
  map.set_registers(first, 0, 1, PowerState::Drowsy, 10);
  map.add_controller("second", fractions(0.3, 0.0, 0.0), PowerState::On);
  CHECK(map.state_of(0, 0) == PowerState::Drowsy);
  CHECK(map.state_of(1, 0) == PowerState::On);
  CHECK(map.cells_in_low_power() == 1);
  CHECK(map.column_cells(0, 0, PowerState::On) == 3);
  CHECK(map.column_cells(0, 0, PowerState::Drowsy) == 1);
  map.set_registers(first, 0, 1, PowerState::On, 60);
  map.finish(100);
  CHECK(map.cell_cycles(PowerState::Drowsy) == 50);
  CHECK(map.cell_cycles(PowerState::On) == 3 * 100 + 50);
  CHECK(map.on_equivalent_cell_cycles() == Approx(3 * 100 + 50 + 0.5 * 50));
  CHECK(map.cells_in_low_power() == 0);
}

TEST_CASE("power map: without controllers every cell is ON", "[regfile][power]") {
  StoragePowerMap map(4, 2, 2);
  CHECK_FALSE(map.controlled());
  map.finish(10);
  CHECK(map.cell_cycles(PowerState::On) == 4 * 2 * 10);
  CHECK(map.on_equivalent_cell_cycles() == Approx(80));
}

TEST_CASE("power map: each cell takes the least-leakage wish, the deeper state among equals",
          "[regfile][power][property]") {
  // update() picks through ranks computed once per controller; the reference below is
  // the rule itself, one wish at a time: a wish (s, f) replaces the pick (state, best),
  // which starts at (ON, 2.0), when f < best or (f == best and s > state). Ties of
  // fraction across states and controllers, a fraction above 2, and one that is not a
  // number (never picked) are all in the mix.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double choices[] = {0.0, 0.1, 0.25, 0.25, 1.0, 2.0, 2.5, nan};
  uint64_t s = 0x9e37;
  const auto next = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  };
  for (int round = 0; round < 200; ++round) {
    const uint32_t registers = 12, slices = 1 + next() % 4, banks = 1 + next() % 3;
    StoragePowerMap map(registers, slices, banks);
    const unsigned controllers = 1 + next() % 4;
    std::vector<StoragePower::Fractions> fr(controllers);
    std::vector<std::vector<uint8_t>> regs(controllers), cols(controllers);
    for (unsigned c = 0; c < controllers; ++c) {
      for (double& f : fr[c].of) f = choices[next() % 8];
      const auto initial = static_cast<PowerState>(next() % power::kPowerStateCount);
      map.add_controller("c" + std::to_string(c), fr[c], initial);
      regs[c].assign(registers, static_cast<uint8_t>(initial));
      cols[c].assign(size_t(banks) * slices, static_cast<uint8_t>(PowerState::On));
    }
    for (int step = 0; step < 60; ++step) {
      const unsigned c = next() % controllers;
      const auto state = static_cast<PowerState>(next() % power::kPowerStateCount);
      if (next() % 3 == 0) {
        const uint32_t bank = next() % banks, mask = 1 + next() % ((1u << slices) - 1);
        map.set_bank(c, bank, mask, state, step);
        for (uint32_t sl = 0; sl < slices; ++sl)
          if ((mask >> sl) & 1u) cols[c][bank * slices + sl] = static_cast<uint8_t>(state);
      } else {
        const uint32_t first = next() % registers, count = 1 + next() % 3;
        map.set_registers(c, first, count, state, step);
        for (uint32_t r = first; r < std::min(registers, first + count); ++r)
          regs[c][r] = static_cast<uint8_t>(state);
      }
      for (uint32_t phys = 0; phys < registers; ++phys)
        for (uint32_t sl = 0; sl < slices; ++sl) {
          double best = 2.0;
          uint8_t pick = static_cast<uint8_t>(PowerState::On);
          for (unsigned k = 0; k < controllers; ++k)
            for (const uint8_t w : {regs[k][phys], cols[k][(phys % banks) * slices + sl]}) {
              const double f = fr[k].of[w];
              if (f < best || (f == best && w > pick)) {
                best = f;
                pick = w;
              }
            }
          INFO("round " << round << " step " << step << " register " << phys << " slice " << sl);
          REQUIRE(static_cast<unsigned>(map.state_of(phys, sl)) == pick);
        }
    }
  }
}

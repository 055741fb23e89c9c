#pragma once
// Scales a technology-table coefficient to the structure the model has.
#include <cmath>
#include <string>

#include "power/energy.h"

namespace warpreg::power {

/// Energy (pJ) of moving `bytes` when the table's `key` gives the energy of
/// `attribute` bytes (e.g. "access_bytes"): linear in the bytes moved.
inline double scaled(const TechTable& table, const std::string& key, const std::string& attribute,
                     double bytes) {
  return table.value(key) * bytes / table.attribute(key, attribute);
}

/// Rule S3 of docs/power.md: the energy (pJ) of accessing `bytes` of an SRAM array of
/// `array_bytes`, when the table's `key` gives the energy of `access_bytes` of an array of
/// `array_bytes` (its scaling attributes): linear in the bytes moved and with the square
/// root of the capacity, as CACTI's bitlines and wordlines grow for a square array.
/// Throws TechError naming the table and key when an attribute is missing.
inline double sram_access_pj(const TechTable& table, const std::string& key, double bytes,
                             double array_bytes) {
  return scaled(table, key, "access_bytes", bytes) *
         std::sqrt(array_bytes / table.attribute(key, "array_bytes"));
}

}  // namespace warpreg::power

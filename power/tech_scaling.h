#pragma once
// Scales a technology-table coefficient to the structure the model has.
#include <string>

#include "power/energy.h"

namespace warpreg::power {

/// Energy (pJ) of moving `bytes` when the table's `key` gives the energy of
/// `attribute` bytes (e.g. "access_bytes"): linear in the bytes moved.
inline double scaled(const TechTable& table, const std::string& key, const std::string& attribute,
                     double bytes) {
  return table.value(key) * bytes / table.attribute(key, attribute);
}

}  // namespace warpreg::power

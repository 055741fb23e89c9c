#pragma once
#include <stdexcept>

namespace warpreg {

/// A configuration that cannot be built (e.g. a register file too small for one
/// CTA); the message names the options involved.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace warpreg

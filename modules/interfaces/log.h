#pragma once
// Per-block log verbosity (--log BLOCK=LEVEL): a block asks once, at elaboration, how
// verbose it may be, and guards each message with an integer compare, so a silent block
// builds no strings. Messages go through SystemC's report handler (SC_REPORT_INFO_VERB)
// with the message type "warpreg/BLOCK", so SystemC's own report actions apply to them.
#include <cstdint>
#include <string>

namespace warpreg {

class LogLevels {
 public:
  /// `level`: none, low, medium, high, full or debug (SystemC's sc_verbosity); `block` a
  /// hierarchical name or "all". Throws std::invalid_argument on an unknown level.
  static void set(const std::string& block, const std::string& level);
  /// The verbosity a block may log at (SC_NONE, the default, logs nothing).
  static int of(const std::string& block);
};

/// Reports `text` as block `block`'s message at `verbosity` (call it only when the
/// block's level allows it).
void log_message(const std::string& block, int verbosity, const std::string& text);

}  // namespace warpreg

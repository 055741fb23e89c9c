#include "modules/interfaces/log.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <systemc>

namespace warpreg {

namespace {

std::map<std::string, int>& levels() {
  static std::map<std::string, int> table;
  return table;
}

int verbosity_of(const std::string& level) {
  static const std::map<std::string, int> names = {
      {"none", sc_core::SC_NONE}, {"low", sc_core::SC_LOW},   {"medium", sc_core::SC_MEDIUM},
      {"high", sc_core::SC_HIGH}, {"full", sc_core::SC_FULL}, {"debug", sc_core::SC_DEBUG}};
  const auto it = names.find(level);
  if (it == names.end())
    throw std::invalid_argument("unknown log level '" + level +
                                "' (none, low, medium, high, full or debug)");
  return it->second;
}

// Block messages go to stderr, as "warpreg: BLOCK @ TIME: text", so that stdout keeps
// only what the command prints; every other report keeps SystemC's default handling.
void report_handler(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  const std::string type = report.get_msg_type();
  if (report.get_severity() == sc_core::SC_INFO && type.rfind("warpreg/", 0) == 0) {
    if (actions & sc_core::SC_DISPLAY)
      std::fprintf(stderr, "warpreg: %s @ %s: %s\n", type.c_str() + 8,
                   report.get_time().to_string().c_str(), report.get_msg());
    return;
  }
  sc_core::sc_report_handler::default_handler(report, actions);
}

}  // namespace

void LogLevels::set(const std::string& block, const std::string& level) {
  const int verbosity = verbosity_of(level);
  levels()[block] = verbosity;
  // SystemC filters by one global level: let through the most verbose one asked for.
  int most = sc_core::SC_NONE;
  for (const auto& [name, v] : levels()) most = std::max(most, v);
  sc_core::sc_report_handler::set_verbosity_level(most);
  sc_core::sc_report_handler::set_handler(report_handler);
}

int LogLevels::of(const std::string& block) {
  const auto& table = levels();
  if (const auto it = table.find(block); it != table.end()) return it->second;
  if (const auto it = table.find("all"); it != table.end()) return it->second;
  return sc_core::SC_NONE;
}

void log_message(const std::string& block, int verbosity, const std::string& text) {
  SC_REPORT_INFO_VERB(("warpreg/" + block).c_str(), text.c_str(), verbosity);
}

}  // namespace warpreg

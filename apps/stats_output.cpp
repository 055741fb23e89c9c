// Formatting of a run's statistics: stats.json, stats.csv and the summary table.
// Keys follow docs/stats.md; lookups accept flat dotted keys or nested objects so
// that the files and the table stay in step with the platform's schema.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "apps/cli.h"
#include "common/output_file.h"

namespace warpreg::cli {

namespace {

using nlohmann::json;

const json* find_in(const json& node, const std::string& rest) {
  if (!node.is_object()) return nullptr;
  if (auto it = node.find(rest); it != node.end()) return &*it;
  // Try every split point so that keys which themselves contain dots still match.
  for (size_t dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.', dot + 1)) {
    if (auto it = node.find(rest.substr(0, dot)); it != node.end()) {
      if (const json* found = find_in(*it, rest.substr(dot + 1))) return found;
    }
  }
  return nullptr;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void flatten(const json& node, const std::string& key, std::ostringstream& out) {
  if (node.is_object()) {
    for (const auto& [k, v] : node.items()) flatten(v, key.empty() ? k : key + '.' + k, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) flatten(node[i], key + '.' + std::to_string(i), out);
  } else if (node.is_string()) {
    out << csv_field(key) << ',' << csv_field(node.get<std::string>()) << '\n';
  } else if (node.is_boolean()) {
    out << csv_field(key) << ',' << (node.get<bool>() ? 1 : 0) << '\n';
  } else if (node.is_number()) {
    out << csv_field(key) << ',' << node.dump() << '\n';
  }
}

std::string printf_string(const char* format, double value, const char* suffix) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return std::string(buf) + suffix;
}

/// Columns of UTF-8 text (µ is two bytes, one column).
size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad_left(const std::string& s, size_t width) {
  const size_t w = display_width(s);
  return (w < width ? std::string(width - w, ' ') : std::string()) + s;
}

std::string pad_right(const std::string& s, size_t width) {
  const size_t w = display_width(s);
  return s + (w < width ? std::string(width - w, ' ') : std::string());
}

std::string text_of(const json* v) {
  if (!v) return "n/a";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::floor(d) == d && std::fabs(d) < 1e15) return printf_string("%.0f", d, "");
    return printf_string("%.3f", d, "");
  }
  return v->dump();
}

/// Blocks of stats.json, whether an object keyed by block name or an array of objects with "name".
std::vector<std::pair<std::string, const json*>> blocks_of(const json& stats) {
  std::vector<std::pair<std::string, const json*>> out;
  const json* blocks = find_stat(stats, "blocks");
  if (!blocks) return out;
  if (blocks->is_object()) {
    for (const auto& [name, b] : blocks->items()) out.emplace_back(name, &b);
  } else if (blocks->is_array()) {
    for (size_t i = 0; i < blocks->size(); ++i) {
      const json& b = (*blocks)[i];
      const json* name = find_stat(b, "name");
      out.emplace_back(name && name->is_string() ? name->get<std::string>() : std::to_string(i),
                       &b);
    }
  }
  return out;
}

}  // namespace

const json* find_stat(const json& stats, const std::string& dotted) {
  return find_in(stats, dotted);
}

double stat_number(const json& stats, const std::vector<std::string>& names, double fallback) {
  for (const std::string& name : names) {
    const json* v = find_stat(stats, name);
    if (v && v->is_number()) return v->get<double>();
  }
  return fallback;
}

std::string stats_csv(const json& stats) {
  std::ostringstream out;
  out << "metric,value\n";
  flatten(stats, "", out);
  return out.str();
}

void write_stats_files(const json& stats, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
  write_output_file((fs::path(dir) / "stats.json").string(), stats.dump(2) + "\n");
  write_output_file((fs::path(dir) / "stats.csv").string(), stats_csv(stats));
}

std::string format_energy(double pj) {
  static const char* const units[] = {" pJ", " nJ", " µJ", " mJ", " J"};
  size_t u = 0;
  while (u + 1 < std::size(units) && std::fabs(pj) >= 1000.0) {
    pj /= 1000.0;
    ++u;
  }
  return printf_string("%.3f", pj, units[u]);
}

std::string format_rate(double per_second) {
  static const char* const prefixes[] = {" ", " k", " M", " G", " T"};
  size_t p = 0;
  while (p + 1 < std::size(prefixes) && std::fabs(per_second) >= 1000.0) {
    per_second /= 1000.0;
    ++p;
  }
  return printf_string("%.2f", per_second, prefixes[p]);
}

std::string stats_summary(const json& stats) {
  std::ostringstream os;
  const auto row = [&os](const std::string& label, const std::string& value) {
    os << "  " << pad_right(label, 20) << value << '\n';
  };
  const auto stat = [&stats](const std::vector<std::string>& names) {
    for (const std::string& n : names) {
      if (const json* v = find_stat(stats, n)) return v;
    }
    return static_cast<const json*>(nullptr);
  };

  row("preset", text_of(stat({"preset"})));
  row("workload", text_of(stat({"workload"})));
  row("status", text_of(stat({"status"})));
  row("cycles", text_of(stat({"cycles"})));
  row("warp instructions", text_of(stat({"warp_instructions"})));
  const json* ipc = stat({"ipc"});
  row("IPC",
      ipc && ipc->is_number() ? printf_string("%.3f", ipc->get<double>(), "") : text_of(ipc));
  row("register reads", text_of(stat({"rf.reads"})));
  row("register writes", text_of(stat({"rf.writes"})));
  row("bank conflicts", text_of(stat({"rf.bank_conflicts"})));
  row("integrity", text_of(stat({"integrity.checked_reads"})) + " operands checked, " +
                       text_of(stat({"integrity.mismatches"})) + " mismatches");
  if (const json* sms = stat({"gpu.sms"})) row("SMs", text_of(sms));
  if (const json* gbps = stat({"gpu.dram.bandwidth_gbps"}); gbps && gbps->is_number())
    row("DRAM bandwidth",
        printf_string("%.1f GB/s", gbps->get<double>(), "") +
            printf_string(" (%.1f %% of peak)",
                          100 * stat_number(stats, {"gpu.dram.utilisation"}, 0), ""));

  // Energy table: one row per block, then the platform total.
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, block] : blocks_of(stats)) {
    const double dyn = stat_number(*block, {"dynamic_pj"}, 0);
    const double leak = stat_number(*block, {"leakage_pj"}, 0);
    const double total = stat_number(*block, {"total_pj"}, dyn + leak);
    rows.push_back({name, format_energy(dyn), format_energy(leak), format_energy(total)});
  }
  const double dyn = stat_number(stats, {"energy_pj.dynamic"}, 0);
  const double leak = stat_number(stats, {"energy_pj.leakage"}, 0);
  rows.push_back({"total", format_energy(dyn), format_energy(leak),
                  format_energy(stat_number(stats, {"energy_pj.total"}, dyn + leak))});
  // The memory system's energy is beside the SM's, not in its total.
  const bool memory = find_stat(stats, "energy_pj.memory_system") != nullptr;

  size_t name_width = 20;
  for (const auto& r : rows) name_width = std::max(name_width, display_width(r[0]) + 2);
  constexpr size_t kCol = 14;
  os << "\n  " << pad_right("energy", name_width) << pad_left("dynamic", kCol)
     << pad_left("leakage", kCol) << pad_left("total", kCol) << '\n';
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i + 1 == rows.size()) os << "  " << std::string(name_width + 3 * kCol, '-') << '\n';
    os << "  " << pad_right(rows[i][0], name_width) << pad_left(rows[i][1], kCol)
       << pad_left(rows[i][2], kCol) << pad_left(rows[i][3], kCol) << '\n';
  }
  if (memory)
    os << "  " << pad_right("memory system", name_width) << pad_left("", 2 * kCol)
       << pad_left(format_energy(stat_number(stats, {"energy_pj.memory_system"}, 0)), kCol) << '\n';
  return os.str();
}

}  // namespace warpreg::cli

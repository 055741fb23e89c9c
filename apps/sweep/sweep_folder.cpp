#include "apps/sweep/sweep_folder.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/json_input.h"
#include "common/output_file.h"

namespace warpreg::sweep {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

/// A point's stats.json is the program's own output, larger than a hand-written input.
constexpr uint64_t kMaxStatsBytes = uint64_t{16} << 20;

JsonDocument read_json_input(const fs::path& file, const std::string& what,
                             uint64_t max_bytes = json_limits::kMaxBytes) {
  try {
    return JsonDocument::read_file(file.string(), what, max_bytes);
  } catch (const JsonInputError& e) {
    throw SpecError(e.what());
  }
}

// Runs one manifest row from the sweep folder, whatever the caller's folder is.
// The done marker holds the command, so an edited spec re-runs its changed points.
constexpr const char* kRunPointScript = R"SH(#!/usr/bin/env bash
# Runs row N of manifest.tsv (1 = the first point) unless that point has finished.
# Written by 'warpreg sweep'; GNU parallel and the Slurm array both call it.
set -u
cd "$(dirname "$0")" || exit 2
row="$1"
line="$(awk -v r="$((row + 1))" 'NR == r' manifest.tsv)"
if [ -z "$line" ]; then
  echo "run_point.sh: no row $row in $(pwd)/manifest.tsv" >&2
  exit 2
fi
tab=$'\t'
id="${line%%"$tab"*}"
cmd="${line##*"$tab"}"
rest="${line%"$tab"*}"
out="${rest##*"$tab"}"
if [ -f "$out/done" ] && [ "$(cat "$out/done")" = "$cmd" ]; then
  exit 0
fi
mkdir -p "$out"
rm -f "$out/done" "$out/exit_status" "$out/stats.json" "$out/stats.csv"
eval "$cmd" >"$out/log" 2>&1
status=$?
echo "$status" >"$out/exit_status"
if [ "$status" -eq 0 ]; then
  printf '%s\n' "$cmd" >"$out/done"
  if [ "${WARPREG_SWEEP_VERBOSE:-0}" = 1 ]; then echo "$id done"; fi
else
  {
    echo "warpreg sweep: point $id failed (exit $status): $cmd"
    echo "  log: $(pwd)/$out/log"
    tail -n 3 "$out/log" | sed 's/^/  | /'
  } >&2
fi
exit "$status"
)SH";

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& file, const std::string& text) {
  try {
    write_output_file(file.string(), text);
  } catch (const std::runtime_error& e) {
    throw SpecError(e.what());
  }
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, sep)) out.push_back(cell);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

// A number of stats.json by dotted name: a literal key or a path through objects.
const json* find_number(const json& node, const std::string& rest) {
  if (!node.is_object()) return nullptr;
  if (const auto it = node.find(rest); it != node.end()) return &*it;
  // Try every split point, so that keys which themselves contain dots ("rf.reads", a
  // block's hierarchical name "rfv.renaming_table") still match.
  for (size_t dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.', dot + 1)) {
    if (const auto it = node.find(rest.substr(0, dot)); it != node.end()) {
      if (const json* found = find_number(*it, rest.substr(dot + 1))) return found;
    }
  }
  return nullptr;
}

std::string number_text(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number()) return v.dump();
  return "";
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

bool matches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') {
    return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  }
  return pattern == name;
}

const std::vector<std::string> kStandardMetrics = {"cycles",
                                                   "warp_instructions",
                                                   "thread_instructions",
                                                   "ipc",
                                                   "rf.reads",
                                                   "rf.writes",
                                                   "rf.bank_conflicts",
                                                   "rf.conflict_cycles",
                                                   "integrity.checked_reads",
                                                   "integrity.mismatches",
                                                   "energy_pj.dynamic",
                                                   "energy_pj.leakage",
                                                   "energy_pj.total",
                                                   "energy_pj.register_file"};

}  // namespace

std::string manifest_text(const Spec& spec, const std::vector<Point>& points,
                          const std::string& binary) {
  std::string text = "point";
  for (const Axis& a : spec.axes) text += "\t" + a.name;
  text += "\tout\tcommand\n";
  for (const Point& p : points) {
    std::string row = p.id;
    for (const auto& v : p.values) row += "\t" + v;
    row += "\t" + p.out_dir + "\t" + command_line(p, binary);
    if (std::count(row.begin(), row.end(), '\t') != static_cast<long>(spec.axes.size() + 2) ||
        row.find('\n') != std::string::npos) {
      throw SpecError(spec.file + ": point " + p.id +
                      ": a value contains a tab or a line break, which the manifest cannot hold");
    }
    text += row + "\n";
  }
  return text;
}

void write_sweep_folder(const Spec& spec, const std::vector<Point>& points, const std::string& dir,
                        const std::string& binary) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "points", ec);
  if (ec) throw SpecError("cannot create " + dir + ": " + ec.message());
  const std::string manifest = manifest_text(spec, points, binary);
  write_text(fs::path(dir) / "manifest.tsv", manifest);
  write_text(fs::path(dir) / "sweep.json", spec.to_json().dump(2) + "\n");
  const fs::path script = fs::path(dir) / "run_point.sh";
  write_text(script, kRunPointScript);
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ec);
}

Manifest read_manifest(const std::string& dir) {
  const fs::path file = fs::path(dir) / "manifest.tsv";
  std::ifstream in(file);
  if (!in) throw SpecError(file.string() + ": cannot read (run 'warpreg sweep' first)");
  Manifest m;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const auto cells = split(line, '\t');
    if (line_no == 1) {
      if (cells.size() < 3 || cells.front() != "point" || cells[cells.size() - 2] != "out" ||
          cells.back() != "command") {
        throw SpecError(file.string() + ":1: not a warpreg manifest header");
      }
      m.axes.assign(cells.begin() + 1, cells.end() - 2);
      continue;
    }
    if (line.empty()) continue;
    if (cells.size() != m.axes.size() + 3) {
      throw SpecError(file.string() + ":" + std::to_string(line_no) + ": expected " +
                      std::to_string(m.axes.size() + 3) + " tab-separated fields");
    }
    ManifestRow row;
    row.id = cells.front();
    row.values.assign(cells.begin() + 1, cells.end() - 2);
    row.out_dir = cells[cells.size() - 2];
    row.command = cells.back();
    m.rows.push_back(std::move(row));
  }
  if (line_no == 0) throw SpecError(file.string() + ": empty");
  return m;
}

bool point_finished(const std::string& dir, const ManifestRow& row) {
  const fs::path done = fs::path(dir) / row.out_dir / "done";
  if (!fs::exists(done)) return false;
  std::string text = read_text(done);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text == row.command;
}

size_t slurm_chunk(size_t points, int max_array) {
  const size_t cap = static_cast<size_t>(std::max(1, max_array));
  return std::max<size_t>(1, (points + cap - 1) / cap);
}

std::string slurm_script(const std::string& name, size_t points, const SlurmOptions& options,
                         const std::string& abs_dir) {
  const size_t chunk = slurm_chunk(points, options.max_array);
  const size_t tasks = (points + chunk - 1) / chunk;
  const std::string dir = shell_quote(abs_dir);
  std::ostringstream s;
  s << "#!/usr/bin/env bash\n"
    << "# Slurm job array over " << abs_dir
    << "/manifest.tsv, written by 'warpreg sweep --slurm'.\n"
    << "# Submit with: sbatch " << abs_dir << "/sweep.sbatch\n"
    << "# " << points << " points in " << tasks << " array tasks of up to " << chunk
    << " points; finished points are skipped, so a resubmission only runs what is missing.\n"
    << "#SBATCH --job-name=warpreg-" << name << "\n"
    << "#SBATCH --array=0-" << tasks - 1 << "\n"
    << "#SBATCH --chdir=" << abs_dir << "\n"
    << "#SBATCH --output=" << abs_dir << "/slurm/%A_%a.out\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --time=" << options.time << "\n";
  if (!options.partition.empty()) s << "#SBATCH --partition=" << options.partition << "\n";
  for (const auto& e : options.extra) s << "#SBATCH " << e << "\n";
  s << "set -u\n"
    << "export WARPREG_SWEEP_VERBOSE=1  # one line per finished point in the output file\n"
    << "points=" << points << "\n"
    << "chunk=" << chunk << "\n"
    << "first=$((SLURM_ARRAY_TASK_ID * chunk + 1))\n"
    << "last=$((first + chunk - 1))\n"
    << "if [ \"$last\" -gt \"$points\" ]; then last=$points; fi\n"
    << "failed=0\n"
    << "for row in $(seq \"$first\" \"$last\"); do\n"
    << "  bash " << dir << "/run_point.sh \"$row\" || failed=1\n"
    << "done\n"
    << "exit \"$failed\"\n";
  return s.str();
}

size_t collect_results(const std::string& dir,
                       const std::vector<std::pair<std::string, std::string>>& baseline_override) {
  const fs::path spec_file = fs::path(dir) / "sweep.json";
  if (!fs::exists(spec_file))
    throw SpecError(spec_file.string() + ": cannot read (not a sweep folder?)");
  ordered_json spec_json = read_json_input(spec_file, "sweep folder's spec").root();
  if (!baseline_override.empty()) {
    ordered_json base = ordered_json::object();
    for (const auto& [k, v] : baseline_override) base[k] = v;
    spec_json["baseline"] = base;
  }
  const Spec spec = parse_spec(spec_json, spec_file.string(), false, "");
  const Manifest manifest = read_manifest(dir);
  std::vector<std::string> axis_names;
  for (const Axis& a : spec.axes) axis_names.push_back(a.name);
  if (axis_names != manifest.axes) {
    throw SpecError(dir + ": manifest.tsv and sweep.json name different axes");
  }

  // Points as the spec sees them, for the baseline lookup.
  std::vector<Point> points;
  for (const auto& row : manifest.rows) {
    Point p;
    p.id = row.id;
    p.values = row.values;
    points.push_back(std::move(p));
  }
  const std::vector<int> baseline = baseline_of(spec, points);

  // Statistics of every point that produced them, and the union of block names.
  std::vector<json> stats(points.size());
  std::vector<std::string> status(points.size());
  std::set<std::string> blocks;
  size_t with_stats = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const fs::path out = fs::path(dir) / manifest.rows[i].out_dir;
    const fs::path file = out / "stats.json";
    if (fs::exists(file)) {
      stats[i] = json(read_json_input(file, "point's statistics", kMaxStatsBytes).root());
      const json* s = find_number(stats[i], "status");
      status[i] = s && s->is_string() ? s->get<std::string>() : "unknown";
      if (const auto it = stats[i].find("blocks"); it != stats[i].end() && it->is_object()) {
        for (const auto& [name, block] : it->items()) blocks.insert(name);
      }
      ++with_stats;
    } else if (fs::exists(out / "exit_status")) {
      std::string code = read_text(out / "exit_status");
      while (!code.empty() && code.back() == '\n') code.pop_back();
      status[i] = "failed (exit " + code + ")";
    } else {
      status[i] = "not run";
    }
  }

  std::vector<std::string> metrics = kStandardMetrics;
  for (const auto& b : blocks) {
    for (const char* field : {"dynamic_pj", "leakage_pj", "total_pj", "storage_bits"}) {
      metrics.push_back("blocks." + b + "." + field);
    }
  }
  for (const auto& m : spec.metrics) {
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  }
  const auto metric_value = [&](size_t i, const std::string& metric) -> std::string {
    if (stats[i].is_null()) return "";
    const std::string total_suffix = ".total_pj";
    if (metric.size() > total_suffix.size() &&
        metric.compare(metric.size() - total_suffix.size(), total_suffix.size(), total_suffix) ==
            0) {
      const std::string block = metric.substr(0, metric.size() - total_suffix.size());
      const json* dyn = find_number(stats[i], block + ".dynamic_pj");
      const json* leak = find_number(stats[i], block + ".leakage_pj");
      if (!dyn || !leak || !dyn->is_number() || !leak->is_number()) return "";
      return json(dyn->get<double>() + leak->get<double>()).dump();
    }
    const json* v = find_number(stats[i], metric);
    return v ? number_text(*v) : "";
  };
  std::vector<std::string> normalised;
  for (const auto& m : metrics) {
    for (const auto& pattern : spec.normalise) {
      if (matches(pattern, m)) {
        normalised.push_back(m);
        break;
      }
    }
  }

  std::ostringstream csv;
  csv << "point";
  for (const auto& a : axis_names) csv << ',' << csv_cell(a);
  csv << ",status,baseline";
  for (const auto& m : metrics) csv << ',' << csv_cell(m);
  for (const auto& m : normalised) csv << ',' << csv_cell("norm." + m);
  csv << '\n';
  for (size_t i = 0; i < points.size(); ++i) {
    csv << csv_cell(points[i].id);
    for (const auto& v : points[i].values) csv << ',' << csv_cell(v);
    csv << ',' << csv_cell(status[i]) << ',' << (baseline[i] >= 0 ? points[baseline[i]].id : "");
    std::map<std::string, std::string> values;
    for (const auto& m : metrics) {
      values[m] = metric_value(i, m);
      csv << ',' << values[m];
    }
    for (const auto& m : normalised) {
      std::string cell;
      if (baseline[i] >= 0 && !values[m].empty()) {
        const std::string base = metric_value(static_cast<size_t>(baseline[i]), m);
        if (!base.empty() && std::stod(base) != 0) {
          cell = json(std::stod(values[m]) / std::stod(base)).dump();
        }
      }
      csv << ',' << cell;
    }
    csv << '\n';
  }
  write_text(fs::path(dir) / "results.csv", csv.str());
  return with_stats;
}

}  // namespace warpreg::sweep

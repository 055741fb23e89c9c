#include "apps/sweep/sweep_spec.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/input_check.h"
#include "common/json_input.h"
#include "common/params.h"
#include "stimuli/driver/open_workload.h"

namespace warpreg::sweep {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

const std::vector<std::string> kTopFields = {
    "name",  "description", "source",    "presets", "workloads", "set",  "fixed",
    "seeds", "baseline",    "normalise", "metrics", "plots",     "quick"};
const std::vector<std::string> kPlotFields = {
    "name", "kind", "x", "y", "series", "title", "xlabel", "ylabel", "paper", "xscale", "labels"};

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

bool is_one_of(const std::string& s, const std::vector<std::string>& set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Errors read "FILE:LINE: FIELD: problem" (without LINE when the spec did not come from
// a file or the field is not in it).
class Where {
 public:
  explicit Where(std::string file, const JsonDocument* doc = nullptr)
      : file_(std::move(file)), doc_(doc) {}
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    if (doc_ == nullptr) throw SpecError(file_ + ": " + field + ": " + problem);
    const std::string top = field.substr(0, field.find_first_of(".["));
    const bool from_quick = std::find(quick_.begin(), quick_.end(), top) != quick_.end();
    throw SpecError(doc_->where(from_quick ? "quick." + field : field) + problem);
  }
  const std::string& file() const { return file_; }
  /// Top-level fields the "quick" object replaced: their lines are under "quick".
  void replaced_by_quick(const std::string& key) { quick_.push_back(key); }

 private:
  std::string file_;
  const JsonDocument* doc_;
  std::vector<std::string> quick_;
};

// A JSON scalar as the text `--set` would take.
std::string scalar_text(const ordered_json& v, const Where& where, const std::string& field) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return v.dump();  // shortest text that reads back as the same double
  where.fail(field, "expected a number, string or boolean, got " + quote_json(v));
}

std::string checked_string(const ordered_json& v, const Where& where, const std::string& field) {
  if (!v.is_string()) where.fail(field, "expected a string, got " + quote_json(v));
  return v.get<std::string>();
}

std::vector<std::string> nonempty_list(const ordered_json& v, const Where& where,
                                       const std::string& field) {
  if (!v.is_array()) where.fail(field, "expected a list of values, got " + quote_json(v));
  if (v.empty()) where.fail(field, "empty axis (give at least one value)");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back(scalar_text(v[i], where, field + "[" + std::to_string(i) + "]"));
  }
  std::set<std::string> seen;
  for (const auto& value : out) {
    if (!seen.insert(value).second)
      where.fail(field, "value " + quote_text(value) + " appears twice");
  }
  return out;
}

const ParamSpec& known_param(const std::string& key, const Where& where, const std::string& field) {
  const ParamSpec* spec = find_param(key);
  if (!spec) {
    where.fail(field, "unknown parameter " + quote_text(key) + " (see 'warpreg params')");
  }
  return *spec;
}

std::string canonical_value(const std::string& key, const std::string& text, const Where& where,
                            const std::string& field) {
  const ParamSpec& spec = known_param(key, where, field);
  try {
    return parse_param_value(spec, text, field);
  } catch (const ParamError& e) {
    where.fail(field, e.what());
  }
}

std::string resolve_path(const std::string& path, const std::string& base_dir) {
  fs::path p(path);
  if (p.is_relative() && !base_dir.empty()) p = fs::path(base_dir) / p;
  return fs::absolute(p).lexically_normal().string();
}

bool is_preset_path(const std::string& preset) {
  return preset.find('/') != std::string::npos ||
         (preset.size() > 5 && preset.compare(preset.size() - 5, 5, ".json") == 0);
}

void check_plots(const ordered_json& plots, const Where& where) {
  if (!plots.is_array()) where.fail("plots", "expected a list of figures");
  for (size_t i = 0; i < plots.size(); ++i) {
    const std::string field = "plots[" + std::to_string(i) + "]";
    const auto& plot = plots[i];
    if (!plot.is_object()) where.fail(field, "expected an object");
    for (const auto& [key, value] : plot.items()) {
      if (!is_one_of(key, kPlotFields)) {
        where.fail(field + "." + key, "unknown field " + quote_text(key) + " (expected " +
                                          join(kPlotFields, ", ") + ")");
      }
    }
    for (const char* required : {"name", "kind", "x", "y"}) {
      if (!plot.contains(required)) where.fail(field + "." + required, "missing");
    }
    const std::string kind = checked_string(plot["kind"], where, field + ".kind");
    if (kind != "bar" && kind != "line") where.fail(field + ".kind", "expected bar or line");
    const std::string name = checked_string(plot["name"], where, field + ".name");
    if (name.empty() || name.find('/') != std::string::npos) {
      where.fail(field + ".name", "must be a non-empty file stem");
    }
  }
}

}  // namespace

const Axis* Spec::axis(const std::string& axis_name) const {
  for (const Axis& a : axes) {
    if (a.name == axis_name) return &a;
  }
  return nullptr;
}

ordered_json Spec::to_json() const {
  ordered_json j;
  j["name"] = name;
  j["description"] = description;
  j["source"] = source;
  j["presets"] = axis("preset")->values;
  j["workloads"] = axis("workload")->values;
  ordered_json set = ordered_json::object();
  for (const Axis& a : axes) {
    if (a.name != "preset" && a.name != "workload" && a.name != "seed") set[a.name] = a.values;
  }
  j["set"] = set;
  ordered_json fixed_json = ordered_json::object();
  for (const auto& kv : fixed) {
    const auto eq = kv.find('=');
    fixed_json[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  j["fixed"] = fixed_json;
  if (const Axis* seeds = axis("seed")) {
    ordered_json list = ordered_json::array();
    for (const auto& s : seeds->values) list.push_back(std::stoll(s));
    j["seeds"] = list;
  }
  ordered_json base = ordered_json::object();
  for (const auto& [k, v] : baseline) base[k] = v;
  if (!baseline.empty()) j["baseline"] = base;
  j["normalise"] = normalise;
  j["metrics"] = metrics;
  j["plots"] = plots;
  return j;
}

Spec parse_spec(const ordered_json& json_in, const std::string& file, bool quick,
                const std::string& base_dir, const JsonDocument* doc) {
  Where where(file, doc);
  if (!json_in.is_object()) where.fail("(top level)", "expected a JSON object");
  for (const auto& [key, value] : json_in.items()) {
    if (!is_one_of(key, kTopFields)) {
      where.fail(key,
                 "unknown field " + quote_text(key) + " (expected " + join(kTopFields, ", ") + ")");
    }
  }
  ordered_json json = json_in;
  if (json.contains("quick")) {
    const auto& q = json_in["quick"];
    if (!q.is_object()) where.fail("quick", "expected an object of fields replacing the sweep's");
    for (const auto& [key, value] : q.items()) {
      if (!is_one_of(key, kTopFields) || key == "quick" || key == "name") {
        where.fail("quick." + key, "unknown or unreplaceable field");
      }
      if (quick) {
        json[key] = value;
        where.replaced_by_quick(key);
      }
    }
  }

  Spec spec;
  spec.file = file;
  spec.quick = quick && json.contains("quick");
  spec.name = json.contains("name") ? checked_string(json["name"], where, "name")
                                    : fs::path(file).stem().string();
  if (json.contains("description"))
    spec.description = checked_string(json["description"], where, "description");
  if (json.contains("source")) spec.source = checked_string(json["source"], where, "source");

  // Presets: shipped names are checked against the folder, paths against the file system.
  if (!json.contains("presets")) where.fail("presets", "missing (a list of preset names)");
  Axis presets{"preset", nonempty_list(json["presets"], where, "presets")};
  const std::vector<std::string> shipped = preset_names();
  for (size_t i = 0; i < presets.values.size(); ++i) {
    std::string& p = presets.values[i];
    const std::string field = "presets[" + std::to_string(i) + "]";
    if (is_preset_path(p)) {
      p = resolve_path(p, base_dir);
      if (!path_exists(p)) where.fail(field, "preset file " + excerpt(p) + " does not exist");
    } else if (p != "defaults" && !is_one_of(p, shipped)) {
      where.fail(field, "unknown preset " + quote_text(p) + " (shipped: " + join(shipped, ", ") +
                            "; or a path to a .json file)");
    }
  }
  spec.axes.push_back(std::move(presets));

  Axis workloads{"workload", {"synthetic"}};
  if (json.contains("workloads")) {
    workloads.values = nonempty_list(json["workloads"], where, "workloads");
    for (std::string& w : workloads.values) {
      // A path that exists next to the spec is made absolute; other names (synthetic,
      // profiles) are left for the workload opener to judge in expand().
      if (w != "synthetic" && path_exists((fs::path(base_dir) / w).string()))
        w = resolve_path(w, base_dir);
    }
  }
  spec.axes.push_back(std::move(workloads));

  if (json.contains("fixed")) {
    const auto& fixed = json["fixed"];
    if (!fixed.is_object()) where.fail("fixed", "expected an object of parameter: value");
    for (const auto& [key, value] : fixed.items()) {
      const std::string field = "fixed." + key;
      spec.fixed.push_back(key + "=" +
                           canonical_value(key, scalar_text(value, where, field), where, field));
    }
  }

  const bool has_seeds = json.contains("seeds");
  if (json.contains("set")) {
    const auto& set = json["set"];
    if (!set.is_object()) where.fail("set", "expected an object of parameter: [values]");
    for (const auto& [key, values] : set.items()) {
      const std::string field = "set." + key;
      known_param(key, where, field);
      if (key == "sim.seed" && has_seeds) where.fail(field, "give seeds in 'seeds' only");
      Axis axis{key, nonempty_list(values, where, field)};
      for (size_t i = 0; i < axis.values.size(); ++i) {
        axis.values[i] =
            canonical_value(key, axis.values[i], where, field + "[" + std::to_string(i) + "]");
      }
      spec.axes.push_back(std::move(axis));
    }
  }

  if (has_seeds) {
    Axis seeds{"seed", nonempty_list(json["seeds"], where, "seeds")};
    for (size_t i = 0; i < seeds.values.size(); ++i) {
      seeds.values[i] =
          canonical_value("sim.seed", seeds.values[i], where, "seeds[" + std::to_string(i) + "]");
    }
    spec.axes.push_back(std::move(seeds));
  }

  if (json.contains("baseline")) {
    const auto& base = json["baseline"];
    if (!base.is_object() || base.empty()) {
      where.fail("baseline", "expected an object of axis: value, e.g. {\"preset\": \"baseline\"}");
    }
    for (const auto& [key, value] : base.items()) {
      const std::string field = "baseline." + key;
      const Axis* axis = spec.axis(key);
      if (!axis) {
        std::vector<std::string> names;
        for (const Axis& a : spec.axes) names.push_back(a.name);
        where.fail(field, "not an axis of this sweep (axes: " + join(names, ", ") + ")");
      }
      std::string text = scalar_text(value, where, field);
      if (key == "preset" && is_preset_path(text)) text = resolve_path(text, base_dir);
      if (key == "workload" && text != "synthetic" &&
          path_exists((fs::path(base_dir) / text).string())) {
        text = resolve_path(text, base_dir);
      }
      if (key != "preset" && key != "workload") {
        text = canonical_value(key == "seed" ? "sim.seed" : key, text, where, field);
      }
      if (!is_one_of(text, axis->values)) {
        where.fail(field, "value " + quote_text(text) + " is not on the axis (" +
                              excerpt(join(axis->values, ", ")) + ")");
      }
      spec.baseline.emplace_back(key, text);
    }
  }

  const auto string_list = [&](const char* field, std::vector<std::string>& out) {
    if (!json.contains(field)) return;
    const auto& list = json[field];
    if (!list.is_array()) where.fail(field, "expected a list of metric names");
    for (size_t i = 0; i < list.size(); ++i) {
      out.push_back(
          checked_string(list[i], where, std::string(field) + "[" + std::to_string(i) + "]"));
    }
  };
  spec.normalise = {"cycles",          "ipc",      "energy_pj.dynamic",      "energy_pj.leakage",
                    "energy_pj.total", "blocks.*", "energy_pj.register_file"};
  if (json.contains("normalise")) spec.normalise.clear();
  string_list("normalise", spec.normalise);
  string_list("metrics", spec.metrics);
  if (json.contains("plots")) {
    check_plots(json["plots"], where);
    spec.plots = json["plots"];
  }
  return spec;
}

Spec load_spec(const std::string& path, bool quick) {
  const JsonDocument doc = [&path] {
    try {
      return JsonDocument::read_file(path, "sweep spec");
    } catch (const JsonInputError& e) {
      throw SpecError(e.what());
    }
  }();
  const fs::path dir = fs::absolute(path).parent_path();
  return parse_spec(doc.root(), path, quick, dir.string(), &doc);
}

namespace {

std::string inputs_digest(const Params& params, const std::string& workload) {
  std::string text = params.to_json().dump();
  std::error_code ec;
  if (fs::is_regular_file(workload, ec)) {
    text += "\n" + std::to_string(fs::file_size(workload, ec)) + " " +
            std::to_string(fs::last_write_time(workload, ec).time_since_epoch().count());
  }
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace

size_t point_count(const Spec& spec) {
  // Checked as it multiplies: axes whose product passes 2^64 must not wrap to a small count.
  uint64_t total = 1;
  std::string product;
  bool over = false;
  for (const Axis& a : spec.axes) {
    // "3 presets", "4 rf.banks values"; a spec of many axes gets its product cut.
    const bool parameter = a.name.find('.') != std::string::npos;
    if (product.size() < 240)
      product += (product.empty() ? "" : " x ") + std::to_string(a.values.size()) + " " + a.name +
                 (parameter              ? " values"
                  : a.values.size() == 1 ? ""
                                         : "s");
    else if (product.compare(product.size() - 3, 3, "...") != 0)
      product += " x ...";
    over = over || __builtin_mul_overflow(total, uint64_t{a.values.size()}, &total) ||
           total > kMaxSweepPoints;
  }
  if (over)
    throw SpecError(spec.file + ": the axes make " + product + " = more than " +
                    std::to_string(kMaxSweepPoints) +
                    " points (the limit of one sweep; split it into several)");
  return static_cast<size_t>(total);
}

std::vector<Point> expand(const Spec& spec, const ExpandProgress& progress) {
  const Where where(spec.file);
  const size_t total = point_count(spec);
  const size_t width = std::max<size_t>(3, std::to_string(total).size());

  std::vector<Point> points;
  points.reserve(total);
  std::vector<size_t> index(spec.axes.size(), 0);
  std::set<std::string> opened;  // traces are opened once each
  for (size_t n = 0; n < total; ++n) {
    Point p;
    std::string id = std::to_string(n + 1);
    p.id = "p" + std::string(width - id.size(), '0') + id;
    p.out_dir = "points/" + p.id;
    p.sets = spec.fixed;
    std::string described;
    for (size_t a = 0; a < spec.axes.size(); ++a) {
      const Axis& axis = spec.axes[a];
      const std::string& value = axis.values[index[a]];
      p.values.push_back(value);
      described += (described.empty() ? "" : ", ") + axis.name + "=" + excerpt(value);
      if (axis.name == "preset") {
        p.preset = value;
      } else if (axis.name == "workload") {
        p.workload = value;
      } else {
        p.sets.push_back((axis.name == "seed" ? std::string("sim.seed") : axis.name) + "=" + value);
      }
    }
    try {
      const Params params = Params::load(p.preset, p.sets);
      p.inputs_digest = inputs_digest(params, p.workload);
      if (p.workload == "synthetic" || opened.insert(p.workload).second) {
        open_workload(p.workload, params);
      }
    } catch (const std::exception& e) {
      where.fail("point " + p.id + " (" + described + ")", e.what());
    }
    points.push_back(std::move(p));
    if (progress) progress(points.size(), total);
    // Odometer: the last axis turns fastest.
    for (size_t a = spec.axes.size(); a-- > 0;) {
      if (++index[a] < spec.axes[a].values.size()) break;
      index[a] = 0;
    }
  }
  return points;
}

std::vector<int> baseline_of(const Spec& spec, const std::vector<Point>& points) {
  std::vector<int> out(points.size(), -1);
  if (spec.baseline.empty()) return out;
  std::vector<std::pair<size_t, std::string>> pinned;  // axis index -> value
  for (const auto& [name, value] : spec.baseline) {
    for (size_t a = 0; a < spec.axes.size(); ++a) {
      if (spec.axes[a].name == name) pinned.emplace_back(a, value);
    }
  }
  std::map<std::vector<std::string>, int> by_values;
  for (size_t i = 0; i < points.size(); ++i) by_values[points[i].values] = static_cast<int>(i);
  for (size_t i = 0; i < points.size(); ++i) {
    std::vector<std::string> key = points[i].values;
    for (const auto& [a, value] : pinned) key[a] = value;
    const auto it = by_values.find(key);
    if (it == by_values.end()) {
      throw SpecError(spec.file + ": baseline: no baseline point for " + points[i].id);
    }
    out[i] = it->second;
  }
  return out;
}

std::string shell_quote(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("_-.,/=:+@%").find(c) != std::string::npos;
  });
  if (plain) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_line(const Point& point, const std::string& binary) {
  std::string cmd = shell_quote(binary) + " run --preset " + shell_quote(point.preset) +
                    " --workload " + shell_quote(point.workload);
  for (const auto& s : point.sets) cmd += " --set " + shell_quote(s);
  cmd += " --out " + shell_quote(point.out_dir) + " --quiet";
  // A shell comment: run_point.sh ignores it when it runs the command, and compares it
  // with the done marker like the rest of the line.
  if (!point.inputs_digest.empty()) cmd += "  # inputs " + point.inputs_digest;
  return cmd;
}

}  // namespace warpreg::sweep

#pragma once
// Sweep specifications: a JSON file naming presets x workloads x parameter axes x
// seeds, expanded into fully specified `warpreg run` points. Everything here is
// checked before a single simulation starts; errors name the file and the field.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace warpreg {
class JsonDocument;
}

namespace warpreg::sweep {

/// A sweep spec (or a results folder) that does not make sense: "FILE: FIELD: problem".
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One dimension of the sweep. `name` is "preset", "workload", "seed" or a parameter
/// of the catalogue; `values` are canonical texts (as `--set` would take them).
struct Axis {
  std::string name;
  std::vector<std::string> values;
};

struct Spec {
  std::string file;  ///< where the spec came from, for messages
  std::string name;
  std::string description;
  std::string source;
  bool quick = false;  ///< the spec's "quick" overrides were applied
  /// Enumeration order: preset (outermost), workload, parameter axes in file order, seed.
  std::vector<Axis> axes;
  /// "key=value" overrides applied to every point before the axes' values.
  std::vector<std::string> fixed;
  /// Axis name -> value picking the baseline of each point (the other axes follow the point).
  std::vector<std::pair<std::string, std::string>> baseline;
  /// Metrics (results.csv columns) divided by the baseline's into "norm.METRIC" columns;
  /// a trailing '*' matches a prefix ("blocks.*").
  std::vector<std::string> normalise;
  /// Extra stats.json numbers (dotted) copied into results.csv.
  std::vector<std::string> metrics;
  /// Figures for scripts/plot_results.py, passed through after a check of their fields.
  nlohmann::ordered_json plots = nlohmann::ordered_json::array();

  const Axis* axis(const std::string& name) const;
  /// The resolved spec as JSON (sweep.json in a sweep folder); parse_spec reads it back.
  nlohmann::ordered_json to_json() const;
};

/// One simulation of the sweep.
struct Point {
  std::string id;                   ///< "p001", zero-padded to the sweep's size
  std::vector<std::string> values;  ///< one per Spec::axes
  std::string preset;
  std::string workload;
  std::vector<std::string> sets;  ///< fixed, then the axes' parameters, then sim.seed
  std::string out_dir;            ///< relative to the sweep folder: "points/ID"
  /// Digest of what the command line does not show: every resolved parameter (an
  /// edited preset changes them) and the workload file's size and time. The manifest
  /// carries it, so a re-run repeats the point when it changes.
  std::string inputs_digest;
};

/// Reads and checks a spec file. `quick` applies its "quick" object (fields replacing
/// the full sweep's). Relative workload paths are taken from the spec file's folder.
Spec load_spec(const std::string& path, bool quick = false);
/// The same from parsed JSON; `file` is used in messages, `base_dir` for relative paths,
/// `doc` (the JSON's document, when it came from one) for the line of each field.
Spec parse_spec(const nlohmann::ordered_json& json, const std::string& file, bool quick,
                const std::string& base_dir, const JsonDocument* doc = nullptr);

/// Points one sweep may have: the product of its axes' sizes.
constexpr uint64_t kMaxSweepPoints = 1000000;
/// The number of points of `spec`; throws SpecError (listing the axes' sizes) when the
/// product passes kMaxSweepPoints, however large it is.
size_t point_count(const Spec& spec);

/// Told after each point is expanded: (points done, points in all).
using ExpandProgress = std::function<void(size_t, size_t)>;
/// Every point, in enumeration order. Checks each point's parameters (ranges, the
/// synthetic workload's constraints) and opens each trace once; throws SpecError.
std::vector<Point> expand(const Spec& spec, const ExpandProgress& progress = {});

/// The baseline point of every point (an index into `points`), or -1 when the spec
/// has no baseline. Throws SpecError when some point has none.
std::vector<int> baseline_of(const Spec& spec, const std::vector<Point>& points);

/// POSIX shell quoting: the text as one word ('...' when it needs quoting).
std::string shell_quote(const std::string& text);
/// The `warpreg run` command of a point, run from the sweep folder.
std::string command_line(const Point& point, const std::string& binary);

}  // namespace warpreg::sweep

#pragma once
// A sweep folder: manifest.tsv (one `warpreg run` command per point), sweep.json (the
// resolved spec), run_point.sh (runs one manifest row, skipping finished points),
// optionally sweep.sbatch (a Slurm job array over the manifest), points/ID/ (each
// point's stats.json, log and markers) and results.csv (collect_results).
#include <string>
#include <vector>

#include "apps/sweep/sweep_spec.h"

namespace warpreg::sweep {

/// Writes manifest.tsv, sweep.json and run_point.sh into `dir` (created). The
/// commands run `binary` from `dir`, so the folder can move as a whole.
void write_sweep_folder(const Spec& spec, const std::vector<Point>& points, const std::string& dir,
                        const std::string& binary);

/// manifest.tsv: a header "point, axis names..., out, command" and one row per point.
std::string manifest_text(const Spec& spec, const std::vector<Point>& points,
                          const std::string& binary);

/// The manifest's rows read back: id, axis values, out folder and command.
struct ManifestRow {
  std::string id;
  std::vector<std::string> values;
  std::string out_dir;
  std::string command;
};
struct Manifest {
  std::vector<std::string> axes;
  std::vector<ManifestRow> rows;
};
/// Reads DIR/manifest.tsv; throws SpecError naming the file and line.
Manifest read_manifest(const std::string& dir);

/// A point has finished when points/ID/done holds exactly its command (a changed
/// command, e.g. after editing the spec, runs again).
bool point_finished(const std::string& dir, const ManifestRow& row);

struct SlurmOptions {
  int max_array = 1000;            ///< job-array tasks at most (a cluster's MaxArraySize - 1)
  std::string partition;           ///< empty: the cluster's default
  std::string time = "1:00:00";    ///< time limit per array task
  std::vector<std::string> extra;  ///< further "#SBATCH" option words, e.g. "--account=x"
};
/// The sbatch script: an array of ceil(points / chunk) tasks, each running `chunk`
/// consecutive manifest rows through run_point.sh. `abs_dir` is the sweep folder.
std::string slurm_script(const std::string& name, size_t points, const SlurmOptions& options,
                         const std::string& abs_dir);
/// Points per task for the array cap.
size_t slurm_chunk(size_t points, int max_array);

/// Merges every point's stats.json into DIR/results.csv (one row per manifest point,
/// axes as columns, metrics, per-block energy, norm.* columns against the baseline).
/// Returns the number of rows that have statistics.
size_t collect_results(
    const std::string& dir,
    const std::vector<std::pair<std::string, std::string>>& baseline_override = {});

}  // namespace warpreg::sweep

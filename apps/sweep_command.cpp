// `warpreg sweep`: expands a sweep spec into a manifest of `warpreg run` commands and
// runs it locally through GNU parallel, or writes a Slurm job array over it.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "apps/sweep/sweep_folder.h"
#include "apps/sweep_commands.h"
#include "common/params.h"

namespace warpreg::cli {

namespace fs = std::filesystem;
using namespace warpreg::sweep;

namespace {

// Runs a shell command; its exit status, or -1 when it did not exit normally.
int shell(const std::string& command) {
  const int rc = std::system(command.c_str());
  return (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
}

// GNU parallel, not moreutils' parallel (Debian ships both under that name).
void require_gnu_parallel() {
  if (shell("parallel --version 2>/dev/null | grep -q 'GNU parallel'") != 0) {
    throw std::runtime_error(
        "GNU parallel is needed to run a sweep locally (Debian package 'parallel'); "
        "or write a Slurm script with --slurm");
  }
}

int default_jobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace

std::string self_binary() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the warpreg binary: " + ec.message());
  return exe.string();
}

sweep::ExpandProgress expand_progress(const std::string& who) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const bool terminal = isatty(STDERR_FILENO);
  return [who, start, terminal, last = start](size_t done, size_t total) mutable {
    const Clock::time_point now = Clock::now();
    // Every point opens its workload, so a large sweep takes minutes to expand.
    if (done != total && now - last < std::chrono::seconds(1)) return;
    if (done == total && last == start) return;  // quick: nothing was shown
    last = now;
    std::cerr << (terminal ? "\r" : "") << who << ": expanding points, " << done << " of " << total
              << (terminal && done != total ? "" : "\n") << std::flush;
  };
}

int run_sweep_folder(const std::string& dir, int jobs) {
  const Manifest manifest = read_manifest(dir);
  const size_t total = manifest.rows.size();
  std::vector<size_t> pending;  // 1-based manifest rows
  for (size_t i = 0; i < total; ++i) {
    if (!point_finished(dir, manifest.rows[i])) pending.push_back(i + 1);
  }
  if (jobs < 0) throw UsageError("--jobs must be 0 (one per core) or more");
  if (jobs == 0) jobs = default_jobs();
  std::cerr << "warpreg sweep: " << total << " points, " << total - pending.size()
            << " finished earlier, " << pending.size() << " to run with " << jobs << " job"
            << (jobs == 1 ? "" : "s") << '\n';

  if (!pending.empty()) {
    require_gnu_parallel();
    const fs::path rows_file = fs::path(dir) / "pending.txt";
    {
      std::ofstream rows(rows_file);
      for (size_t r : pending) rows << r << '\n';
    }
    // A progress bar on a terminal; otherwise one line per finished point for logs.
    const bool terminal = isatty(STDERR_FILENO);
    const std::string abs_dir = fs::absolute(dir).string();
    const std::string command = std::string(terminal ? "" : "WARPREG_SWEEP_VERBOSE=1 ") +
                                "parallel --will-cite --halt never --jobs " + std::to_string(jobs) +
                                (terminal ? " --bar" : "") + " --joblog " +
                                shell_quote(abs_dir + "/joblog.tsv") + " bash " +
                                shell_quote(abs_dir + "/run_point.sh") +
                                " :::: " + shell_quote(rows_file.string());
    const int rc = shell(command);
    if (rc < 0) throw std::runtime_error("GNU parallel did not finish normally: " + command);
    fs::remove(rows_file);
  }

  std::vector<const ManifestRow*> failed;
  for (const auto& row : manifest.rows) {
    if (!point_finished(dir, row)) failed.push_back(&row);
  }
  const size_t with_stats = collect_results(dir);
  std::cerr << "warpreg sweep: " << total - failed.size() << " of " << total << " points finished; "
            << with_stats << (with_stats == 1 ? " row" : " rows") << " with statistics in "
            << (fs::path(dir) / "results.csv").string() << '\n';
  if (failed.empty()) return kExitOk;
  std::cerr << "warpreg sweep: " << failed.size() << " point" << (failed.size() == 1 ? "" : "s")
            << " failed (re-running the sweep retries only these):\n";
  for (const ManifestRow* row : failed) {
    std::cerr << "  " << row->id << ": " << row->command
              << "\n    log: " << (fs::path(dir) / row->out_dir / "log").string() << '\n';
  }
  return kExitFailed;
}

/// --set KEY=VALUE: replaces the spec's fixed value of KEY, or adds one.
static void override_fixed(Spec& spec, const std::string& kv) {
  const size_t eq = kv.find('=');
  if (eq == 0 || eq == std::string::npos) throw UsageError("--set " + kv + ": expected KEY=VALUE");
  const std::string key = kv.substr(0, eq);
  const ParamSpec* param = find_param(key);
  if (param == nullptr) throw UsageError("--set " + kv + ": unknown parameter '" + key + "'");
  if (spec.axis(key) != nullptr)
    throw UsageError("--set " + kv + ": '" + key + "' is an axis of " + spec.name +
                     " (edit the spec to change its values)");
  const std::string value = parse_param_value(*param, kv.substr(eq + 1), "--set");
  auto same_key = [&key](const std::string& f) {
    return f.compare(0, key.size() + 1, key + "=") == 0;
  };
  spec.fixed.erase(std::remove_if(spec.fixed.begin(), spec.fixed.end(), same_key),
                   spec.fixed.end());
  spec.fixed.push_back(key + "=" + value);
}

po::options_description sweep_options() {
  po::options_description desc("Options of 'warpreg sweep'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("spec", po::value<std::string>()->value_name("SPEC.json"),
                     "The sweep spec (docs/sweeps.md); also the first free word.")(
      "out,o", po::value<std::string>()->value_name("DIR"),
      "Sweep folder: manifest.tsv, sweep.json, run_point.sh, points/ID/, results.csv. "
      "Required.")("jobs,j", po::value<int>()->default_value(0)->value_name("N"),
                   "Points run at once by GNU parallel; 0 means one per core.")(
      "quick", po::bool_switch(), "Apply the spec's \"quick\" fields (a reduced sweep).")(
      "set", po::value<std::vector<std::string>>()->value_name("KEY=VALUE"),
      "Override or add a fixed parameter of every point (not one of the spec's axes); "
      "repeatable. Recorded in DIR/sweep.json.")(
      "dry-run", po::bool_switch(), "Write the folder and the manifest but run nothing.")(
      "slurm", po::bool_switch(),
      "Write DIR/sweep.sbatch (a Slurm job array over the manifest) instead of running.")(
      "slurm-max-array", po::value<int>()->default_value(1000)->value_name("N"),
      "Array tasks at most; points are chunked so that the array fits.")(
      "slurm-partition", po::value<std::string>()->value_name("P"),
      "#SBATCH --partition. Default: the cluster's.")(
      "slurm-time", po::value<std::string>()->default_value("1:00:00")->value_name("T"),
      "#SBATCH --time per array task.")(
      "slurm-option", po::value<std::vector<std::string>>()->value_name("OPT"),
      "A further #SBATCH option, e.g. --account=abc; repeatable.");
  return desc;
}

int sweep_command(const po::variables_map& vm) {
  if (!vm.count("spec")) throw UsageError("missing the sweep spec (warpreg sweep SPEC.json)");
  if (!vm.count("out")) throw UsageError("--out DIR is required");
  const std::string dir = vm["out"].as<std::string>();
  Spec spec = load_spec(vm["spec"].as<std::string>(), vm["quick"].as<bool>());
  if (vm.count("set"))
    for (const std::string& kv : vm["set"].as<std::vector<std::string>>()) override_fixed(spec, kv);
  const std::vector<Point> points = expand(spec, expand_progress("warpreg sweep"));
  write_sweep_folder(spec, points, dir, self_binary());
  std::cerr << "warpreg sweep: " << points.size() << " points of " << spec.name << " in "
            << (fs::path(dir) / "manifest.tsv").string() << '\n';

  if (vm["slurm"].as<bool>()) {
    SlurmOptions options;
    options.max_array = vm["slurm-max-array"].as<int>();
    if (options.max_array < 1) throw UsageError("--slurm-max-array must be at least 1");
    if (vm.count("slurm-partition")) options.partition = vm["slurm-partition"].as<std::string>();
    options.time = vm["slurm-time"].as<std::string>();
    if (vm.count("slurm-option")) options.extra = vm["slurm-option"].as<std::vector<std::string>>();
    const std::string abs_dir = fs::absolute(dir).lexically_normal().string();
    fs::create_directories(fs::path(abs_dir) / "slurm");
    const fs::path script = fs::path(abs_dir) / "sweep.sbatch";
    std::ofstream(script) << slurm_script(spec.name, points.size(), options, abs_dir);
    std::cout << "Submit with:  sbatch " << script.string()
              << "\nthen merge with:  warpreg collect " << abs_dir << '\n';
    return kExitOk;
  }
  if (vm["dry-run"].as<bool>()) return kExitOk;
  return run_sweep_folder(dir, vm["jobs"].as<int>());
}

}  // namespace warpreg::cli

// `warpreg experiment`: runs a sweep spec shipped in experiments/ end to end (sweep,
// collect) and draws its figures with scripts/plot_results.py.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "apps/sweep/sweep_folder.h"
#include "apps/sweep_commands.h"
#include "common/data_dir.h"
#include "common/input_check.h"
#include "common/json_input.h"

namespace warpreg::cli {

namespace fs = std::filesystem;
using namespace warpreg::sweep;

namespace {

std::string experiments_dir() {
  const char* env = std::getenv("WARPREG_EXPERIMENTS");
  return env && *env ? env : data_path("experiments");
}

std::vector<std::string> experiment_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(experiments_dir(), ec)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

// Debian's python3-matplotlib lives under /usr/bin/python3, which a PATH python may hide.
std::string python() {
  const char* env = std::getenv("WARPREG_PYTHON");
  if (env && *env) return env;
  return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

po::options_description plot_options() {
  po::options_description desc("Options of 'warpreg plot'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("dir", po::value<std::string>()->required()->value_name("DIR"),
                     "A run's --out folder holding samples.csv (warpreg run --sample CYCLES "
                     "--out DIR); the figure goes to DIR/samples.png and DIR/samples.svg.");
  return desc;
}

int plot_command(const po::variables_map& vm) {
  const std::string dir = vm["dir"].as<std::string>();
  if (!fs::is_regular_file(fs::path(dir) / "samples.csv"))
    throw UsageError(dir +
                     "/samples.csv does not exist (write it with 'warpreg run --sample "
                     "CYCLES --out " +
                     dir + "')");
  const std::string command = shell_quote(python()) + " " +
                              shell_quote(WARPREG_SOURCE_DIR "/scripts/plot_samples.py") + " " +
                              shell_quote(dir);
  const int rc = std::system(command.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
    print_error("plotting failed (the script's message is above): " + command);
    return kExitFailed;
  }
  return kExitOk;
}

/// `warpreg experiment fidelity`: the report of issue 17, by scripts/fidelity.py, which runs
/// the experiments experiments/fidelity/rows.json names one at a time. The full run writes
/// docs/fidelity.md; --quick writes DIR/fidelity.md (CI), leaving docs/ alone.
static int fidelity_report(const po::variables_map& vm) {
  const bool quick = vm["quick"].as<bool>();
  const std::string dir = vm.count("out")
                              ? vm["out"].as<std::string>()
                              : std::string("out/experiments/fidelity") + (quick ? "-quick" : "");
  const int jobs = vm["jobs"].as<int>();
  std::string command = shell_quote(python()) + " " +
                        shell_quote(WARPREG_SOURCE_DIR "/scripts/fidelity.py") + " --binary " +
                        shell_quote(self_binary()) + " --out " + shell_quote(dir) + " --jobs " +
                        std::to_string(jobs > 0 ? jobs : 2);
  if (quick)
    command += " --quick";
  else
    command += " --doc " + shell_quote(WARPREG_SOURCE_DIR "/docs/fidelity.md");
  const int rc = std::system(command.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
    print_error("the fidelity report failed (the script's message is above): " + command);
    return kExitFailed;
  }
  return kExitOk;
}

po::options_description experiment_options() {
  po::options_description desc("Options of 'warpreg experiment'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("name", po::value<std::string>()->value_name("NAME"),
                     "The experiment (experiments/NAME.json); also the first free word. "
                     "Without it, the shipped experiments are listed.")(
      "out,o", po::value<std::string>()->value_name("DIR"),
      "Sweep folder, with the figures in DIR/figures. Default: out/experiments/NAME "
      "(NAME-quick with --quick).")("quick", po::bool_switch(),
                                    "Run the reduced version (seconds, used by CI).")(
      "jobs,j", po::value<int>()->default_value(0)->value_name("N"),
      "Points run at once; 0 means one per core.")("no-plots", po::bool_switch(),
                                                   "Stop after results.csv.");
  return desc;
}

int experiment_command(const po::variables_map& vm) {
  if (!vm.count("name")) {
    std::cout << "Experiments in " << experiments_dir() << ":\n";
    for (const auto& name : experiment_names()) {
      const Spec spec = load_spec((fs::path(experiments_dir()) / (name + ".json")).string());
      std::cout << "  " << name << '\n';
      // The description wrapped at 100 columns, indented under the name.
      std::istringstream words(spec.description);
      std::string word, line;
      while (words >> word) {
        if (!line.empty() && 6 + line.size() + 1 + word.size() > 100) {
          std::cout << "      " << line << '\n';
          line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
      }
      if (!line.empty()) std::cout << "      " << line << '\n';
    }
    return kExitOk;
  }
  const std::string name = vm["name"].as<std::string>();
  if (name == "fidelity") return fidelity_report(vm);
  const fs::path spec_file = fs::path(experiments_dir()) / (name + ".json");
  if (!path_exists(spec_file)) {
    std::string names;
    for (const auto& n : experiment_names()) names += (names.empty() ? "" : ", ") + n;
    throw UsageError("unknown experiment '" + excerpt(name) + "'; experiments: " + names +
                     ", fidelity");
  }
  const bool quick = vm["quick"].as<bool>();
  const std::string dir = vm.count("out") ? vm["out"].as<std::string>()
                                          : "out/experiments/" + name + (quick ? "-quick" : "");
  const Spec spec = load_spec(spec_file.string(), quick);
  const std::vector<Point> points = expand(spec, expand_progress("warpreg experiment"));
  write_sweep_folder(spec, points, dir, self_binary());
  std::cerr << "warpreg experiment: " << name << (quick ? " (quick)" : "") << ", " << points.size()
            << " points in " << dir << '\n';
  const int status = run_sweep_folder(dir, vm["jobs"].as<int>());
  if (vm["no-plots"].as<bool>() || spec.plots.empty()) return status;

  const fs::path figures = fs::path(dir) / "figures";
  const std::string command = shell_quote(python()) + " " +
                              shell_quote(data_path("scripts/plot_results.py")) + " " +
                              shell_quote((fs::path(dir) / "results.csv").string()) + " --spec " +
                              shell_quote((fs::path(dir) / "sweep.json").string()) + " --out " +
                              shell_quote(figures.string());
  const int rc = std::system(command.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
    print_error("plotting failed (the script's message is above): " + command +
                " (a missing matplotlib means Debian's python3-matplotlib is not installed; "
                "WARPREG_PYTHON names another Python)");
    return kExitFailed;
  }
  std::cout << "figures in " << figures.string() << '\n';
  return status;
}

}  // namespace warpreg::cli

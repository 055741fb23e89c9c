#pragma once
// The sweep, collect and experiment commands (sweep_command.cpp, collect_command.cpp,
// experiment_command.cpp) and what they share: running a sweep folder locally.
#include <string>

#include "apps/cli.h"
#include "apps/sweep/sweep_spec.h"

namespace warpreg::cli {

po::options_description sweep_options();
int sweep_command(const po::variables_map& vm);
po::options_description collect_options();
int collect_command(const po::variables_map& vm);
po::options_description experiment_options();
int experiment_command(const po::variables_map& vm);

/// The running program's absolute path, for the manifest's commands.
std::string self_binary();
/// Progress of expanding a large sweep on stderr ("WHO: expanding N of M points"), at
/// most once a second; silent for sweeps expanded in under a second.
sweep::ExpandProgress expand_progress(const std::string& who);
/// Runs the unfinished points of a sweep folder with GNU parallel (`jobs` at once, 0 =
/// all cores), reports failed points, then writes results.csv. Returns kExitOk when every
/// point has finished, kExitFailed otherwise.
int run_sweep_folder(const std::string& dir, int jobs);

}  // namespace warpreg::cli

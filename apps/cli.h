#pragma once
// The command-line program's shared pieces: the command table, the options every
// simulating command takes (--preset, --set, --workload) and the error rules.
// Exit codes: 0 success, 1 the simulation ran but did not end "ok", 2 bad input
// (command line, parameter, preset, workload, configuration).
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/params.h"

#ifndef WARPREG_VERSION
#define WARPREG_VERSION "0.1.0"  // keep equal to project(VERSION) in CMakeLists.txt
#endif

namespace warpreg::cli {

namespace po = boost::program_options;

/// Columns of --help output.
constexpr unsigned kHelpWidth = 100;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitBadInput = 2;

/// A command line that does not make sense; reported with a hint to --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  const char* name;
  const char* synopsis;  ///< options in brackets, for the usage line
  const char* summary;   ///< one line for `warpreg --help`
  po::options_description (*options)();
  int (*run)(const po::variables_map& vm);
  /// The option that bare words on the command line fill ("FILE" arguments), declared
  /// by options(); nullptr: bare words are an error.
  const char* positional = nullptr;
};

/// `warpreg vectors` (vectors_command.cpp).
po::options_description vectors_options();
int vectors_command(const po::variables_map& vm);

/// Every subcommand, in the order `warpreg --help` lists them.
const std::vector<Command>& commands();

/// `warpreg plot DIR` (experiment_command.cpp): draws a run's samples.csv.
po::options_description plot_options();
int plot_command(const po::variables_map& vm);
/// The Python that runs the plotting scripts (WARPREG_PYTHON, else Debian's).
std::string python();

/// `warpreg bench` (bench.cpp).
po::options_description bench_options();
int bench_command(const po::variables_map& vm);
/// `warpreg trace` (trace_command.cpp).
po::options_description trace_options();
int trace_command(const po::variables_map& vm);

/// `warpreg doc` (doc_command.cpp): the generated reference sections of the docs.
po::options_description doc_options();
int doc_command(const po::variables_map& vm);
std::string stats_reference();
std::string params_reference();
/// A parameter's range as `warpreg params` shows it ("1..256", ">=0", a choice list).
std::string range_text(const ParamSpec& spec);
/// `warpreg compile` (compile_command.cpp).
po::options_description compile_options();
int compile_command(const po::variables_map& vm);

/// Entry point behind sc_main: parses argv, dispatches, maps exceptions to exit codes.
int main_entry(int argc, char* argv[]);

/// Prints "warpreg: error: MESSAGE" on stderr.
void print_error(const std::string& message);
/// The command line this process was started with, words joined by spaces.
const std::string& invocation();
/// stats.json's "run": the simulator's version and revision, the command line, the host
/// and the wall time of the simulation (the only part of stats.json that differs between
/// two runs of the same configuration).
nlohmann::json provenance(double wall_seconds);

// Option groups shared by the commands, each added once here and read back with
// the matching function below.
void add_preset_option(po::options_description& desc);
void add_set_option(po::options_description& desc);
void add_workload_option(po::options_description& desc);

/// Params::load(--preset, leading + --set...): `leading` overrides come before the
/// user's so that the user can still change them.
Params load_params(const po::variables_map& vm, const std::vector<std::string>& leading = {});
std::string workload_name(const po::variables_map& vm);

// Output helpers shared by run and bench (stats_output.cpp).

/// A statistic by dotted name: a literal key ("rf.reads") or a path through nested
/// objects ({"rf": {"reads": ..}}); nullptr when absent.
const nlohmann::json* find_stat(const nlohmann::json& stats, const std::string& dotted);
/// The first of `names` that is a number, as double; `fallback` when none is.
double stat_number(const nlohmann::json& stats, const std::vector<std::string>& names,
                   double fallback);
/// Writes DIR/stats.json and DIR/stats.csv; throws std::runtime_error naming the file.
void write_stats_files(const nlohmann::json& stats, const std::string& dir);
/// "metric,value" rows of stats.csv: every number (booleans as 0/1) under its dotted
/// key, plus the preset, workload and status strings.
std::string stats_csv(const nlohmann::json& stats);
/// The run summary printed on stdout.
std::string stats_summary(const nlohmann::json& stats);
/// An energy in pJ scaled to pJ, nJ, µJ, mJ or J with its unit.
std::string format_energy(double pj);
/// A rate with a k/M/G prefix ("12.3 M").
std::string format_rate(double per_second);

}  // namespace warpreg::cli

// The subcommands run, params, describe and presets, and the command table.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "apps/cli.h"
#include "apps/sweep_commands.h"
#include "designs/design_registry.h"
#include "modules/interfaces/log.h"
#include "platforms/gpu/gpu_platform.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

namespace warpreg::cli {

static bool bounded(double limit) { return std::fabs(limit) < 1e299; }

static std::string bound_text(const ParamSpec& spec, double limit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec.type == ParamType::Int ? "%.0f" : "%g", limit);
  return buf;
}

std::string range_text(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Int:
    case ParamType::Real: {
      const bool lo = bounded(spec.min), hi = bounded(spec.max);
      if (lo && hi) return bound_text(spec, spec.min) + ".." + bound_text(spec, spec.max);
      if (lo) return ">=" + bound_text(spec, spec.min);
      if (hi) return "<=" + bound_text(spec, spec.max);
      return "any";
    }
    case ParamType::Bool:
      return "true|false";
    case ParamType::Choice: {
      std::string s;
      for (const auto& c : spec.choices) s += (s.empty() ? "" : "|") + c;
      return s;
    }
    case ParamType::Text:
      return "text";
  }
  return "";
}

namespace {

using nlohmann::json;

// ---------------------------------------------------------------- run

// --log BLOCK=LEVEL, before elaboration: blocks read their level when they are built.
void apply_log_levels(const std::vector<std::string>& settings) {
  for (const std::string& setting : settings) {
    const size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--log " + setting + ": expected BLOCK=LEVEL (e.g. regfile=debug)");
    try {
      LogLevels::set(setting.substr(0, eq), setting.substr(eq + 1));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--log " + setting + ": " + e.what());
    }
  }
}

po::options_description run_options() {
  po::options_description desc("Options of 'warpreg run'", kHelpWidth, kHelpWidth / 2);
  add_preset_option(desc);
  add_workload_option(desc);
  add_set_option(desc);
  desc.add_options()("out,o", po::value<std::string>()->value_name("DIR"),
                     "Write DIR/stats.json and DIR/stats.csv, creating DIR. Default: none (only "
                     "the summary is printed).")(
      "vcd", po::value<std::string>()->value_name("FILE"),
      "Write a VCD waveform to FILE: per bank accesses and power states, every design "
      "block's key state (docs/observability.md). Default: none.")(
      "trace-signals", po::bool_switch(),
      "With --vcd, also trace the SM's warp and scheduler signals (sm.issued, "
      "sm.resident_warps, sm.warps_at_barrier, sm.instructions_in_flight, "
      "sm.busy_collectors). Default: off.")(
      "sample", po::value<uint64_t>()->value_name("CYCLES"),
      "Write DIR/samples.csv (needs --out DIR): one row per CYCLES cycles with IPC, "
      "issue, occupancy, register-file accesses and power states and every block's "
      "dynamic power (docs/observability.md); plot it with 'warpreg plot DIR'. Default: "
      "none.")("log", po::value<std::vector<std::string>>()->value_name("BLOCK=LEVEL"),
               "Report verbosity of the SystemC messages of BLOCK (a hierarchical name such as "
               "rfv.renaming_table, or 'all'): none, low, medium, high, full or debug; "
               "repeatable. Default: none (warnings and errors only).")(
      "quiet,q", po::bool_switch(),
      "Print neither the summary nor the progress line; errors still go to stderr. "
      "Default: off.");
  return desc;
}

int run_command(const po::variables_map& vm) {
  const Params params = load_params(vm);
  auto workload = open_workload(workload_name(vm), params);
  const bool quiet = vm["quiet"].as<bool>();

  std::string out_dir;
  if (vm.count("out")) {
    out_dir = vm["out"].as<std::string>();
    if (out_dir.empty()) throw UsageError("--out needs a directory");
    // Fail before a long simulation rather than after it.
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw std::runtime_error("cannot create directory " + out_dir + ": " + ec.message());
  }

  RunSettings settings;
  if (vm.count("vcd")) settings.vcd_path = vm["vcd"].as<std::string>();
  settings.trace_signals = vm["trace-signals"].as<bool>();
  if (settings.trace_signals && settings.vcd_path.empty())
    throw UsageError("--trace-signals needs --vcd FILE");
  if (vm.count("sample")) {
    if (out_dir.empty()) throw UsageError("--sample needs --out DIR (it writes DIR/samples.csv)");
    settings.sample_cycles = vm["sample"].as<uint64_t>();
    if (settings.sample_cycles == 0)
      throw UsageError("--sample: the interval must be at least 1 cycle");
    settings.samples_path = (std::filesystem::path(out_dir) / "samples.csv").string();
  }
  if (vm.count("log")) apply_log_levels(vm["log"].as<std::vector<std::string>>());
  settings.progress = !quiet && isatty(STDERR_FILENO);
  const auto platform = make_platform(params, std::move(workload), settings);

  json stats;
  const auto started = std::chrono::steady_clock::now();
  try {
    stats = platform->run();
    stats["run"] = provenance(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  } catch (const ParamError&) {
    throw;
  } catch (const WorkloadError&) {
    throw;
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    // Anything else is the simulator failing, not the input: exit 1 like a failed run.
    print_error(std::string("simulation failed: ") + e.what());
    return kExitFailed;
  }

  if (const json* warning = find_stat(stats, "stimulus.warning"); warning && warning->is_string())
    std::cerr << "warpreg: warning: " << warning->get<std::string>() << '\n';
  if (!out_dir.empty()) write_stats_files(stats, out_dir);
  if (!quiet) {
    std::cout << stats_summary(stats);
    if (!out_dir.empty()) {
      const auto dir = std::filesystem::path(out_dir);
      std::cout << "\n  statistics written to " << (dir / "stats.json").string() << " and "
                << (dir / "stats.csv").string() << '\n';
    }
    std::cout.flush();
  }

  const json* status = find_stat(stats, "status");
  if (status && status->is_string() && status->get<std::string>() == "ok") return kExitOk;
  const json* error = find_stat(stats, "error");
  const std::string report = error && error->is_string() ? error->get<std::string>()
                             : error                     ? error->dump(2)
                                                         : "no error report";
  print_error("run ended with status " + (status ? status->dump() : std::string("(none)")) + ": " +
              report);
  return kExitFailed;
}

// ---------------------------------------------------------------- params

json typed_value(const Params& p, const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Int:
      return p.integer(spec.name);
    case ParamType::Real:
      return p.real(spec.name);
    case ParamType::Bool:
      return p.flag(spec.name);
    case ParamType::Choice:
    case ParamType::Text:
      return p.text(spec.name);
  }
  return nullptr;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The catalogue's open bounds are +-1e300.

std::string wrap(const std::string& text, size_t indent, size_t width) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + '\n';
  return out;
}

po::options_description params_options() {
  po::options_description desc("Options of 'warpreg params'", kHelpWidth, kHelpWidth / 2);
  add_preset_option(desc);
  add_set_option(desc);
  desc.add_options()("json", po::bool_switch(),
                     "Print a JSON array (one object per parameter) instead of the table. "
                     "Default: off.");
  return desc;
}

int params_command(const po::variables_map& vm) {
  const Params params = load_params(vm);
  const Params defaults;
  const auto& catalogue = param_catalogue();

  if (vm["json"].as<bool>()) {
    // ordered_json keeps "name" first, as a reader expects.
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ParamSpec& spec : catalogue) {
      nlohmann::ordered_json entry = {{"name", spec.name},
                                      {"type", to_string(spec.type)},
                                      {"value", typed_value(params, spec)},
                                      {"default", typed_value(defaults, spec)},
                                      {"unit", spec.unit},
                                      {"origin", params.origin(spec.name)},
                                      {"description", spec.description},
                                      {"source", spec.source}};
      if (spec.type == ParamType::Int || spec.type == ParamType::Real) {
        const auto limit = [&spec](double v) {
          if (!bounded(v)) return nlohmann::ordered_json(nullptr);
          if (spec.type == ParamType::Int) return nlohmann::ordered_json(static_cast<int64_t>(v));
          return nlohmann::ordered_json(v);
        };
        entry["min"] = limit(spec.min);
        entry["max"] = limit(spec.max);
      }
      if (spec.type == ParamType::Choice) entry["choices"] = spec.choices;
      out.push_back(std::move(entry));
    }
    std::cout << out.dump(2) << '\n';
    return kExitOk;
  }

  // Table: the columns' widths fit the longest cell; parameters grouped by prefix.
  const std::vector<std::string> header = {"NAME", "VALUE", "DEFAULT", "UNIT", "RANGE", "ORIGIN"};
  std::map<std::string, std::vector<std::vector<std::string>>> groups;
  std::map<std::string, std::vector<const ParamSpec*>> group_specs;
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const ParamSpec& spec : catalogue) {
    const std::string group = spec.name.substr(0, spec.name.find('.'));
    std::vector<std::string> row = {spec.name,
                                    value_text(typed_value(params, spec)),
                                    value_text(typed_value(defaults, spec)),
                                    spec.unit.empty() ? "-" : spec.unit,
                                    range_text(spec),
                                    params.origin(spec.name)};
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    groups[group].push_back(std::move(row));
    group_specs[group].push_back(&spec);
  }
  const auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = "  ";
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    std::cout << line << '\n';
  };

  std::cout << "Parameters under preset " << params.preset()
            << " (a value comes from its default, then the preset, then --set)\n\n";
  print_row(header);
  for (const auto& [group, rows] : groups) {
    std::cout << '\n' << group << '\n';
    for (size_t i = 0; i < rows.size(); ++i) {
      print_row(rows[i]);
      std::cout << wrap(group_specs[group][i]->description, 6, 100);
    }
  }
  return kExitOk;
}

// ---------------------------------------------------------------- describe

po::options_description describe_options() {
  po::options_description desc("Options of 'warpreg describe'", kHelpWidth, kHelpWidth / 2);
  add_preset_option(desc);
  add_workload_option(desc);
  add_set_option(desc);
  return desc;
}

int describe_command(const po::variables_map& vm) {
  const Params params = load_params(vm);
  // The kernel's shape decides occupancy and therefore what gets instantiated.
  const auto platform = make_platform(params, open_workload(workload_name(vm), params));
  std::cout << platform->describe().dump(2) << '\n';
  return kExitOk;
}

// ---------------------------------------------------------------- presets

po::options_description presets_options() {
  return po::options_description("Options of 'warpreg presets'", kHelpWidth, kHelpWidth / 2);
}

int presets_command(const po::variables_map&) {
  const std::vector<std::string> names = preset_names();
  if (names.empty()) throw std::runtime_error("no presets found in " + presets_dir());
  size_t name_width = 0;
  for (const auto& n : names) name_width = std::max(name_width, n.size());
  std::cout << "Presets in " << presets_dir() << ":\n";
  for (const auto& n : names) {
    const std::string description = Params::load(n).preset_description();
    const std::string text =
        wrap(description.empty() ? "(no description)" : description, name_width + 4, 100);
    // The first line goes beside the name, so drop its indentation.
    std::cout << "  " << n << std::string(name_width - n.size() + 2, ' ')
              << text.substr(name_width + 4);
  }
  return kExitOk;
}

// ---------------------------------------------------------------- designs

po::options_description designs_options() {
  po::options_description desc("Options of 'warpreg designs'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("json", "Print the registry as JSON.");
  return desc;
}

int designs_command(const po::variables_map& vm) {
  nlohmann::json all = nlohmann::json::array();
  for (const DesignSpec* d : DesignRegistry::instance().designs()) {
    std::vector<ParamSpec> params;
    if (d->declare_params) d->declare_params(params);
    nlohmann::json names = nlohmann::json::array();
    for (const ParamSpec& p : params) names.push_back(p.name);
    all.push_back({{"name", d->name},
                   {"title", d->title},
                   {"paper", d->paper},
                   {"claims", d->claims},
                   {"states_regfile_technology", static_cast<bool>(d->regfile_technology)},
                   {"parameters", names},
                   {"vectors", d->vectors}});
  }
  if (vm.count("json")) {
    std::cout << all.dump(2) << '\n';
    return kExitOk;
  }
  std::cout << "Designs (add with --design NAME, or \"designs\": [...] in a preset):\n";
  for (const auto& d : all) {
    std::cout << "  " << d["name"].get<std::string>() << "\n"
              << wrap(d["title"].get<std::string>() + " (" + d["paper"].get<std::string>() + ")", 6,
                      100);
    for (const auto& claim : d["claims"])
      std::cout << "      takes over the " << claim.get<std::string>() << "\n";
    if (d["states_regfile_technology"].get<bool>())
      std::cout << "      states the register file's technology (banks, latency, energy)\n";
  }
  return kExitOk;
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run",
       "[--preset P] [--workload W] [--out DIR] [--design D]... [--set KEY=VALUE]... [--vcd FILE] "
       "[--trace-signals] [--sample CYCLES] [--log BLOCK=LEVEL]... [--quiet]",
       "Simulate a workload on a preset; print cycles, IPC, integrity and energy per block.",
       run_options, run_command},
      {"params", "[--preset P] [--design D]... [--set KEY=VALUE]... [--json]",
       "List every parameter with its value under a preset, default, unit, range and origin.",
       params_options, params_command},
      {"describe", "[--preset P] [--workload W] [--design D]... [--set KEY=VALUE]...",
       "Elaborate the platform without running it; print its hardware description as JSON.",
       describe_options, describe_command},
      {"presets", "", "List the shipped presets with their description.", presets_options,
       presets_command},
      {"doc", "stats|params",
       "Print the generated reference of every block's statistics or every parameter "
       "(the tables of docs/stats.md and docs/parameters.md).",
       doc_options, doc_command, "what"},
      {"plot", "DIR",
       "Draw a run's time series (samples.csv of 'run --sample CYCLES --out DIR') into "
       "DIR/samples.png and .svg.",
       plot_options, plot_command, "dir"},
      {"designs", "[--json]",
       "List the register-file designs a machine can take (--design), what each takes over.",
       designs_options, designs_command},
      {"compile",
       "FILE.dot|FILE.traceg [--function NAME] [--regs-per-interval N]... [--threads-per-cta T] "
       "[--preset P] [--set KEY=VALUE]... [--json]",
       "Run the compiler passes on a kernel; print liveness, release flags, |E_s| and intervals.",
       compile_options, compile_command, "file"},
      {"bench", "[--json] [--calls N] [--set KEY=VALUE]...",
       "Measure simulation speed on baseline/synthetic against an empty TLM b_transport.",
       bench_options, bench_command},
      {"vectors", "GENERATOR [--count N] [--seed S] [--format jsonl|memh] [--out FILE]",
       "Write golden vectors of a block's core (e.g. bdi) for RTL testbenches (docs/vectors.md).",
       vectors_options, vectors_command, "generator"},
      {"trace", "(--profile P | --workload W) --out FILE [--preset P] [--set KEY=VALUE]...",
       "Write a workload's dynamic warp instructions as a trace; print its value-similarity bins.",
       trace_options, trace_command},
      {"sweep", "SPEC.json --out DIR [--jobs N] [--quick] [--dry-run] [--slurm [--slurm-*]]",
       "Expand a sweep spec into runs; run them with GNU parallel or write a Slurm job array.",
       sweep_options, sweep_command, "spec"},
      {"collect", "DIR [--baseline AXIS=VALUE]...",
       "Merge a sweep folder's stats.json files into DIR/results.csv with normalised columns.",
       collect_options, collect_command, "dir"},
      {"experiment", "[NAME] [--quick] [--out DIR] [--jobs N] [--no-plots]",
       "Run a shipped experiment (experiments/NAME.json) end to end and draw its figures.",
       experiment_options, experiment_command, "name"},
  };
  return table;
}

}  // namespace warpreg::cli

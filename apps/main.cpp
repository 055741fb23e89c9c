// warpreg: the command-line program. Parses the subcommand, maps every error to a
// message and an exit code (apps/cli.h); the commands live in commands.cpp and bench.cpp.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "apps/cli.h"
#include "common/data_dir.h"

namespace warpreg::cli {

namespace {

constexpr const char* kProgram = "warpreg";

const Command* find_command(const std::string& name) {
  for (const Command& c : commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

po::options_description command_options(const Command& c) {
  po::options_description desc = c.options();
  desc.add_options()("help,h", "Show this command's options and exit.");
  return desc;
}

void print_command_help(std::ostream& os, const Command& c) {
  os << "Usage: " << kProgram << ' ' << c.name << ' ' << c.synopsis << "\n\n"
     << c.summary << "\n\n"
     << command_options(c);
}

void print_help(std::ostream& os) {
  os << "Usage: " << kProgram << " COMMAND [OPTIONS]\n"
     << "       " << kProgram << " --help | --version\n\n"
     << "Models of energy-efficient GPU register files on a SystemC/TLM-2.0 SM platform.\n\n"
     << "Commands:\n";
  for (const Command& c : commands()) {
    os << "  " << c.name << std::string(12 - std::string(c.name).size(), ' ') << c.summary << '\n';
  }
  os << "\nOptions:\n"
     << "  -h [ --help ]         Show this help and exit.\n"
     << "  --version             Show the version of warpreg and its libraries and exit.\n";
  for (const Command& c : commands()) {
    os << '\n' << command_options(c);
  }
  os << "\nExit status: 0 success, 1 the simulation did not end \"ok\", 2 bad input.\n";
}

void print_version(std::ostream& os) {
  os << kProgram << ' ' << WARPREG_VERSION << '\n'
     << "SystemC " << sc_core::sc_release() << ", Boost " << BOOST_VERSION / 100000 << '.'
     << BOOST_VERSION / 100 % 1000 << ", nlohmann_json " << NLOHMANN_JSON_VERSION_MAJOR << '.'
     << NLOHMANN_JSON_VERSION_MINOR << '.' << NLOHMANN_JSON_VERSION_PATCH << '\n'
     << "data: " << data_dir() << '\n';
}

void usage_hint(const std::string& command) {
  std::cerr << "Try '" << kProgram << (command.empty() ? "" : " " + command) << " --help'.\n";
}

int dispatch(int argc, char* argv[], std::string& command) {
  if (argc < 2) throw UsageError("missing command");
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(std::cout);
    return kExitOk;
  }
  if (first == "--version") {
    print_version(std::cout);
    return kExitOk;
  }
  if (!first.empty() && first[0] == '-') {
    throw UsageError("unrecognised option '" + first + "' (the command comes first)");
  }
  const Command* cmd = find_command(first);
  if (!cmd) {
    std::string names;
    for (const Command& c : commands()) names += std::string(names.empty() ? "" : ", ") + c.name;
    throw UsageError("unknown command '" + first + "'; commands: " + names);
  }
  command = cmd->name;

  const std::vector<std::string> args(argv + 2, argv + argc);
  // Bare words go to the command's positional option; otherwise a hidden option
  // collects them so that the error can name them.
  po::options_description desc = command_options(*cmd);
  desc.add_options()("stray-argument", po::value<std::vector<std::string>>());
  po::positional_options_description stray;
  if (cmd->positional) stray.add(cmd->positional, 1);
  stray.add("stray-argument", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(desc).positional(stray).run(), vm);
  if (vm.count("help")) {
    print_command_help(std::cout, *cmd);
    return kExitOk;
  }
  if (vm.count("stray-argument")) {
    throw UsageError("unexpected argument '" +
                     vm["stray-argument"].as<std::vector<std::string>>().front() + "'");
  }
  po::notify(vm);
  return cmd->run(vm);
}

}  // namespace

void print_error(const std::string& message) {
  std::cerr << kProgram << ": error: " << message << std::endl;
}

void add_preset_option(po::options_description& desc) {
  desc.add_options()("preset,p",
                     po::value<std::string>()->default_value("baseline")->value_name("P"),
                     "Preset: a shipped name (see 'warpreg presets') or a path to a .json file.");
}

void add_set_option(po::options_description& desc) {
  desc.add_options()("set,s", po::value<std::vector<std::string>>()->value_name("KEY=VALUE"),
                     "Override one parameter after the preset; repeatable, applied in order "
                     "(see 'warpreg params'). Default: none.");
  desc.add_options()("design,d", po::value<std::vector<std::string>>()->value_name("NAME"),
                     "Add a register-file design to the preset's machine (rfv, wc, tric, coma, "
                     "regmutex, ltrf; see 'warpreg designs'); repeatable, after the preset's "
                     "own \"designs\". Default: none.");
}

void add_workload_option(po::options_description& desc) {
  desc.add_options()("workload,w",
                     po::value<std::string>()->default_value("synthetic")->value_name("W"),
                     "'synthetic' (the built-in generator, synth.*), a benchmark profile "
                     "name (stimuli/profiles, e.g. rfv-hotspot) or .json file, an nvdisasm "
                     "kernel FILE.dot[:function] (dot.*), an Accel-Sim FILE.traceg, or a "
                     "warpreg text trace.");
}

Params load_params(const po::variables_map& vm, const std::vector<std::string>& leading) {
  std::vector<std::string> sets = leading;
  if (vm.count("set")) {
    const auto& user = vm["set"].as<std::vector<std::string>>();
    sets.insert(sets.end(), user.begin(), user.end());
  }
  const std::string preset = vm.count("preset") ? vm["preset"].as<std::string>() : "baseline";
  std::vector<std::string> designs;
  if (vm.count("design")) designs = vm["design"].as<std::vector<std::string>>();
  return Params::load(preset, sets, designs);
}

std::string workload_name(const po::variables_map& vm) {
  return vm.count("workload") ? vm["workload"].as<std::string>() : "synthetic";
}

namespace {
std::string& invocation_text() {
  static std::string text;
  return text;
}
}  // namespace

const std::string& invocation() { return invocation_text(); }

nlohmann::json provenance(double wall_seconds) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return {{"version", WARPREG_VERSION},
          {"revision", WARPREG_REVISION},
          {"command", invocation()},
          {"host", host},
          {"wall_time_s", wall_seconds}};
}

int main_entry(int argc, char* argv[]) {
  std::string command;
  for (int i = 0; i < argc; ++i) invocation_text() += std::string(i ? " " : "") + argv[i];
  try {
    return dispatch(argc, argv, command);
  } catch (const UsageError& e) {
    print_error(e.what());
    usage_hint(command);
  } catch (const po::error& e) {
    print_error(e.what());
    usage_hint(command);
  } catch (const std::exception& e) {
    // ParamError, WorkloadError, ConfigError, TechError: their messages name the culprit.
    print_error(e.what());
  } catch (...) {
    print_error("unexpected exception of unknown type");
  }
  return kExitBadInput;
}

}  // namespace warpreg::cli

// SystemC prints its banner on stderr before sc_main runs; this main turns it off
// (unless the user's environment says otherwise) and then enters SystemC as usual.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) { return warpreg::cli::main_entry(argc, argv); }

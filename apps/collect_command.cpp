// `warpreg collect`: merges a sweep folder's points into DIR/results.csv.
#include <filesystem>
#include <iostream>

#include "apps/sweep/sweep_folder.h"
#include "apps/sweep_commands.h"

namespace warpreg::cli {

po::options_description collect_options() {
  po::options_description desc("Options of 'warpreg collect'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("dir", po::value<std::string>()->value_name("DIR"),
                     "The sweep folder; also the first free word.")(
      "baseline", po::value<std::vector<std::string>>()->value_name("AXIS=VALUE"),
      "Pick the baseline point of each row by these axis values (the other axes follow the "
      "row), replacing the spec's \"baseline\"; repeatable. Default: the spec's.");
  return desc;
}

int collect_command(const po::variables_map& vm) {
  if (!vm.count("dir")) throw UsageError("missing the sweep folder (warpreg collect DIR)");
  const std::string dir = vm["dir"].as<std::string>();
  std::vector<std::pair<std::string, std::string>> baseline;
  if (vm.count("baseline")) {
    for (const auto& item : vm["baseline"].as<std::vector<std::string>>()) {
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw UsageError("--baseline expects AXIS=VALUE, got '" + item + "'");
      }
      baseline.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
  }
  const sweep::Manifest manifest = sweep::read_manifest(dir);
  const size_t with_stats = sweep::collect_results(dir, baseline);
  std::cout << (std::filesystem::path(dir) / "results.csv").string() << ": " << manifest.rows.size()
            << " points, " << with_stats << " with statistics\n";
  return with_stats == manifest.rows.size() ? kExitOk : kExitFailed;
}

}  // namespace warpreg::cli

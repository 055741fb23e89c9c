// `warpreg doc stats|params`: the reference tables of docs/stats.md and
// docs/parameters.md, generated from the statistic and parameter sets every block
// declares, so that the documentation cannot drift from the code (a test compares).
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include "apps/cli.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "designs/design_registry.h"

namespace warpreg::cli {

namespace {

// Pipes would end a Markdown table cell.
std::string cell(std::string text) {
  for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}

}  // namespace

std::string stats_reference() {
  std::map<std::string, std::unique_ptr<StatSet>> sets;
  for (auto& set : StatRegistry::instance().instances()) {
    const std::string block = set->block();
    sets.emplace(block, std::move(set));
  }
  std::ostringstream out;
  out << "Every block also reports `events`, `dynamic_pj`, `leakage_pj`, `average_power_w`, "
         "`storage_bits` and, when it has power states, `residency` (docs/power.md). "
         "\"GPU total\" says how a platform of several SMs combines the SMs' values into its "
         "top-level `blocks` (docs/gpu.md): the sum, the mean over the SMs, or the largest; "
         "the keys above sum.\n";
  for (const auto& [block, set] : sets) {
    out << "\n### `" << block << "`\n\n";
    if (set->specs().empty()) {
      out << "Energy only.\n";
      continue;
    }
    out << "| statistic | type | unit | GPU total | meaning |\n| --- | --- | --- | --- | --- |\n";
    for (const StatSet::Spec& s : set->specs())
      out << "| `" << s.name << "` | " << s.type << " | " << cell(s.unit) << " | "
          << to_string(s.combine) << " | " << cell(s.description) << " |\n";
  }
  return out.str();
}

std::string params_reference() {
  std::map<std::string, std::vector<const ParamSpec*>> groups;
  for (const ParamSpec& spec : param_catalogue())
    groups[spec.name.substr(0, spec.name.find('.'))].push_back(&spec);
  std::ostringstream out;
  for (const auto& [group, specs] : groups) {
    out << "\n### `" << group << ".*`\n\n"
        << "| parameter | type | default | unit | range | meaning | source |\n"
        << "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const ParamSpec* s : specs)
      out << "| `" << s->name << "` | " << to_string(s->type) << " | `" << s->default_value
          << "` | " << cell(s->unit) << " | " << cell(range_text(*s)) << " | "
          << cell(s->description) << " | " << cell(s->source) << " |\n";
  }
  return out.str();
}

po::options_description doc_options() {
  po::options_description desc("Options of 'warpreg doc'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("what", po::value<std::string>()->required()->value_name("stats|params"),
                     "Which reference to print: stats (docs/stats.md) or params "
                     "(docs/parameters.md).");
  return desc;
}

int doc_command(const po::variables_map& vm) {
  const std::string what = vm["what"].as<std::string>();
  if (what == "stats")
    std::cout << stats_reference();
  else if (what == "params")
    std::cout << params_reference();
  else
    throw UsageError("warpreg doc: unknown reference '" + what + "' (stats or params)");
  return kExitOk;
}

}  // namespace warpreg::cli

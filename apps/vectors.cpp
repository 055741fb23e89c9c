// warpreg vectors: golden vectors of a block's core for RTL test benches (a seeded
// event sequence with the outputs the hardware must produce), as JSON on stdout.
#include <iostream>
#include <string>
#include <vector>

#include "apps/cli.h"
#include "modules/wrf/wrf_vectors.h"

namespace warpreg::cli {

namespace {

struct VectorSource {
  const char* block;
  nlohmann::json (*generate)(uint64_t seed, uint32_t steps);
};

/// One row per block that emits vectors.
const std::vector<VectorSource>& vector_sources() {
  static const std::vector<VectorSource> sources = {
      {"tric", tric_vectors},
      {"coma", coma_vectors},
  };
  return sources;
}

std::string block_names() {
  std::string names;
  for (const VectorSource& s : vector_sources())
    names += std::string(names.empty() ? "" : "|") + s.block;
  return names;
}

}  // namespace

po::options_description vectors_options() {
  static const std::string block_help =
      "Block whose core emits the vectors: " + block_names() + ".";
  po::options_description desc("Options of 'warpreg vectors'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()("block,b", po::value<std::string>()->value_name("B"), block_help.c_str())(
      "seed", po::value<uint64_t>()->default_value(1)->value_name("N"),
      "Seed of the event sequence.")("steps",
                                     po::value<uint32_t>()->default_value(200)->value_name("N"),
                                     "Number of random steps (each one or a few events).");
  return desc;
}

int vectors_command(const po::variables_map& vm) {
  if (!vm.count("block")) throw UsageError("vectors needs --block " + block_names());
  const std::string block = vm["block"].as<std::string>();
  for (const VectorSource& s : vector_sources()) {
    if (block != s.block) continue;
    std::cout << s.generate(vm["seed"].as<uint64_t>(), vm["steps"].as<uint32_t>()).dump(1) << "\n";
    return kExitOk;
  }
  throw UsageError("--block " + block + ": no vectors for this block; blocks: " + block_names());
}

}  // namespace warpreg::cli

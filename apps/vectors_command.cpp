// warpreg vectors GENERATOR: golden vectors of a block's core for RTL testbenches.
// Generators are kept in one table keyed by name; a design adds its own with one
// line here and the generator function beside its core (modules/<block>/).
#include <fstream>
#include <iostream>

#include "apps/cli.h"
#include "modules/bdi/bdi_vectors.h"
#include "modules/ltrf/ltrf_vectors.h"
#include "modules/regmutex/regmutex_vectors.h"
#include "modules/rfv/rfv_vectors.h"
#include "modules/wrf/wrf_vectors.h"

namespace warpreg::cli {

namespace {

struct VectorGenerator {
  const char* name;
  const char* description;
  /// Writes the generator's vectors to `out`; returns how many.
  uint64_t (*write)(std::ostream& out, uint64_t count, uint64_t seed);
};

const std::vector<VectorGenerator>& generators() {
  static const std::vector<VectorGenerator> table = {
      {"bdi",
       "Warped-Compression BDI codec (<4,0>, <4,1>, <4,2>): 32 lanes -> encoding, range "
       "indicator, image bytes, banks (docs/blocks/bdi.md)",
       [](std::ostream& out, uint64_t count, uint64_t seed) {
         return bdi::write_vectors(out, count, seed, bdi::Variant::Warped);
       }},
      {"bdi-original",
       "the original BDI search (<4,*>, <8,*>, <2,1>, smallest image) on the same inputs",
       [](std::ostream& out, uint64_t count, uint64_t seed) {
         return bdi::write_vectors(out, count, seed, bdi::Variant::Original);
       }},
      {"rename-table",
       "RFV renaming table: COUNT seeded write / read / release / warp-exit operations with "
       "the physical register or release each returns and the free registers per bank "
       "(docs/blocks/rfv.md)",
       write_rename_table_vectors},
      {"release-flag-cache",
       "RFV release flag cache: COUNT seeded pir probes with hit or miss, the flags a hit "
       "returns and the fill after a miss (docs/blocks/rfv.md)",
       write_release_flag_cache_vectors},
      {"tric",
       "Warped Register File TRIC core: a seeded event sequence (collector assignments, reads, "
       "writebacks; COUNT steps) with each entry's ON/DROWSY/OFF state and wake-up wait, as one "
       "JSON document (docs/blocks/tric.md)",
       [](std::ostream& out, uint64_t count, uint64_t seed) {
         out << tric_vectors(seed, static_cast<uint32_t>(count)).dump(1) << '\n';
         return count;
       }},
      {"coma",
       "Warped Register File COMA mask table: a seeded event sequence (COUNT steps) with the "
       "lanes each access switches, as one JSON document (docs/blocks/coma.md)",
       [](std::ostream& out, uint64_t count, uint64_t seed) {
         out << coma_vectors(seed, static_cast<uint32_t>(count)).dump(1) << '\n';
         return count;
       }},
      {"regmutex",
       "RegMutex SRP allocator: boundary set then COUNT seeded acquire/release steps (N_w = 48, "
       "26 sections) -> outcome, section, SRP bitmask, mapped physical registers "
       "(docs/blocks/regmutex.md)",
       regmutex::write_vectors},
      {"aau",
       "LTRF address allocation unit (16 cache banks): a seeded sequence of COUNT allocations and "
       "deallocations with the result and the unused and occupied queues after each, as one JSON "
       "document (docs/blocks/ltrf.md)",
       [](std::ostream& out, uint64_t count, uint64_t seed) {
         out << aau_vectors(seed, static_cast<uint32_t>(count)).dump(1) << '\n';
         return count;
       }},
  };
  return table;
}

std::string generator_list() {
  std::string s;
  for (const VectorGenerator& g : generators())
    s += std::string(s.empty() ? "" : "; ") + g.name + " = " + g.description;
  return s;
}

}  // namespace

po::options_description vectors_options() {
  po::options_description desc("Options of 'warpreg vectors'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()(
      "generator", po::value<std::string>()->value_name("NAME"),
      ("Which vectors (also the first word after 'vectors'): " + generator_list()).c_str())(
      "count,n", po::value<uint64_t>()->default_value(1000)->value_name("N"),
      "Random vectors written after the fixed boundary set.")(
      "seed,s", po::value<uint64_t>()->default_value(1)->value_name("S"),
      "Seed of the random vectors (the same seed gives the same file).")(
      "out,o", po::value<std::string>()->value_name("FILE"),
      "Write to FILE instead of standard output.");
  return desc;
}

int vectors_command(const po::variables_map& vm) {
  if (!vm.count("generator")) throw UsageError("vectors needs a generator: " + generator_list());
  const std::string name = vm["generator"].as<std::string>();
  const VectorGenerator* gen = nullptr;
  for (const VectorGenerator& g : generators())
    if (name == g.name) gen = &g;
  if (!gen) {
    std::string names;
    for (const VectorGenerator& g : generators())
      names += std::string(names.empty() ? "" : ", ") + g.name;
    throw UsageError("unknown vector generator '" + name + "'; generators: " + names);
  }
  const uint64_t count = vm["count"].as<uint64_t>();
  const uint64_t seed = vm["seed"].as<uint64_t>();
  if (!vm.count("out")) {
    gen->write(std::cout, count, seed);
    std::cout.flush();
    return kExitOk;
  }
  const std::string path = vm["out"].as<std::string>();
  std::ofstream file(path);
  if (!file) throw std::runtime_error("cannot write " + path);
  const uint64_t written = gen->write(file, count, seed);
  file.close();
  if (!file) throw std::runtime_error("error writing " + path);
  std::cerr << "warpreg: " << written << ' ' << name << " vectors written to " << path << '\n';
  return kExitOk;
}

}  // namespace warpreg::cli

// warpreg vectors GENERATOR: golden vectors of a block's core for RTL testbenches, in the
// one format of docs/vectors.md. Each generator is a vectors::VectorGenerator described
// beside its core (modules/<block>/*_vectors.h); this table lists them.
#include <cctype>
#include <fstream>
#include <iostream>

#include "apps/cli.h"
#include "common/golden_vectors.h"
#include "common/output_file.h"
#include "modules/bdi/bdi_vectors.h"
#include "modules/ltrf/ltrf_vectors.h"
#include "modules/regmutex/regmutex_vectors.h"
#include "modules/rfv/rfv_vectors.h"
#include "modules/wrf/wrf_vectors.h"

namespace warpreg::cli {

namespace {

const std::vector<vectors::VectorGenerator>& generators() {
  static const std::vector<vectors::VectorGenerator> table = {
      bdi::vector_generator(bdi::Variant::Warped),
      bdi::vector_generator(bdi::Variant::Original),
      rename_table_vector_generator(),
      release_flag_cache_vector_generator(),
      tric_vector_generator(),
      coma_vector_generator(),
      regmutex::vector_generator(),
      aau_vector_generator(),
  };
  return table;
}

std::string generator_list() {
  std::string s;
  for (const vectors::VectorGenerator& g : generators())
    s += std::string(s.empty() ? "" : "; ") + g.name + " = " + g.description +
         " (--count: " + g.count_meaning + ")";
  return s;
}

/// A whole number in [0, max], decimal or 0x hex; a UsageError naming the option otherwise.
uint64_t parse_number(const po::variables_map& vm, const char* option, uint64_t max) {
  const std::string text = vm[option].as<std::string>();
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const auto fail = [&]() -> UsageError {
    return UsageError(std::string("--") + option + " must be a whole number from 0 to " +
                      std::to_string(max) + ", got '" + text + "'");
  };
  if (digits.empty() || digits.size() > 20) throw fail();
  uint64_t value = 0;
  for (char c : digits) {
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : hex && std::isxdigit(static_cast<unsigned char>(c))
                      ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                      : -1;
    const uint64_t base = hex ? 16 : 10;
    if (d < 0 || value > (max - uint64_t(d)) / base) throw fail();
    value = value * base + uint64_t(d);
  }
  return value;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

po::options_description vectors_options() {
  po::options_description desc("Options of 'warpreg vectors'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()(
      "generator", po::value<std::string>()->value_name("NAME"),
      ("Which vectors (also the first word after 'vectors'): " + generator_list()).c_str())(
      "count,n", po::value<std::string>()->default_value("1000")->value_name("N"),
      ("Steps of the seeded sequence (what a step is: see the generator), 0 to " +
       std::to_string(vectors::kMaxCount) + ".")
          .c_str())("seed,s", po::value<std::string>()->default_value("1")->value_name("S"),
                    "Seed of the sequence (decimal or 0x hex; the same seed gives the same file).")(
      "format,f", po::value<std::string>()->value_name("F"),
      "jsonl (a header record, then one JSON object per step) or memh ($readmemh words, "
      "docs/vectors.md). Default: memh when --out ends in .memh or .hex, else jsonl.")(
      "out,o", po::value<std::string>()->value_name("FILE"),
      "Write to FILE instead of standard output.");
  return desc;
}

int vectors_command(const po::variables_map& vm) {
  if (!vm.count("generator")) throw UsageError("vectors needs a generator: " + generator_list());
  const std::string name = vm["generator"].as<std::string>();
  const vectors::VectorGenerator* gen = nullptr;
  for (const vectors::VectorGenerator& g : generators())
    if (name == g.name) gen = &g;
  if (!gen) {
    std::string names;
    for (const vectors::VectorGenerator& g : generators())
      names += std::string(names.empty() ? "" : ", ") + g.name;
    throw UsageError("unknown vector generator '" + name + "'; generators: " + names);
  }
  const uint64_t count = parse_number(vm, "count", vectors::kMaxCount);
  const uint64_t seed = parse_number(vm, "seed", ~uint64_t{0});
  const std::string path = vm.count("out") ? vm["out"].as<std::string>() : "";
  vectors::Format format = vectors::Format::JsonLines;
  if (vm.count("format")) {
    try {
      format = vectors::format_from_string(vm["format"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--format: ") + e.what());
    }
  } else if (ends_with(path, ".memh") || ends_with(path, ".hex")) {
    format = vectors::Format::Memh;
  }
  if (path.empty()) {
    vectors::write_vectors(*gen, format, std::cout, count, seed);
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("error writing standard output");
    return kExitOk;
  }
  OutputFile file(path);
  const uint64_t written = vectors::write_vectors(*gen, format, file.stream(), count, seed);
  file.commit();
  std::cerr << "warpreg: " << written << ' ' << name << " records (" << vectors::to_string(format)
            << ") written to " << path << '\n';
  return kExitOk;
}

}  // namespace warpreg::cli

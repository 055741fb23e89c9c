#include "stimuli/benchmarks/benchmark_table.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/data_dir.h"
#include "common/errors.h"
#include "common/json_input.h"
#include "modules/interfaces/workload.h"
#include "stimuli/import/input_file.h"

namespace warpreg {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* kPrefix = "real:";

uint32_t count(const json& row, const char* key, const std::string& where) {
  if (!row.contains(key) || row.at(key).is_null()) return 0;
  const json& value = row.at(key);
  if (!value.is_number_unsigned() || value.get<uint64_t>() > (1u << 24))
    throw WorkloadError(where + "." + key + ": must be a whole number up to 2^24");
  return value.get<uint32_t>();
}

std::string text(const json& row, const char* key, const std::string& where, bool required) {
  if (!row.contains(key)) {
    if (required) throw WorkloadError(where + "." + key + ": missing");
    return "";
  }
  if (!row.at(key).is_string()) throw WorkloadError(where + "." + key + ": must be a string");
  return row.at(key).get<std::string>();
}

/// A JSON input of the stimulus layer; a bad file is a WorkloadError naming it.
JsonDocument read_json(const std::string& path, const char* what) {
  try {
    return JsonDocument::read_file(path, what, input_limits::kMaxProfileBytes);
  } catch (const JsonInputError& e) {
    throw WorkloadError(e.what());
  }
}

memory::AddressMix mix_from(const nlohmann::json& mix, const std::string& where) {
  try {
    return memory::AddressMix::from_json(mix, where);
  } catch (const ConfigError& e) {
    throw WorkloadError(e.what());
  }
}

}  // namespace

std::string benchmark_table_path() { return data_path("stimuli/benchmarks/benchmarks.json"); }

std::string shared_data_dir() {
  const char* env = std::getenv("WARPREG_SHARED_DATA");
  if (env != nullptr && *env != '\0') return env;
  return (std::filesystem::path(data_dir()) / ".." / "shared" / "data").lexically_normal().string();
}

std::vector<BenchmarkRow> read_benchmark_table(const std::string& path) {
  const JsonDocument input = read_json(path, "benchmark table");
  const json& doc = input.root();
  if (!doc.is_object() || !doc.contains("rows") || !doc.at("rows").is_array())
    throw WorkloadError(path + ": expected an object with a \"rows\" array");
  std::vector<BenchmarkRow> rows;
  for (size_t i = 0; i < doc.at("rows").size(); ++i) {
    const json& r = doc.at("rows")[i];
    const std::string field = "rows[" + std::to_string(i) + "]";
    const std::string where = path + ":" + std::to_string(input.line_of(field)) + ": " + field;
    if (!r.is_object()) throw WorkloadError(where + ": must be an object");
    static const char* kKeys[] = {"id",
                                  "paper",
                                  "row",
                                  "profile",
                                  "kernels",
                                  "ctas",
                                  "threads_per_cta",
                                  "regs_per_thread",
                                  "concurrent_ctas",
                                  "sources",
                                  "note"};
    for (auto it = r.begin(); it != r.end(); ++it)
      if (std::find(std::begin(kKeys), std::end(kKeys), it.key()) == std::end(kKeys))
        throw WorkloadError(where + "." + excerpt(it.key()) + ": unknown key");
    BenchmarkRow row;
    row.id = text(r, "id", where, true);
    row.paper = text(r, "paper", where, true);
    row.row = text(r, "row", where, true);
    row.profile = text(r, "profile", where, true);
    row.note = text(r, "note", where, false);
    if (r.contains("kernels")) {
      if (!r.at("kernels").is_array()) throw WorkloadError(where + ".kernels: must be an array");
      for (const json& k : r.at("kernels")) {
        if (!k.is_string()) throw WorkloadError(where + ".kernels: entries must be strings");
        row.kernels.push_back(k.get<std::string>());
      }
    }
    row.ctas = count(r, "ctas", where);
    row.threads_per_cta = count(r, "threads_per_cta", where);
    row.regs_per_thread = count(r, "regs_per_thread", where);
    row.concurrent_ctas = count(r, "concurrent_ctas", where);
    if (r.contains("sources")) {
      if (!r.at("sources").is_object()) throw WorkloadError(where + ".sources: must be an object");
      for (auto it = r.at("sources").begin(); it != r.at("sources").end(); ++it) {
        if (!it.value().is_string())
          throw WorkloadError(where + ".sources." + excerpt(it.key()) + ": must be a string");
        row.sources[it.key()] = it.value().get<std::string>();
      }
    }
    for (const char* field : {"ctas", "threads_per_cta", "regs_per_thread", "concurrent_ctas"})
      if (count(r, field, where) != 0 && row.sources.count(field) == 0)
        throw WorkloadError(where + ".sources." + field + ": every number needs its source");
    for (const BenchmarkRow& other : rows)
      if (other.id == row.id)
        throw WorkloadError(where + ".id: " + quote_text(row.id) + " appears twice");
    rows.push_back(std::move(row));
  }
  return rows;
}

bool is_benchmark_name(const std::string& name) { return name.rfind(kPrefix, 0) == 0; }

BenchmarkKernel benchmark_kernel(const std::string& name) {
  std::string id = name.substr(std::string(kPrefix).size());
  size_t pick = 0;
  const size_t hash = id.find('#');
  if (hash != std::string::npos) {
    const std::string k = id.substr(hash + 1);
    if (k.empty() || k.size() > 3 || k.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(k) == 0)
      throw WorkloadError(excerpt(name) + ": '#" + k + "' must be a kernel number from 1");
    pick = std::stoul(k) - 1;
    id = id.substr(0, hash);
  }
  const std::vector<BenchmarkRow> rows = read_benchmark_table(benchmark_table_path());
  for (const BenchmarkRow& row : rows) {
    if (row.id != id) continue;
    BenchmarkKernel out;
    out.row = row.id;
    out.ctas = row.ctas;
    out.threads_per_cta = row.threads_per_cta;
    // Only a paper's count widens the allocation; an assumed one says nothing real.
    const auto regs_source = row.sources.find("regs_per_thread");
    if (regs_source != row.sources.end() && regs_source->second.rfind("paper", 0) == 0)
      out.regs_per_thread = row.regs_per_thread;
    if (row.kernels.empty()) {
      if (pick != 0) throw WorkloadError(excerpt(name) + ": row " + id + " has no real kernel");
      out.workload = "profile:" + row.profile;
      return out;
    }
    if (pick >= row.kernels.size())
      throw WorkloadError(excerpt(name) + ": row " + id + " has " +
                          std::to_string(row.kernels.size()) + " kernel(s)");
    out.workload = shared_data_dir() + "/" + row.kernels[pick];
    return out;
  }
  throw WorkloadError("unknown benchmark '" + id + "' (" + benchmark_table_path() + " has " +
                      std::to_string(rows.size()) + " rows)");
}

std::string address_mix_table_path() { return data_path("stimuli/benchmarks/address_mixes.json"); }

std::optional<memory::AddressMix> benchmark_address_mix(const std::string& row,
                                                        const std::string& path) {
  const JsonDocument input = read_json(path, "address mix table");
  const json& table = input.root();
  if (!table.is_object() || !table.contains("mixes") || !table["mixes"].is_object())
    throw WorkloadError(path + ": expected an object with \"mixes\" keyed by benchmark");
  for (const auto& [name, entry] : table["mixes"].items()) {
    const std::string where = path + ": mixes." + name;
    if (!entry.is_object() || !entry.contains("rows") || !entry["rows"].is_array())
      throw WorkloadError(where + ".rows: required (the benchmark rows the mix is for)");
    bool listed = false;
    for (const json& r : entry["rows"]) listed = listed || (r.is_string() && r == row);
    if (!listed) continue;
    nlohmann::json mix(entry);
    mix.erase("rows");
    mix["benchmark"] = name;
    return mix_from(mix, where);
  }
  return std::nullopt;
}

std::optional<memory::AddressMix> resolve_address_mix(const std::string& setting,
                                                      const std::string& row) {
  if (setting == "none") return std::nullopt;
  if (setting == "benchmark")
    return row.empty() ? std::nullopt : benchmark_address_mix(row, address_mix_table_path());
  const JsonDocument input = read_json(setting, "address mix (kernel.address_mix)");
  return mix_from(nlohmann::json(input.root()), setting);
}

}  // namespace warpreg

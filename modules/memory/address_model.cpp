#include "modules/memory/address_model.h"

#include <algorithm>

#include "common/errors.h"

namespace warpreg::memory {

namespace {

// splitmix64's finaliser: a counter-based hash, the same on every platform.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr std::pair<AddressPattern, const char*> kPatterns[] = {
    {AddressPattern::Coalesced, "coalesced"},
    {AddressPattern::Strided, "strided"},
    {AddressPattern::Random, "random"},
    {AddressPattern::Uniform, "uniform"}};

constexpr MemSpace kSpaces[] = {MemSpace::Global, MemSpace::Local, MemSpace::Constant,
                                MemSpace::Shared};

[[noreturn]] void refuse(std::string_view name, const std::string& field, const std::string& why) {
  throw ConfigError(std::string(name) + "." + field + " " + why);
}

MemSpace space_named(const std::string& text, std::string_view where, const std::string& field) {
  for (const MemSpace s : kSpaces)
    if (to_string(s) == text) return s;
  refuse(where, field, "is '" + text + "' (expected global, local, constant or shared)");
}

AddressPattern pattern_named(const std::string& text, std::string_view where,
                             const std::string& field) {
  for (const auto& [p, n] : kPatterns)
    if (text == n) return p;
  refuse(where, field, "is '" + text + "' (expected coalesced, strided, random or uniform)");
}

uint64_t unsigned_field(const nlohmann::json& j, const char* key, uint64_t fallback,
                        std::string_view where, const std::string& path) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<int64_t>() >= 0))
    refuse(where, path + key, "must be a non-negative integer");
  return it->get<uint64_t>();
}

AddressModelConfig model_from(const nlohmann::json& j, AddressModelConfig m, std::string_view where,
                              const std::string& path) {
  if (!j.is_object()) refuse(where, path.substr(0, path.size() - 1), "must be an object");
  static const char* const kKeys[] = {"space", "pattern",      "access_bytes",
                                      "base",  "stride_bytes", "footprint_bytes",
                                      "array", "pc",           "share"};
  for (const auto& item : j.items()) {
    bool known = false;
    for (const char* k : kKeys) known = known || item.key() == k;
    if (!known) refuse(where, path + item.key(), "is not a field of an address model");
  }
  if (const auto it = j.find("space"); it != j.end()) {
    if (!it->is_string()) refuse(where, path + "space", "must be a string");
    m.space = space_named(it->get<std::string>(), where, path + "space");
  }
  if (const auto it = j.find("pattern"); it != j.end()) {
    if (!it->is_string()) refuse(where, path + "pattern", "must be a string");
    m.pattern = pattern_named(it->get<std::string>(), where, path + "pattern");
  }
  const uint64_t bytes = unsigned_field(j, "access_bytes", m.access_bytes, where, path);
  if (bytes > 16) refuse(where, path + "access_bytes", "must be 1, 2, 4, 8 or 16");
  m.access_bytes = static_cast<uint32_t>(bytes);
  m.base = unsigned_field(j, "base", m.base, where, path);
  m.stride_bytes = unsigned_field(j, "stride_bytes", m.stride_bytes, where, path);
  m.footprint_bytes = unsigned_field(j, "footprint_bytes", m.footprint_bytes, where, path);
  if (const auto it = j.find("array"); it != j.end()) {
    if (!it->is_string() || (*it != "own" && *it != "fixed"))
      refuse(where, path + "array", "must be 'own' or 'fixed'");
    m.own_array = *it == "own";
  }
  return m;
}

void validate_shares(const std::vector<AddressShare>& shares, const std::string& name) {
  double total = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    const std::string where = name + ".shares[" + std::to_string(i) + "]";
    const AddressShare& s = shares[i];
    if (!(s.share > 0 && s.share <= 1)) refuse(where, "share", "must be in (0, 1]");
    if (s.model.space == MemSpace::Local)
      refuse(where, "space", "cannot be local (local words follow the thread's frame)");
    s.model.validate(where);
    total += s.share;
  }
  if (total > 1 + 1e-9)
    refuse(name, "shares", "add up to " + std::to_string(total) + " (at most 1)");
}

nlohmann::json model_json(const AddressModelConfig& m) {
  return {
      {"space", std::string(to_string(m.space))}, {"pattern", std::string(to_string(m.pattern))},
      {"access_bytes", m.access_bytes},           {"base", m.base},
      {"stride_bytes", m.stride_bytes},           {"footprint_bytes", m.footprint_bytes},
      {"array", m.own_array ? "own" : "fixed"}};
}

constexpr uint64_t kGlobalArrays = 0x10000000ull;  // 32 x 64 MiB from 256 MiB
constexpr uint64_t kGlobalArrayBytes = 0x4000000ull;
constexpr uint64_t kGlobalArrayCount = 32;
constexpr uint64_t kConstantTables = 0x0F000000ull;  // 16 x 4 KiB from 240 MiB
constexpr uint64_t kConstantTableBytes = 0x1000ull;
constexpr uint64_t kConstantTableCount = 16;

}  // namespace

std::string_view to_string(AddressPattern pattern) {
  for (const auto& [p, n] : kPatterns)
    if (p == pattern) return n;
  return "?";
}

uint64_t array_base(MemSpace space, uint64_t pc) {
  if (space == MemSpace::Constant)
    return kConstantTables + ((pc >> 3) % kConstantTableCount) * kConstantTableBytes;
  return kGlobalArrays + ((pc >> 3) % kGlobalArrayCount) * kGlobalArrayBytes;
}

uint64_t array_bytes(MemSpace space) {
  if (space == MemSpace::Constant) return kConstantTableBytes;
  return space == MemSpace::Global ? kGlobalArrayBytes : 0;
}

void AddressModelConfig::validate(std::string_view name) const {
  if (access_bytes != 1 && access_bytes != 2 && access_bytes != 4 && access_bytes != 8 &&
      access_bytes != 16)
    refuse(name, "access_bytes",
           "must be 1, 2, 4, 8 or 16 (got " + std::to_string(access_bytes) + ")");
  if (pattern == AddressPattern::Strided && stride_bytes == 0)
    refuse(name, "stride_bytes", "must be at least 1 for the strided pattern");
  if (pattern == AddressPattern::Random && footprint_bytes < access_bytes)
    refuse(name, "footprint_bytes",
           "must be at least access_bytes for the random pattern (got " +
               std::to_string(footprint_bytes) + ")");
  if (footprint_bytes != 0 && footprint_bytes % access_bytes != 0)
    refuse(name, "footprint_bytes", "must be a multiple of access_bytes");
  if (space == MemSpace::Local && pattern != AddressPattern::Coalesced)
    refuse(name, "pattern",
           "must be coalesced for local memory (each thread's words are private and interleaved)");
  if (space == MemSpace::Local && base % 4 != 0)
    refuse(name, "base", "must be a multiple of 4 for local memory (a word of the thread's frame)");
  if (own_array && space != MemSpace::Global && space != MemSpace::Constant)
    refuse(name, "array", "can be 'own' only for global and constant memory");
  if (own_array && base + footprint_bytes > array_bytes(space))
    refuse(name, "footprint_bytes",
           "with base must fit the instruction's own array (" + std::to_string(array_bytes(space)) +
               " bytes)");
}

AddressModel::AddressModel(const AddressModelConfig& config, uint64_t seed, uint64_t pc,
                           const LocalLayout& local, std::string_view name)
    : config_(config), seed_(seed), pc_(pc), local_(local) {
  config_.validate(name);
  if (config_.own_array) {
    if (config_.footprint_bytes == 0)
      config_.footprint_bytes = array_bytes(config_.space) - config_.base;
    config_.base += array_base(config_.space, pc);
  }
  if (local_.sms == 0 || local_.threads_per_sm == 0)
    throw ConfigError(std::string(name) + ": the local layout needs SMs and threads");
}

uint64_t AddressModel::address(const AccessSite& s, uint32_t lane) const {
  const AddressModelConfig& c = config_;
  if (c.space == MemSpace::Local) {
    const uint64_t thread =
        uint64_t(s.sm) * local_.threads_per_sm + uint64_t(s.warp_slot) * kWarpSize + lane;
    return local_.base + ((c.base / 4) * local_.threads() + thread) * 4;
  }
  const uint64_t t = (s.instance * s.grid_warps + s.warp) * kWarpSize + lane;
  uint64_t offset = 0;
  switch (c.pattern) {
    case AddressPattern::Coalesced:
      offset = t * c.access_bytes;
      break;
    case AddressPattern::Strided:
      offset = t * c.stride_bytes;
      break;
    case AddressPattern::Random: {
      const uint64_t h = mix(mix(mix(mix(mix(seed_) ^ pc_) ^ s.warp) ^ s.instance) ^ lane);
      offset = (h % (c.footprint_bytes / c.access_bytes)) * c.access_bytes;
      break;
    }
    case AddressPattern::Uniform:
      offset = s.instance * c.access_bytes;
      break;
  }
  if (c.footprint_bytes != 0) offset %= c.footprint_bytes;
  return c.base + offset;
}

void AddressModel::generate(const AccessSite& site, LaneMask active, WarpAccess& out) const {
  out.active = active;
  out.bytes = config_.access_bytes;
  out.space = config_.space;
  out.local_word_stride = config_.space == MemSpace::Local ? local_.threads() * 4 : 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    out.address[lane] = (active & (1u << lane)) ? address(site, lane) : 0;
}

uint64_t shared_region_bytes(uint64_t shared_mem_per_cta, uint32_t access_bytes) {
  const uint64_t bytes = std::max<uint64_t>(shared_mem_per_cta, kWarpSize * 16);
  return bytes - bytes % access_bytes;
}

AddressModelConfig default_model(MemSpace space) {
  AddressModelConfig m;
  m.space = space;
  if (space == MemSpace::Global || space == MemSpace::Constant) m.own_array = true;
  if (space == MemSpace::Constant) m.pattern = AddressPattern::Uniform;
  return m;
}

AddressModelConfig AddressMix::model_for(uint64_t pc, MemSpace space, bool declared,
                                         bool store) const {
  if (const auto it = instructions.find(pc); it != instructions.end()) return it->second;
  // 53 bits of a hash of (seed, pc): the same instruction draws the same share every run.
  const double draw = double(mix(mix(seed) ^ pc) >> 11) * 0x1.0p-53;
  double cumulative = 0;
  for (const AddressShare& s : shares) {
    if (declared && s.model.space != space) continue;
    if (store && s.model.space == MemSpace::Constant) continue;
    cumulative += s.share;
    if (draw < cumulative) return s.model;
  }
  if (!declared) space = MemSpace::Global;
  if (const auto it = defaults.find(space); it != defaults.end()) return it->second;
  return default_model(space);
}

void AddressMix::validate(std::string_view name) const {
  const std::string n = std::string(name) + (benchmark.empty() ? "" : "." + benchmark);
  for (const auto& [space, m] : defaults) {
    const std::string where = n + ".defaults." + std::string(to_string(space));
    if (m.space != space) refuse(where, "space", "differs from the default it is listed under");
    m.validate(where);
  }
  validate_shares(shares, n);
  for (const auto& [pc, m] : instructions)
    m.validate(n + ".instructions[pc " + std::to_string(pc) + "]");
}

nlohmann::json AddressMix::to_json() const {
  nlohmann::json j = {{"benchmark", benchmark}, {"seed", seed}, {"rationale", rationale}};
  j["defaults"] = nlohmann::json::object();
  for (const auto& [space, m] : defaults) {
    nlohmann::json model = model_json(m);
    model.erase("space");
    j["defaults"][std::string(to_string(space))] = model;
  }
  j["shares"] = nlohmann::json::array();
  for (const AddressShare& s : shares) {
    nlohmann::json model = model_json(s.model);
    model["share"] = s.share;
    j["shares"].push_back(model);
  }
  j["instructions"] = nlohmann::json::array();
  for (const auto& [pc, m] : instructions) {
    nlohmann::json model = model_json(m);
    model["pc"] = pc;
    j["instructions"].push_back(model);
  }
  return j;
}

AddressMix AddressMix::from_json(const nlohmann::json& j, std::string_view where) {
  if (!j.is_object())
    throw ConfigError(std::string(where) + ": an address mix must be a JSON object");
  AddressMix mix;
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k != "benchmark" && k != "seed" && k != "rationale" && k != "defaults" && k != "shares" &&
        k != "instructions")
      refuse(where, k, "is not a field of an address mix");
  }
  if (const auto it = j.find("benchmark"); it != j.end()) {
    if (!it->is_string()) refuse(where, "benchmark", "must be a string");
    mix.benchmark = it->get<std::string>();
  }
  if (const auto it = j.find("rationale"); it != j.end()) {
    if (!it->is_string()) refuse(where, "rationale", "must be a string");
    mix.rationale = it->get<std::string>();
  }
  mix.seed = unsigned_field(j, "seed", mix.seed, where, "");
  if (const auto it = j.find("defaults"); it != j.end()) {
    if (!it->is_object()) refuse(where, "defaults", "must be an object keyed by space");
    for (const auto& item : it->items()) {
      const std::string path = "defaults." + item.key() + ".";
      AddressModelConfig m;
      m.space = space_named(item.key(), where, "defaults." + item.key());
      m = model_from(item.value(), m, where, path);
      if (item.value().contains("space") && m.space != space_named(item.key(), where, path))
        refuse(where, path + "space", "differs from the default it is listed under");
      m.validate(std::string(where) + "." + path.substr(0, path.size() - 1));
      mix.defaults[m.space] = m;
    }
  }
  if (const auto it = j.find("shares"); it != j.end()) {
    if (!it->is_array()) refuse(where, "shares", "must be an array");
    for (size_t i = 0; i < it->size(); ++i) {
      const nlohmann::json& entry = (*it)[i];
      const std::string path = "shares[" + std::to_string(i) + "].";
      if (!entry.is_object() || !entry.contains("share") || !entry["share"].is_number())
        refuse(where, path + "share", "is required (a fraction of the instructions)");
      if (!entry.contains("space")) refuse(where, path + "space", "is required");
      if (entry.contains("pc")) refuse(where, path + "pc", "belongs in \"instructions\"");
      AddressShare s;
      s.share = entry["share"].get<double>();
      s.model = model_from(entry, AddressModelConfig{}, where, path);
      mix.shares.push_back(s);
    }
  }
  if (const auto it = j.find("instructions"); it != j.end()) {
    if (!it->is_array()) refuse(where, "instructions", "must be an array");
    for (size_t i = 0; i < it->size(); ++i) {
      const nlohmann::json& entry = (*it)[i];
      const std::string path = "instructions[" + std::to_string(i) + "].";
      if (!entry.is_object() || !entry.contains("pc"))
        refuse(where, path + "pc", "is required (the instruction's PC)");
      if (!entry.contains("space")) refuse(where, path + "space", "is required");
      const uint64_t pc = unsigned_field(entry, "pc", 0, where, path);
      if (mix.instructions.count(pc) != 0)
        refuse(where, path + "pc", "repeats PC " + std::to_string(pc));
      if (entry.contains("share")) refuse(where, path + "share", "belongs in \"shares\"");
      const AddressModelConfig m = model_from(entry, AddressModelConfig{}, where, path);
      m.validate(std::string(where) + "." + path.substr(0, path.size() - 1));
      mix.instructions[pc] = m;
    }
  }
  validate_shares(mix.shares, std::string(where));
  return mix;
}

}  // namespace warpreg::memory

#include "power/energy.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/data_dir.h"
#include "common/json_input.h"
#include "common/params.h"

namespace warpreg::power {

namespace fs = std::filesystem;

const char* to_string(PowerState s) {
  switch (s) {
    case PowerState::On:
      return "on";
    case PowerState::Drowsy:
      return "drowsy";
    case PowerState::Off:
      return "off";
    case PowerState::Gated:
      return "gated";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Technology tables

std::string tech_dir() {
  const char* env = std::getenv("WARPREG_TECH");
  if (env != nullptr && *env != '\0') return env;
  return data_path("power/tech");
}

std::vector<std::string> tech_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tech_dir(), ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}

// A path when it looks like one, so that "wc45" never picks up ./wc45 by accident.
bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || fs::path(s).extension() == ".json";
}

using Json = nlohmann::ordered_json;

const Json& require(const Json& obj, const char* field, Json::value_t type, const JsonDocument& doc,
                    const std::string& prefix) {
  auto it = obj.find(field);
  bool ok = it != obj.end();
  if (ok && type == Json::value_t::number_float) {
    ok = it->is_number();
  } else if (ok) {
    ok = it->type() == type;
  }
  if (!ok) {
    const char* what = type == Json::value_t::string   ? "a string"
                       : type == Json::value_t::object ? "an object"
                                                       : "a number";
    const std::string name = prefix + field;
    const std::string parent = prefix.empty() ? "(top level)" : prefix.substr(0, prefix.size() - 1);
    throw TechError((it == obj.end() ? doc.where(parent) : doc.where(name)) +
                    (it == obj.end() ? "missing \"" + std::string(field) + "\"" : "malformed") +
                    " (expected " + what + ")");
  }
  return *it;
}

TechValue parse_value(const std::string& key, const Json& j, const JsonDocument& doc) {
  const std::string prefix = "values." + key;
  if (!j.is_object()) throw TechError(doc.where(prefix) + "is not an object");
  TechValue v;
  v.value = require(j, "value", Json::value_t::number_float, doc, prefix + ".").get<double>();
  if (!std::isfinite(v.value)) throw TechError(doc.where(prefix + ".value") + "is not finite");
  v.unit = require(j, "unit", Json::value_t::string, doc, prefix + ".").get<std::string>();
  v.source = require(j, "source", Json::value_t::string, doc, prefix + ".").get<std::string>();
  if (v.unit.empty() || v.source.empty()) {
    throw TechError(doc.where(prefix) + "\"unit\" and \"source\" must not be empty");
  }
  for (const auto& [field, item] : j.items()) {
    if (field == "value" || field == "unit" || field == "source") continue;
    if (field == "per" && item.is_string()) {
      v.per = item.get<std::string>();
    } else if (item.is_number()) {
      v.attributes[field] = item.get<double>();
    } else {
      // Anything else is most likely a typo of a known field: refuse rather than ignore it.
      throw TechError(doc.where(prefix + "." + field) + "unknown field " + quote_text(field) +
                      " (only value, unit, per, source and numeric attributes)");
    }
  }
  return v;
}

}  // namespace

TechTable TechTable::load(const std::string& name_or_path) {
  std::string file = name_or_path;
  if (!looks_like_path(name_or_path)) {
    file = tech_dir() + "/" + name_or_path + ".json";
    if (!fs::exists(file)) {
      throw TechError("unknown technology table \"" + name_or_path + "\": " + file +
                      " not found (shipped: " + join(tech_names()) + ")");
    }
  }
  const JsonDocument doc = [&file] {
    try {
      return JsonDocument::read_file(file, "technology table");
    } catch (const JsonInputError& e) {
      throw TechError(e.what());
    }
  }();
  const Json& j = doc.root();
  if (!j.is_object()) throw TechError(file + ": a technology table must be a JSON object");

  TechTable t;
  t.path_ = file;
  t.name_ = require(j, "name", Json::value_t::string, doc, "").get<std::string>();
  t.description_ = require(j, "description", Json::value_t::string, doc, "").get<std::string>();
  t.technology_nm_ =
      require(j, "technology_nm", Json::value_t::number_float, doc, "").get<double>();
  const auto& values = require(j, "values", Json::value_t::object, doc, "");
  for (const auto& [key, item] : values.items()) {
    t.values_.emplace_back(key, parse_value(key, item, doc));
  }
  return t;
}

bool TechTable::has(const std::string& key) const {
  return std::any_of(values_.begin(), values_.end(),
                     [&](const auto& kv) { return kv.first == key; });
}

const TechValue& TechTable::at(const std::string& key) const {
  for (const auto& [k, v] : values_) {
    if (k == key) return v;
  }
  throw TechError("technology table \"" + name_ + "\" (" + path_ + ") has no value \"" + key +
                  "\"");
}

double TechTable::value_for(const std::string& block, const std::string& key) const {
  if (!has(key))
    throw TechError(block + " needs the coefficient \"" + key + "\", which technology table \"" +
                    name_ + "\" (" + path_ + ") does not have (power.tech; docs/power.md)");
  return value(key);
}

double TechTable::attribute(const std::string& key, const std::string& attribute) const {
  const TechValue& v = at(key);
  auto it = v.attributes.find(attribute);
  if (it == v.attributes.end()) {
    throw TechError("technology table \"" + name_ + "\" (" + path_ + "): value \"" + key +
                    "\" has no attribute \"" + attribute + "\"");
  }
  return it->second;
}

nlohmann::json TechTable::to_json() const {
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [key, v] : values_) {
    nlohmann::json item = {{"value", v.value}, {"unit", v.unit}, {"source", v.source}};
    if (!v.per.empty()) item["per"] = v.per;
    for (const auto& [attr, x] : v.attributes) item[attr] = x;
    values[key] = std::move(item);
  }
  return {{"name", name_},
          {"description", description_},
          {"technology_nm", technology_nm_},
          {"values", std::move(values)}};
}

// ---------------------------------------------------------------------------
// Energy account

EnergyAccount::EnergyAccount(std::string block, double cycle_ns)
    : block_(std::move(block)), cycle_ns_(cycle_ns) {
  if (!(cycle_ns_ > 0) || !std::isfinite(cycle_ns_)) {
    throw std::invalid_argument("energy account " + block_ + ": cycle_ns must be positive");
  }
}

EnergyAccount::EventId EnergyAccount::add_event(std::string name, std::string description,
                                                double pj_per_event) {
  for (const auto& e : events_) {
    if (e.name == name) throw std::logic_error(block_ + ": event " + name + " declared twice");
  }
  if (!(pj_per_event >= 0) || !std::isfinite(pj_per_event)) {
    throw std::invalid_argument(block_ + ": event " + name + " has a negative or invalid energy");
  }
  events_.push_back({std::move(name), std::move(description), pj_per_event, 0});
  return static_cast<EventId>(events_.size() - 1);
}

EnergyAccount::GroupId EnergyAccount::add_residency(std::string name, std::string description,
                                                    uint32_t units, PowerState initial,
                                                    const double (&mw_per_unit)[kPowerStateCount]) {
  for (const auto& g : groups_) {
    if (g.name == name) {
      throw std::logic_error(block_ + ": residency group " + name + " declared twice");
    }
  }
  Group g;
  g.name = std::move(name);
  g.description = std::move(description);
  for (unsigned s = 0; s < kPowerStateCount; ++s) {
    if (!(mw_per_unit[s] >= 0) || !std::isfinite(mw_per_unit[s])) {
      throw std::invalid_argument(block_ + ": residency group " + g.name +
                                  " has a negative or invalid leakage power");
    }
    g.mw[s] = mw_per_unit[s];
  }
  g.units[static_cast<unsigned>(initial)] = units;
  groups_.push_back(std::move(g));
  return static_cast<GroupId>(groups_.size() - 1);
}

EnergyAccount::GroupId EnergyAccount::add_measured_residency(std::string name,
                                                             std::string description,
                                                             uint32_t units, double mw_on) {
  const double mw[kPowerStateCount] = {mw_on, 0.0, 0.0, 0.0};
  const GroupId id =
      add_residency(std::move(name), std::move(description), units, PowerState::On, mw);
  groups_[id].measured = true;
  return id;
}

void EnergyAccount::set_measured(GroupId group, const uint64_t (&unit_cycles)[kPowerStateCount],
                                 double on_equivalent_unit_cycles) {
  Group& g = groups_.at(group);
  if (!g.measured)
    throw std::logic_error(block_ + ": residency group " + g.name + " is not measured");
  for (unsigned s = 0; s < kPowerStateCount; ++s) g.unit_cycles[s] = unit_cycles[s];
  g.on_equivalent = on_equivalent_unit_cycles;
}

void EnergyAccount::integrate(Group& g, uint64_t cycle) {
  if (g.measured) return;
  if (cycle < g.last_cycle) {
    throw std::logic_error(block_ + ": residency group " + g.name + ": cycle " +
                           std::to_string(cycle) + " is before its last change at cycle " +
                           std::to_string(g.last_cycle) + " (cycles must not go backwards)");
  }
  const uint64_t dt = cycle - g.last_cycle;
  for (unsigned s = 0; s < kPowerStateCount; ++s) g.unit_cycles[s] += uint64_t{g.units[s]} * dt;
  g.last_cycle = cycle;
}

void EnergyAccount::set_unit_power(GroupId group, const double (&mw_per_unit)[kPowerStateCount]) {
  Group& g = groups_.at(group);
  for (unsigned s = 0; s < kPowerStateCount; ++s) g.mw[s] = mw_per_unit[s];
}

void EnergyAccount::transition(GroupId group, PowerState from, PowerState to, uint64_t cycle,
                               uint32_t n) {
  Group& g = groups_.at(group);
  const auto f = static_cast<unsigned>(from);
  if (g.units[f] < n) {
    throw std::logic_error(block_ + ": residency group " + g.name + ": cannot move " +
                           std::to_string(n) + " units out of " + to_string(from) + " at cycle " +
                           std::to_string(cycle) + ", only " + std::to_string(g.units[f]) +
                           " are there");
  }
  integrate(g, cycle);
  g.units[f] -= n;
  g.units[static_cast<unsigned>(to)] += n;
}

uint32_t EnergyAccount::units_in(GroupId group, PowerState s) const {
  return groups_.at(group).units[static_cast<unsigned>(s)];
}

uint64_t EnergyAccount::unit_cycles(GroupId group, PowerState s, uint64_t cycle) const {
  const Group& g = groups_.at(group);
  if (cycle < g.last_cycle) {
    throw std::logic_error(block_ + ": residency group " + g.name + " queried at cycle " +
                           std::to_string(cycle) + ", before its last change at cycle " +
                           std::to_string(g.last_cycle));
  }
  const auto i = static_cast<unsigned>(s);
  return g.unit_cycles[i] + uint64_t{g.units[i]} * (cycle - g.last_cycle);
}

void EnergyAccount::finish(uint64_t cycle) {
  for (auto& g : groups_) integrate(g, cycle);
}

double EnergyAccount::dynamic_pj() const {
  double pj = 0;
  for (const auto& e : events_) pj += static_cast<double>(e.count) * e.pj;
  return pj;
}

double EnergyAccount::leakage_of(const Group& g) const {
  // mW x ns = pJ.
  if (g.measured) return g.on_equivalent * g.mw[0] * cycle_ns_;
  double pj = 0;
  for (unsigned s = 0; s < kPowerStateCount; ++s)
    pj += static_cast<double>(g.unit_cycles[s]) * g.mw[s] * cycle_ns_;
  return pj;
}

double EnergyAccount::leakage_pj() const {
  // Summed state by state across groups (not group subtotals), as reports always have.
  double pj = 0;
  for (const auto& g : groups_) {
    if (g.measured) {
      pj += leakage_of(g);
      continue;
    }
    for (unsigned s = 0; s < kPowerStateCount; ++s)
      pj += static_cast<double>(g.unit_cycles[s]) * g.mw[s] * cycle_ns_;
  }
  return pj;
}

double EnergyAccount::group_leakage_pj(GroupId group) const {
  return leakage_of(groups_.at(group));
}

nlohmann::json EnergyAccount::to_json() const {
  nlohmann::json events = nlohmann::json::object();
  for (const auto& e : events_) events[e.name] = e.count;
  nlohmann::json out = {
      {"events", std::move(events)}, {"dynamic_pj", dynamic_pj()}, {"leakage_pj", leakage_pj()}};
  if (!groups_.empty()) {
    nlohmann::json residency = nlohmann::json::object();
    for (const auto& g : groups_) {
      nlohmann::json states = nlohmann::json::object();
      for (unsigned s = 0; s < kPowerStateCount; ++s) {
        states[to_string(static_cast<PowerState>(s))] = g.unit_cycles[s];
      }
      residency[g.name] = std::move(states);
    }
    out["residency"] = std::move(residency);
  }
  return out;
}

nlohmann::json EnergyAccount::describe() const {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : events_) {
    events.push_back({{"name", e.name}, {"description", e.description}, {"pj_per_event", e.pj}});
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : groups_) {
    nlohmann::json mw = nlohmann::json::object();
    uint32_t units = 0;
    for (unsigned s = 0; s < kPowerStateCount; ++s) {
      mw[to_string(static_cast<PowerState>(s))] = g.mw[s];
      units += g.units[s];
    }
    groups.push_back({{"name", g.name},
                      {"description", g.description},
                      {"units", units},
                      {"mw_per_unit", std::move(mw)}});
  }
  return {{"block", block_},
          {"cycle_ns", cycle_ns_},
          {"events", std::move(events)},
          {"residency", std::move(groups)}};
}

}  // namespace warpreg::power

namespace warpreg {

// The power parameters (power_params.cpp) join the catalogue of every program with an
// energy model.
extern const ParamRegistrar kPowerParams;
extern const void* const kPowerParams_linked;
const void* const kPowerParams_linked = &kPowerParams;

}  // namespace warpreg

#include "common/stat_set.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

namespace {

StatSet::Combine default_combine(const std::string& type, const std::string& unit) {
  const bool energy_or_power = unit == "pJ" || unit == "W" || unit == "mW";
  if (type == "real") return energy_or_power ? StatSet::Combine::Sum : StatSet::Combine::Mean;
  if (type == "object" && (unit == "fraction" || unit == "ratio")) return StatSet::Combine::Mean;
  return StatSet::Combine::Sum;
}

}  // namespace

const char* to_string(StatSet::Combine combine) {
  switch (combine) {
    case StatSet::Combine::Sum:
      return "sum";
    case StatSet::Combine::Mean:
      return "mean";
    case StatSet::Combine::Max:
      return "max";
  }
  return "?";
}

StatBase::StatBase(StatSet* owner, const char* name, const char* unit, const char* description,
                   const char* type, std::optional<StatSet::Combine> combine) {
  if (owner->declares(name))
    throw std::logic_error("statistic '" + std::string(name) + "' of block '" + owner->block() +
                           "' declared twice");
  owner->specs_.push_back(
      {name, unit, description, type, combine.value_or(default_combine(type, unit))});
  owner->members_.push_back(this);
}

bool StatSet::declares(const std::string& name) const {
  return std::any_of(specs_.begin(), specs_.end(), [&](const Spec& s) { return s.name == name; });
}

void StatSet::write(nlohmann::json& out) const {
  for (size_t i = 0; i < members_.size(); ++i) out[specs_[i].name] = members_[i]->json_value();
}

StatRegistry& StatRegistry::instance() {
  static StatRegistry registry;
  return registry;
}

void StatRegistry::add(Factory make) { factories_.push_back(std::move(make)); }

std::vector<std::unique_ptr<StatSet>> StatRegistry::instances() const {
  std::vector<std::unique_ptr<StatSet>> out;
  for (const Factory& make : factories_) out.push_back(make());
  return out;
}

}  // namespace warpreg

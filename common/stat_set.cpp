#include "common/stat_set.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

StatBase::StatBase(StatSet* owner, const char* name, const char* unit, const char* description,
                   const char* type) {
  if (owner->declares(name))
    throw std::logic_error("statistic '" + std::string(name) + "' of block '" + owner->block() +
                           "' declared twice");
  owner->specs_.push_back({name, unit, description, type});
  owner->members_.push_back(this);
}

bool StatSet::declares(const std::string& name) const {
  return std::any_of(specs_.begin(), specs_.end(),
                     [&](const Spec& s) { return s.name == name; });
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

#include "common/param_set.h"

#include <charconv>
#include <stdexcept>

namespace warpreg {

ParamBase::ParamBase(ParamSet* owner, ParamSpec spec) : owner_(owner), index_(owner->specs_.size()) {
  if (owner->values_ != nullptr && find_param(spec.name) == nullptr)
    throw std::logic_error("parameter '" + spec.name +
                           "' is not in the catalogue: register its ParamSet (its design's "
                           "declare_params, or WARPREG_REGISTER_PARAMS)");
  owner->specs_.push_back(std::move(spec));
  owner->members_.push_back(this);
}

std::string ParamBase::origin() const {
  return owner_->values_ ? owner_->values_->origin(name()) : std::string("default");
}

nlohmann::json ParamSet::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (size_t i = 0; i < members_.size(); ++i)
    out[specs_[i].name.substr(prefix_.size() + 1)] = members_[i]->json_value();
  return out;
}

std::string real_text(double value) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

}  // namespace warpreg

#pragma once
// Parameters declared once, in the block that uses them. A ParamSet is a plain struct
// whose Param members declare themselves (name, default, unit, range, description,
// source) and hold their typed values:
//
//   struct CompressorParams : ParamSet {
//     explicit CompressorParams(const Params* values = nullptr) : ParamSet("wc", values) {}
//     Param<uint32_t> units{this, "compressors", 2, {1, 64}, "units",
//                           "Compression units per SM.", "seed 001 Table 2"};
//   };
//
// Built without values it holds the defaults and serves the catalogue and the
// documentation; built from resolved Params it holds the run's values. The catalogue
// learns a set through its design's DesignSpec::declare_params or a
// WARPREG_REGISTER_PARAMS(Type) at namespace scope.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/params.h"

namespace warpreg {

/// An inclusive range of a numeric parameter.
struct Range {
  double min = -1e300;
  double max = 1e300;
};

class ParamBase;

class ParamSet {
 public:
  /// `prefix` names the group ("wc", "rf", "tric"); a member "units" is "wc.units".
  /// `values`: the resolved parameters of the run, or nullptr for the defaults.
  ParamSet(std::string prefix, const Params* values)
      : prefix_(std::move(prefix)), values_(values) {}
  virtual ~ParamSet() = default;
  ParamSet(const ParamSet&) = delete;
  ParamSet& operator=(const ParamSet&) = delete;

  const std::string& prefix() const { return prefix_; }
  const Params* values() const { return values_; }
  /// Every member's declaration, in declaration order.
  const std::vector<ParamSpec>& specs() const { return specs_; }
  /// Appends the declarations (for a catalogue).
  void declare(std::vector<ParamSpec>& out) const {
    out.insert(out.end(), specs_.begin(), specs_.end());
  }
  /// name (without the prefix) -> value, for describe().
  nlohmann::json to_json() const;

 private:
  friend class ParamBase;
  std::string prefix_;
  const Params* values_;
  std::vector<ParamSpec> specs_;
  std::vector<const ParamBase*> members_;
};

class ParamBase {
 public:
  const ParamSpec& spec() const { return owner_->specs_[index_]; }
  /// The full dotted name ("wc.compressors").
  const std::string& name() const { return spec().name; }
  /// Where the value came from: "default", "preset NAME" or "--set".
  std::string origin() const;
  virtual nlohmann::json json_value() const = 0;

 protected:
  ParamBase(ParamSet* owner, ParamSpec spec);
  ~ParamBase() = default;
  ParamBase(const ParamBase&) = delete;
  ParamBase& operator=(const ParamBase&) = delete;
  /// True when the set reads a run's values (else the member keeps its default).
  bool resolved() const { return owner_->values_ != nullptr; }
  const Params& values() const { return *owner_->values_; }

 private:
  ParamSet* owner_;
  size_t index_;
};

/// A numeric (integer or floating point), boolean or text parameter.
template <class T>
class Param final : public ParamBase {
  static_assert(std::is_arithmetic_v<T> || std::is_same_v<T, std::string>,
                "Param<T> holds a number, a bool or a std::string; use Choice<E> for enums");

 public:
  /// A number in `range` measured in `unit`.
  template <class U = T,
            class = std::enable_if_t<std::is_arithmetic_v<U> && !std::is_same_v<U, bool>>>
  Param(ParamSet* owner, const char* name, T default_value, Range range, const char* unit,
        const char* description, const char* source)
      : ParamBase(owner, number_spec(owner, name, default_value, range, unit, description, source)),
        value_(default_value) {
    if (resolved()) {
      if constexpr (std::is_floating_point_v<T>)
        value_ = static_cast<T>(values().real(this->name()));
      else
        value_ = static_cast<T>(values().integer(this->name()));
    }
  }
  /// A flag (T = bool) or a free text (T = std::string).
  template <class U = T,
            class = std::enable_if_t<std::is_same_v<U, bool> || std::is_same_v<U, std::string>>>
  Param(ParamSet* owner, const char* name, T default_value, const char* description,
        const char* source)
      : ParamBase(owner, flag_or_text_spec(owner, name, default_value, description, source)),
        value_(std::move(default_value)) {
    if (resolved()) {
      if constexpr (std::is_same_v<T, bool>)
        value_ = values().flag(this->name());
      else
        value_ = values().text(this->name());
    }
  }

  const T& get() const { return value_; }
  operator const T&() const { return value_; }
  nlohmann::json json_value() const override { return value_; }

 private:
  static ParamSpec number_spec(const ParamSet* owner, const char* name, T value, Range range,
                               const char* unit, const char* description, const char* source);
  static ParamSpec flag_or_text_spec(const ParamSet* owner, const char* name, const T& value,
                                     const char* description, const char* source);
  T value_;
};

/// A parameter that picks one of named values of an enum.
template <class E>
class Choice final : public ParamBase {
 public:
  using Option = std::pair<const char*, E>;
  Choice(ParamSet* owner, const char* name, E default_value, std::vector<Option> options,
         const char* description, const char* source)
      : ParamBase(owner, choice_spec(owner, name, default_value, options, description, source)),
        options_(std::move(options)),
        value_(default_value) {
    if (resolved()) {
      const std::string& text = values().text(this->name());
      for (const Option& o : options_)
        if (text == o.first) value_ = o.second;
    }
  }

  E get() const { return value_; }
  operator E() const { return value_; }
  /// The chosen option's name.
  const char* text() const {
    for (const Option& o : options_)
      if (o.second == value_) return o.first;
    return "?";
  }
  nlohmann::json json_value() const override { return text(); }

 private:
  static ParamSpec choice_spec(const ParamSet* owner, const char* name, E value,
                               const std::vector<Option>& options, const char* description,
                               const char* source) {
    std::vector<std::string> names;
    std::string default_name;
    for (const Option& o : options) {
      names.push_back(o.first);
      if (o.second == value) default_name = o.first;
    }
    return choice_param((owner->prefix() + "." + name).c_str(), default_name.c_str(),
                        std::move(names), description, source);
  }
  std::vector<Option> options_;
  E value_;
};

/// The text of a real default as a --set would give it ("0.75", "1e-06").
std::string real_text(double value);

template <class T>
ParamSpec Param<T>::number_spec(const ParamSet* owner, const char* name, T value, Range range,
                                const char* unit, const char* description, const char* source) {
  const std::string full = owner->prefix() + "." + name;
  if constexpr (std::is_floating_point_v<T>)
    return real_param(full.c_str(), real_text(value).c_str(), range.min, range.max, unit,
                      description, source);
  else
    return int_param(full.c_str(), static_cast<int64_t>(value), range.min, range.max, unit,
                     description, source);
}

template <class T>
ParamSpec Param<T>::flag_or_text_spec(const ParamSet* owner, const char* name, const T& value,
                                      const char* description, const char* source) {
  const std::string full = owner->prefix() + "." + name;
  if constexpr (std::is_same_v<T, bool>) {
    return bool_param(full.c_str(), value, description, source);
  } else {
    ParamSpec spec;
    spec.name = full;
    spec.type = ParamType::Text;
    spec.default_value = value;
    spec.description = description;
    spec.source = source;
    return spec;
  }
}

/// Adds a ParamSet type (constructible from `const Params*`) to the catalogue, from a
/// program's, a user block's or a layer's own source file.
#define WARPREG_REGISTER_PARAMS(Type)                                     \
  static const ::warpreg::ParamRegistrar warpreg_params_registrar_##Type( \
      [](std::vector<::warpreg::ParamSpec>& out) { Type(nullptr).declare(out); })

}  // namespace warpreg

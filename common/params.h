#pragma once
// Every tunable of warpreg: a catalogue of named, typed, documented parameters
// with the papers' defaults, resolved from defaults < preset JSON < --set overrides.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpreg {

enum class ParamType { Int, Real, Bool, Choice, Text };
/// "int", "real", "bool", "choice", "text".
const char* to_string(ParamType type);

struct ParamSpec {
  std::string name;  ///< dotted, e.g. "rf.banks"
  ParamType type = ParamType::Int;
  std::string default_value;  ///< textual default, parsed like a --set value
  std::string unit;           ///< "cycles", "bytes", "registers", "" ...
  std::string description;
  std::string source;   ///< where the default comes from (seed + section, or GPGPU-Sim config)
  double min = -1e300;  ///< inclusive range for Int and Real
  double max = 1e300;
  std::vector<std::string> choices;  ///< allowed values for Choice
};

/// Thrown for an unknown parameter, a malformed value, a value out of range or a
/// bad preset; the message names the parameter and where the value came from.
class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Every parameter warpreg knows, sorted by name.
const std::vector<ParamSpec>& param_catalogue();
const ParamSpec* find_param(std::string_view name);
/// Checks `text` as a value of `spec`, as set() does, and returns its canonical text
/// (decimal for Int, "true"/"false" for Bool). Throws ParamError naming origin and key.
std::string parse_param_value(const ParamSpec& spec, const std::string& text,
                              const std::string& origin);

/// Folder holding the shipped presets: $WARPREG_PRESETS, else data_dir()/platforms/presets.
std::string presets_dir();
/// Names of the shipped presets (file stems in presets_dir()).
std::vector<std::string> preset_names();

/// Builders for catalogue entries (ranges are inclusive; a Real default is text so
/// that it reads exactly as written).
ParamSpec int_param(const char* name, int64_t default_value, double min, double max,
                    const char* unit, const char* description, const char* source);
ParamSpec real_param(const char* name, const char* default_value, double min, double max,
                     const char* unit, const char* description, const char* source);
ParamSpec choice_param(const char* name, const char* default_value,
                       std::vector<std::string> choices, const char* description,
                       const char* source);
ParamSpec bool_param(const char* name, bool default_value, const char* description,
                     const char* source);

/// Adds a group of declarations to the catalogue: each layer, design and user block
/// declares its own parameters beside the code they configure. Register before the
/// catalogue is first used (a ParamRegistrar at namespace scope does); later
/// registrations throw std::logic_error.
using ParamDeclarations = std::function<void(std::vector<ParamSpec>&)>;
void register_params(ParamDeclarations declare);
struct ParamRegistrar {
  explicit ParamRegistrar(ParamDeclarations declare) { register_params(std::move(declare)); }
};

class Params {
 public:
  /// All parameters at their defaults; preset() is "defaults".
  Params();

  /// Resolves a preset (a shipped name, or a path to a .json file), then the
  /// overrides ("key=value", applied in order), then the designs added with --design.
  /// Throws ParamError.
  static Params load(const std::string& preset, const std::vector<std::string>& overrides = {},
                     const std::vector<std::string>& designs = {});

  /// Sets one parameter from text; `origin` says where the value came from (for errors and
  /// listings).
  void set(const std::string& name, const std::string& value, const std::string& origin);

  int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;
  bool flag(std::string_view name) const;
  /// The value of a Choice or Text parameter.
  const std::string& text(std::string_view name) const;
  /// Where the current value came from: "default", "preset NAME" or "--set".
  const std::string& origin(std::string_view name) const;

  /// The designs to add to the machine, in the order named: a preset's "designs"
  /// (inherited ones first), then --design.
  const std::vector<std::string>& designs() const { return designs_; }
  bool has_design(std::string_view name) const;
  /// Adds a design (duplicates and unknown names are reported by the design registry).
  void add_design(const std::string& name) { designs_.push_back(name); }

  const std::string& preset() const { return preset_; }
  const std::string& preset_description() const { return preset_description_; }
  /// name -> typed value, for stats.json and describe.
  nlohmann::json to_json() const;

 private:
  struct Value {
    std::string text;
    double number = 0;
    std::string origin;
  };
  const Value& value_of(std::string_view name, ParamType expected) const;
  std::map<std::string, Value, std::less<>> values_;
  std::vector<std::string> designs_;
  std::string preset_ = "defaults";
  std::string preset_description_;
};

}  // namespace warpreg

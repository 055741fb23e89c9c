// The parameter catalogue, value parsing and preset resolution (defaults <
// preset JSON < --set overrides). Every error names the parameter and where the
// value came from, so a bad command line or preset is fixed without reading code.
#include "common/params.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/data_dir.h"
#include "common/json_input.h"


namespace warpreg {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

// Range bounds print as integers when they are ones, so "[1, 256]" not "[1.000000, 256.000000]".
std::string format_bound(double x) {
  char buf[64];
  if (std::floor(x) == x && std::fabs(x) < 1e16) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
  } else {
    std::snprintf(buf, sizeof buf, "%g", x);
  }
  return buf;
}

// The first sentence of a description keeps error messages to one readable line.
std::string first_sentence(const std::string& s) {
  const auto end = s.find(". ");
  return end == std::string::npos ? s : s.substr(0, end + 1);
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The closest catalogue name within a few edits, or "" when nothing is close.
std::string closest_name(std::string_view name) {
  constexpr size_t kMaxEdits = 3;
  std::string best;
  size_t best_distance = kMaxEdits + 1;
  for (const auto& spec : param_catalogue()) {
    const size_t d = edit_distance(name, spec.name);
    if (d < best_distance && d < name.size()) {
      best = spec.name;
      best_distance = d;
    }
  }
  return best;
}

[[noreturn]] void throw_unknown(std::string_view name, const std::string& origin) {
  std::string msg = "unknown parameter '" + excerpt(name) + "' (from " + origin + ")";
  const std::string guess = closest_name(name);
  if (!guess.empty()) msg += "; did you mean '" + guess + "'?";
  throw ParamError(msg);
}

struct Parsed {
  std::string text;  ///< canonical text: decimal for Int, true/false for Bool
  double number = 0;
};

[[noreturn]] void throw_bad_value(const ParamSpec& spec, const std::string& text,
                                  const std::string& origin, const std::string& what) {
  throw ParamError(origin + " " + spec.name + "=" + excerpt(text) + ": " + what + " (" + spec.name +
                   ": " + first_sentence(spec.description) + ")");
}

// Parses `text` as a value of `spec`; throws ParamError naming origin, key and value.
Parsed parse_value(const ParamSpec& spec, const std::string& text, const std::string& origin) {
  const auto fail = [&](const std::string& what) { throw_bad_value(spec, text, origin, what); };
  const auto check_range = [&](double x, const std::string& shown) {
    if (x < spec.min || x > spec.max) {
      fail("value " + shown + " is out of range [" + format_bound(spec.min) + ", " +
           format_bound(spec.max) + "]");
    }
  };
  const std::string s = trim(text);
  switch (spec.type) {
    case ParamType::Int: {
      std::string_view digits = s;
      bool negative = false;
      if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
        negative = digits[0] == '-';
        digits.remove_prefix(1);
      }
      int base = 10;
      if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
      }
      // from_chars takes no sign, so the magnitude is parsed unsigned and range-checked here.
      uint64_t magnitude = 0;
      const auto [end, ec] =
          std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
      if (digits.empty() || end != digits.data() + digits.size() ||
          ec == std::errc::invalid_argument) {
        fail("value '" + excerpt(s) + "' is not an integer");
      }
      constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;
      if (ec == std::errc::result_out_of_range || magnitude > kMaxMagnitude ||
          (!negative && magnitude == kMaxMagnitude)) {
        fail("value " + excerpt(s) + " is out of range [" + format_bound(spec.min) + ", " +
             format_bound(spec.max) + "]");
      }
      const int64_t v =
          negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
      check_range(static_cast<double>(v), excerpt(s));
      return {std::to_string(v), static_cast<double>(v)};
    }
    case ParamType::Real: {
      if (s.empty()) fail("value '' is not a number");
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) fail("value '" + excerpt(s) + "' is not a number");
      if (!std::isfinite(v)) fail("value " + excerpt(s) + " is not finite");
      check_range(v, excerpt(s));
      return {s, v};
    }
    case ParamType::Bool: {
      const std::string l = lower(s);
      if (l == "true" || l == "1" || l == "yes" || l == "on") return {"true", 1};
      if (l == "false" || l == "0" || l == "no" || l == "off") return {"false", 0};
      throw_bad_value(
          spec, text, origin,
          "value '" + excerpt(s) + "' is not a boolean (true/false, 1/0, yes/no, on/off)");
    }
    case ParamType::Choice: {
      if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end()) {
        fail("value '" + excerpt(s) + "' is not one of: " + join(spec.choices, ", "));
      }
      return {s, 0};
    }
    case ParamType::Text:
      return {text, 0};
  }
  throw std::logic_error("parameter " + spec.name + " has an invalid ParamType");
}

// Catches programming errors in the declare_* functions once, when the catalogue is built.
void check_spec(const ParamSpec& spec) {
  const auto bad = [&](const std::string& what) {
    throw std::logic_error("parameter catalogue: " + spec.name + ": " + what);
  };
  if (spec.name.empty()) throw std::logic_error("parameter catalogue: a parameter has no name");
  if (spec.description.empty()) bad("no description");
  if (spec.min > spec.max) bad("min > max");
  if (spec.type == ParamType::Choice && spec.choices.empty()) bad("a Choice without choices");
  try {
    parse_value(spec, spec.default_value, "default");
  } catch (const ParamError& e) {
    bad(std::string("bad default: ") + e.what());
  }
}

struct Registrations {
  std::vector<ParamDeclarations> declarations;
  bool built = false;
};

Registrations& registrations() {
  static Registrations r;
  return r;
}

std::vector<ParamSpec> build_catalogue() {
  Registrations& r = registrations();
  r.built = true;
  std::vector<ParamSpec> all;
  for (const auto& declare : r.declarations) declare(all);
  std::sort(all.begin(), all.end(),
            [](const ParamSpec& a, const ParamSpec& b) { return a.name < b.name; });
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0 && all[i].name == all[i - 1].name) {
      throw std::logic_error("parameter catalogue: '" + all[i].name + "' is declared twice");
    }
    check_spec(all[i]);
  }
  return all;
}

const ParamSpec& spec_of(std::string_view name) {
  const ParamSpec* spec = find_param(name);
  if (!spec) throw std::logic_error("no parameter '" + std::string(name) + "' in the catalogue");
  return *spec;
}

bool is_preset_path(const std::string& preset) {
  const std::string ext = ".json";
  return preset.find('/') != std::string::npos ||
         (preset.size() >= ext.size() &&
          preset.compare(preset.size() - ext.size(), ext.size(), ext) == 0);
}

// A shipped name or a path -> the file to read. Throws ParamError listing the shipped names.
fs::path resolve_preset(const std::string& preset) {
  if (is_preset_path(preset)) return preset;
  const auto names = preset_names();
  if (std::find(names.begin(), names.end(), preset) == names.end()) {
    throw ParamError("unknown preset '" + excerpt(preset) + "'; shipped presets (in " +
                     presets_dir() +
                     "): " + (names.empty() ? std::string("none") : join(names, ", ")) +
                     "; or give a path to a .json file");
  }
  return fs::path(presets_dir()) / (preset + ".json");
}

JsonDocument read_preset_file(const fs::path& file) {
  try {
    return JsonDocument::read_file(file.string(), "preset file");
  } catch (const JsonInputError& e) {
    throw ParamError(e.what());
  }
}

// A JSON parameter value as the text a --set would give.
std::string value_text(const nlohmann::ordered_json& v, const std::string& key,
                       const JsonDocument& doc) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  throw ParamError(doc.where("params." + key) + "must be a number, string or boolean, not " +
                   v.type_name());
}

}  // namespace

void register_params(ParamDeclarations declare) {
  Registrations& r = registrations();
  if (r.built) throw std::logic_error("parameters registered after the catalogue was built");
  r.declarations.push_back(std::move(declare));
}

bool Params::has_design(std::string_view name) const {
  return std::find(designs_.begin(), designs_.end(), name) != designs_.end();
}

const std::vector<ParamSpec>& param_catalogue() {
  static const std::vector<ParamSpec> catalogue = build_catalogue();
  return catalogue;
}

const ParamSpec* find_param(std::string_view name) {
  const auto& all = param_catalogue();
  const auto it =
      std::lower_bound(all.begin(), all.end(), name,
                       [](const ParamSpec& s, std::string_view n) { return s.name < n; });
  return it != all.end() && it->name == name ? &*it : nullptr;
}

std::string parse_param_value(const ParamSpec& spec, const std::string& text,
                              const std::string& origin) {
  return parse_value(spec, text, origin).text;
}

std::string presets_dir() {
  const char* env = std::getenv("WARPREG_PRESETS");
  if (env && *env) return env;
  return data_path("platforms/presets");
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(presets_dir(), ec)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

Params::Params() {
  for (const auto& spec : param_catalogue()) {
    Parsed parsed = parse_value(spec, spec.default_value, "default");
    values_.emplace(spec.name, Value{std::move(parsed.text), parsed.number, "default"});
  }
}

Params Params::load(const std::string& preset, const std::vector<std::string>& overrides,
                    const std::vector<std::string>& designs) {
  Params p;
  if (!preset.empty() && preset != "defaults") {
    p.preset_ = preset;
    std::vector<fs::path> chain;  // files being applied, outermost first, to detect cycles
    // Applies one preset file: its parent first, then its own params.
    const auto apply = [&p, &chain](const auto& self, const fs::path& file) -> std::string {
      std::error_code ec;  // an unresolvable path is reported when it is read
      fs::path key = fs::weakly_canonical(file, ec);
      if (ec) key = file;
      if (std::find(chain.begin(), chain.end(), key) != chain.end()) {
        std::string cycle;
        for (const auto& f : chain) cycle += f.string() + " -> ";
        throw ParamError("preset inheritance cycle: " + cycle + key.string());
      }
      chain.push_back(key);
      const JsonDocument doc = read_preset_file(file);
      const nlohmann::ordered_json& j = doc.root();
      if (!j.is_object()) throw ParamError(doc.where("(top level)") + "expected a JSON object");
      for (const auto& [k, v] : j.items()) {
        if (k != "name" && k != "description" && k != "source" && k != "inherits" &&
            k != "params" && k != "designs") {
          throw ParamError(doc.where(k) + "unknown key " + quote_text(k) +
                           " (expected name, description, source, inherits, designs, params)");
        }
        if (k != "params" && k != "designs" && !v.is_string())
          throw ParamError(doc.where(k) + "must be a string, not " + quote_json(v));
      }
      const std::string name =
          j.contains("name") ? j["name"].get<std::string>() : file.stem().string();
      if (j.contains("inherits")) self(self, resolve_preset(j["inherits"].get<std::string>()));
      if (j.contains("designs")) {
        const auto& designs = j["designs"];
        if (!designs.is_array())
          throw ParamError(doc.where("designs") + "must be an array of names");
        for (const auto& d : designs) {
          if (!d.is_string()) throw ParamError(doc.where("designs") + "must be an array of names");
          p.add_design(d.get<std::string>());
        }
      }
      if (j.contains("params")) {
        const auto& params = j["params"];
        if (!params.is_object()) throw ParamError(doc.where("params") + "must be an object");
        const std::string origin = "preset " + name;
        for (const auto& [k, v] : params.items()) {
          const size_t line = doc.line_of("params." + k);
          p.set(k, value_text(v, k, doc),
                origin + " (" + file.string() + ":" + std::to_string(line) + ")");
          // Listings show the preset's name; errors above also named its file.
          p.values_.find(k)->second.origin = origin;
        }
      }
      chain.pop_back();
      return j.value("description", std::string());
    };
    p.preset_description_ = apply(apply, resolve_preset(preset));
  }
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos) {
      throw ParamError("--set " + excerpt(o) + ": expected key=value" +
                       (find_param(trim(o)) ? " (e.g. " + trim(o) + "=VALUE)" : std::string()));
    }
    p.set(trim(std::string_view(o).substr(0, eq)), o.substr(eq + 1), "--set");
  }
  for (const auto& d : designs) p.add_design(d);
  return p;
}

void Params::set(const std::string& name, const std::string& value, const std::string& origin) {
  const ParamSpec* spec = find_param(name);
  if (!spec) throw_unknown(name, origin);
  Parsed parsed = parse_value(*spec, value, origin);
  Value& v = values_[name];
  v.text = std::move(parsed.text);
  v.number = parsed.number;
  v.origin = origin;
}

const Params::Value& Params::value_of(std::string_view name, ParamType expected) const {
  const ParamSpec& spec = spec_of(name);
  // text() reads both Choice and Text parameters, so it asks for Text.
  const bool ok =
      spec.type == expected || (expected == ParamType::Text && spec.type == ParamType::Choice);
  if (!ok) {
    throw std::logic_error("parameter " + spec.name + " is " + to_string(spec.type) + ", read as " +
                           to_string(expected));
  }
  return values_.find(name)->second;
}

int64_t Params::integer(std::string_view name) const {
  // The canonical decimal text is exact where the double is not (beyond 2^53).
  const std::string& t = value_of(name, ParamType::Int).text;
  int64_t v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

double Params::real(std::string_view name) const { return value_of(name, ParamType::Real).number; }

bool Params::flag(std::string_view name) const {
  return value_of(name, ParamType::Bool).number != 0;
}

const std::string& Params::text(std::string_view name) const {
  return value_of(name, ParamType::Text).text;
}

const std::string& Params::origin(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) {
    throw std::logic_error("no parameter '" + std::string(name) + "' in the catalogue");
  }
  return it->second.origin;
}

nlohmann::json Params::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& spec : param_catalogue()) {
    switch (spec.type) {
      case ParamType::Int:
        out[spec.name] = integer(spec.name);
        break;
      case ParamType::Real:
        out[spec.name] = real(spec.name);
        break;
      case ParamType::Bool:
        out[spec.name] = flag(spec.name);
        break;
      case ParamType::Choice:
      case ParamType::Text:
        out[spec.name] = text(spec.name);
        break;
    }
  }
  return out;
}

ParamSpec int_param(const char* name, int64_t default_value, double min, double max,
                    const char* unit, const char* description, const char* source) {
  ParamSpec p;
  p.name = name;
  p.type = ParamType::Int;
  p.default_value = std::to_string(default_value);
  p.min = min;
  p.max = max;
  p.unit = unit;
  p.description = description;
  p.source = source;
  return p;
}

ParamSpec real_param(const char* name, const char* default_value, double min, double max,
                     const char* unit, const char* description, const char* source) {
  ParamSpec p = int_param(name, 0, min, max, unit, description, source);
  p.type = ParamType::Real;
  p.default_value = default_value;
  return p;
}

ParamSpec choice_param(const char* name, const char* default_value,
                       std::vector<std::string> choices, const char* description,
                       const char* source) {
  ParamSpec p;
  p.name = name;
  p.type = ParamType::Choice;
  p.default_value = default_value;
  p.choices = std::move(choices);
  p.description = description;
  p.source = source;
  return p;
}

ParamSpec bool_param(const char* name, bool default_value, const char* description,
                     const char* source) {
  ParamSpec p;
  p.name = name;
  p.type = ParamType::Bool;
  p.default_value = default_value ? "true" : "false";
  p.description = description;
  p.source = source;
  return p;
}

const char* to_string(ParamType type) {
  switch (type) {
    case ParamType::Int:
      return "int";
    case ParamType::Real:
      return "real";
    case ParamType::Bool:
      return "bool";
    case ParamType::Choice:
      return "choice";
    case ParamType::Text:
      return "text";
  }
  return "?";
}

}  // namespace warpreg

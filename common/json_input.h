#pragma once
// How every JSON input is read (presets, profiles, technology tables, the benchmark
// table, sweep and experiment specs, sweep folders): a regular file of bounded size,
// checked by a non-recursive scan before the DOM is built, so that nesting is bounded,
// a key given twice in one object is an error (not "last wins"), and every message
// names the file, the line and the field, quoting at most a few dozen characters.
// The limits are listed in docs/reliability.md.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpreg {

namespace json_limits {
constexpr uint64_t kMaxBytes = uint64_t{1} << 20;  ///< one JSON input file (1 MiB)
constexpr unsigned kMaxDepth = 32;                 ///< arrays and objects open at once
constexpr size_t kMaxQuoted = 48;                  ///< characters of input quoted in a message
constexpr size_t kMaxQuotedPath = 512;             ///< characters of a file name in a message
}  // namespace json_limits

/// A JSON input that cannot be used: "SOURCE:LINE: problem" (or "SOURCE: problem").
class JsonInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A checked JSON document and its text, for messages that name the line of a field.
class JsonDocument {
 public:
  /// Reads the regular file `path` of at most `max_bytes`; `what` names it in messages
  /// ("preset file", "sweep spec"). Throws JsonInputError.
  static JsonDocument read_file(const std::string& path, const std::string& what,
                                uint64_t max_bytes = json_limits::kMaxBytes);
  /// Checks and parses `text`; `source` stands for the file in messages.
  static JsonDocument parse(std::string text, std::string source);

  const nlohmann::ordered_json& root() const { return root_; }
  const std::string& source() const { return source_; }
  /// The 1-based line where the value of `field` begins, 0 when there is none. `field`
  /// is dotted, with [N] for array elements ("launch.ctas", "set.synth.ctas[2]"); a key
  /// that contains dots is matched whole against the document's keys.
  size_t line_of(std::string_view field) const;
  /// "SOURCE:LINE: FIELD: " for a message about `field` ("SOURCE: FIELD: " when the
  /// field is not in the document).
  std::string where(std::string_view field) const;

 private:
  JsonDocument(std::string text, std::string source);

  std::string text_;
  std::string source_;
  nlohmann::ordered_json root_;
};

/// `value` as compact JSON, cut to json_limits::kMaxQuoted characters ("..." marks a cut).
std::string quote_json(const nlohmann::ordered_json& value);
std::string quote_json(const nlohmann::json& value);
/// `text` in double quotes, control characters escaped, cut like quote_json.
std::string quote_text(std::string_view text);
/// `text` as it is when short, else its first json_limits::kMaxQuoted characters and "...".
std::string excerpt(std::string_view text);
/// A file name for a message: whole up to json_limits::kMaxQuotedPath characters (longer
/// than any real path needs), else cut like excerpt().
std::string excerpt_path(std::string_view path);

}  // namespace warpreg

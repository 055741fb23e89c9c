#include "common/json_input.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "common/input_check.h"

namespace warpreg {

namespace {

using nlohmann::ordered_json;

/// One pass over JSON text without recursion: checks the grammar, the nesting depth and
/// duplicate keys, and (when asked) finds the line where the value at a path begins.
/// The DOM is built afterwards by nlohmann::json from text known to be within limits.
class Scanner {
 public:
  Scanner(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  /// Checks the whole text; throws JsonInputError("SOURCE:LINE: ...").
  void check() { scan(nullptr); }

  /// The line where the value at `path` (keys, and array indices in decimal) begins;
  /// 0 when the document has no such value. The text must have passed check().
  size_t find(const std::vector<std::string>& path) { return scan(&path); }

 private:
  struct Frame {
    bool object = false;
    size_t index = 0;                    ///< element of an array
    std::string key;                     ///< member of an object, being read
    std::map<std::string, size_t> keys;  ///< keys seen, with their line
  };
  enum class State { Value, Key, AfterValue };

  /// A syntax error.
  [[noreturn]] void fail(const std::string& message) const { refuse("malformed JSON: " + message); }
  /// Well-formed JSON past a limit or with a duplicate key.
  [[noreturn]] void refuse(const std::string& message) const {
    throw JsonInputError(source_ + ":" + std::to_string(line_) + ": " + message);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const {
    if (at_end()) fail("the document ends early (unclosed string, array or object?)");
    return text_[pos_];
  }

  void skip_space() {
    while (!at_end()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++pos_;
    }
  }

  bool matches(const std::vector<std::string>& path) const {
    if (path.size() != frames_.size()) return false;
    for (size_t i = 0; i < path.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.object ? f.key != path[i] : std::to_string(f.index) != path[i]) return false;
    }
    return true;
  }

  static unsigned hex_digit(char c) {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
    return 16;
  }

  static void append_utf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  uint32_t read_hex4() {
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned d = at_end() ? 16 : hex_digit(text_[pos_]);
      if (d == 16) fail("\\u needs four hex digits");
      code = code << 4 | d;
      ++pos_;
    }
    return code;
  }

  /// A string starting at the opening quote; its decoded text into `out` when given.
  void read_string(std::string* out) {
    ++pos_;  // the opening quote
    while (true) {
      const char c = peek();
      ++pos_;
      if (c == '"') return;
      if (static_cast<unsigned char>(c) < 0x20)
        fail(c == '\n' ? "a string runs past the end of its line (missing closing quote?)"
                       : "a control character inside a string (escape it)");
      if (c != '\\') {
        if (out) *out += c;
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          if (out) *out += e;
          break;
        case 'b':
          if (out) *out += '\b';
          break;
        case 'f':
          if (out) *out += '\f';
          break;
        case 'n':
          if (out) *out += '\n';
          break;
        case 'r':
          if (out) *out += '\r';
          break;
        case 't':
          if (out) *out += '\t';
          break;
        case 'u': {
          uint32_t code = read_hex4();
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (pos_ + 1 >= text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u')
              fail("a \\u surrogate pair is incomplete");
            pos_ += 2;
            const uint32_t low = read_hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("a \\u surrogate pair is invalid");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code <= 0xDFFF) {
            fail("a \\u surrogate pair is invalid");
          }
          if (out) append_utf8(*out, code);
          break;
        }
        default:
          fail("unknown escape \\" + std::string(1, e) + " in a string");
      }
    }
  }

  void read_digits() {
    if (at_end() || text_[pos_] < '0' || text_[pos_] > '9') fail("malformed number");
    while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
  }

  void read_number() {
    if (text_[pos_] == '-') ++pos_;
    if (!at_end() && text_[pos_] == '0') {
      ++pos_;
    } else {
      read_digits();
    }
    if (!at_end() && text_[pos_] == '.') {
      ++pos_;
      read_digits();
    }
    if (!at_end() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!at_end() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      read_digits();
    }
  }

  void read_literal() {
    for (const std::string_view word : {"true", "false", "null"})
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return;
      }
    fail("unexpected " + quote_text(text_.substr(pos_, 12)) +
         " (a value is an object, array, string, number, true, false or null)");
  }

  void open(bool object) {
    if (frames_.size() == json_limits::kMaxDepth)
      refuse("arrays and objects nested more than " + std::to_string(json_limits::kMaxDepth) +
             " deep (the input limit)");
    frames_.emplace_back();
    frames_.back().object = object;
    ++pos_;
  }

  size_t scan(const std::vector<std::string>* target) {
    pos_ = 0;
    line_ = 1;
    frames_.clear();
    State state = State::Value;
    while (true) {
      skip_space();
      if (state == State::AfterValue && frames_.empty()) {
        if (!at_end())
          fail("text after the end of the document: " + quote_text(text_.substr(pos_)));
        return 0;
      }
      const char c = peek();
      switch (state) {
        case State::Value:
          if (target && matches(*target)) return line_;
          if (c == '{' || c == '[') {
            open(c == '{');
            skip_space();
            if (peek() == (c == '{' ? '}' : ']')) {
              ++pos_;
              frames_.pop_back();
              state = State::AfterValue;
            } else {
              state = c == '{' ? State::Key : State::Value;
            }
            continue;
          }
          if (c == '"') {
            read_string(nullptr);
          } else if (c == '-' || (c >= '0' && c <= '9')) {
            read_number();
          } else {
            read_literal();
          }
          state = State::AfterValue;
          break;
        case State::Key: {
          if (c != '"')
            fail("expected a key in double quotes, got " + quote_text(text_.substr(pos_, 12)));
          Frame& frame = frames_.back();
          frame.key.clear();
          read_string(&frame.key);
          const auto [it, fresh] = frame.keys.emplace(frame.key, line_);
          if (!fresh)
            refuse("key " + quote_text(frame.key) + " given twice in one object (first at line " +
                   std::to_string(it->second) + ")");
          skip_space();
          if (peek() != ':') fail("expected ':' after key " + quote_text(frame.key));
          ++pos_;
          state = State::Value;
          break;
        }
        case State::AfterValue: {
          Frame& frame = frames_.back();
          const char close = frame.object ? '}' : ']';
          if (c == ',') {
            ++pos_;
            if (frame.object) {
              state = State::Key;
            } else {
              ++frame.index;
              state = State::Value;
            }
          } else if (c == close) {
            ++pos_;
            frames_.pop_back();
          } else {
            fail(std::string("expected ',' or '") + close + "', got " +
                 quote_text(text_.substr(pos_, 12)));
          }
          break;
        }
      }
    }
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  size_t line_ = 1;
  std::vector<Frame> frames_;
};

/// The path of a dotted field in `root`: at each object the longest run of the field's
/// dotted parts that is one of its keys, so keys with dots ("synth.ctas") stay whole.
std::vector<std::string> field_path(const ordered_json& root, std::string_view field) {
  std::vector<std::string> path;
  const ordered_json* node = &root;
  size_t i = 0;
  while (i < field.size()) {
    if (field[i] == '.') {
      ++i;
      continue;
    }
    if (field[i] == '[') {
      const size_t close = field.find(']', i);
      if (close == std::string_view::npos) break;
      const std::string index(field.substr(i + 1, close - i - 1));
      path.push_back(index);
      size_t n = 0;
      const bool numeric = !index.empty() && index.size() < 10 &&
                           index.find_first_not_of("0123456789") == std::string::npos;
      if (numeric) n = std::stoul(index);
      node = node && node->is_array() && numeric && n < node->size() ? &(*node)[n] : nullptr;
      i = close + 1;
      continue;
    }
    const size_t stop = std::min(field.find('[', i), field.size());
    const std::string_view rest = field.substr(i, stop - i);
    size_t take = rest.find('.');
    if (take == std::string_view::npos) take = rest.size();
    if (node && node->is_object()) {
      for (size_t len = rest.size(); len > 0;) {
        if (node->contains(std::string(rest.substr(0, len)))) {
          take = len;
          break;
        }
        const size_t dot = rest.rfind('.', len - 1);
        if (dot == std::string_view::npos || dot == 0) break;
        len = dot;
      }
    }
    const std::string key(rest.substr(0, take));
    path.push_back(key);
    node = node && node->is_object() && node->contains(key) ? &(*node)[key] : nullptr;
    i += take;
  }
  return path;
}

template <typename Json>
std::string quote_dump(const Json& value) {
  std::string text;
  try {
    text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const std::exception&) {
    text = "(a value)";
  }
  if (text.size() <= json_limits::kMaxQuoted) return text;
  return text.substr(0, json_limits::kMaxQuoted) + "...";
}

}  // namespace

JsonDocument::JsonDocument(std::string text, std::string source)
    : text_(std::move(text)), source_(std::move(source)) {
  Scanner(text_, source_).check();
  try {
    root_ = ordered_json::parse(text_);
  } catch (const ordered_json::exception& e) {
    // What the scan lets through and the parser does not: invalid UTF-8, a number
    // beyond double. The parser's message is cut; its byte offset gives the line.
    size_t line = 1;
    if (const auto* parse = dynamic_cast<const ordered_json::parse_error*>(&e)) {
      const size_t end = std::min<size_t>(parse->byte, text_.size());
      line += static_cast<size_t>(
          std::count(text_.begin(), text_.begin() + static_cast<long>(end), '\n'));
    }
    std::string what = e.what();
    const size_t colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    if (what.size() > 120) what = what.substr(0, 120) + "...";
    throw JsonInputError(source_ + ":" + std::to_string(line) + ": malformed JSON: " + what);
  }
}

JsonDocument JsonDocument::read_file(const std::string& path, const std::string& what,
                                     uint64_t max_bytes) {
  const std::string problem = input_file_problem(path, what, max_bytes);
  if (!problem.empty()) throw JsonInputError(problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JsonInputError(path + ": cannot open " + what);
  std::string text;
  char chunk[1 << 14];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes)  // the file grew since it was checked
      throw JsonInputError(path + ": " + what + " is over the limit of " + byte_count(max_bytes));
  }
  if (in.bad()) throw JsonInputError(path + ": read error in " + what);
  return JsonDocument(std::move(text), path);
}

JsonDocument JsonDocument::parse(std::string text, std::string source) {
  if (text.size() > json_limits::kMaxBytes)
    throw JsonInputError(source + ": " + std::to_string(text.size()) +
                         " bytes of JSON are over the limit of " +
                         byte_count(json_limits::kMaxBytes));
  return JsonDocument(std::move(text), std::move(source));
}

size_t JsonDocument::line_of(std::string_view field) const {
  const std::vector<std::string> path = field_path(root_, field);
  try {
    return Scanner(text_, source_).find(path);
  } catch (const JsonInputError&) {
    return 0;  // checked at construction; cannot happen
  }
}

std::string JsonDocument::where(std::string_view field) const {
  const size_t line = line_of(field);
  // A field path holds the input's own keys: cut like a quoted value when one is huge.
  constexpr size_t kMaxPath = 120;
  const std::string path = field.size() <= kMaxPath
                               ? std::string(field)
                               : std::string(field.substr(0, kMaxPath)) + "...";
  return source_ + (line ? ":" + std::to_string(line) : std::string()) + ": " + path + ": ";
}

std::string quote_json(const nlohmann::ordered_json& value) { return quote_dump(value); }
std::string quote_json(const nlohmann::json& value) { return quote_dump(value); }

std::string excerpt(std::string_view text) {
  if (text.size() <= json_limits::kMaxQuoted) return std::string(text);
  return std::string(text.substr(0, json_limits::kMaxQuoted)) + "...";
}

std::string excerpt_path(std::string_view path) {
  if (path.size() <= json_limits::kMaxQuotedPath) return std::string(path);
  return std::string(path.substr(0, json_limits::kMaxQuotedPath)) + "...";
}

std::string quote_text(std::string_view text) {
  std::string out = "\"";
  size_t shown = 0;
  for (const char c : text) {
    if (shown == json_limits::kMaxQuoted) return out + "\"...";
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char* const kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[(c >> 4) & 0xf];
      out += kHex[c & 0xf];
    } else {
      out += c;
    }
    ++shown;
  }
  return out + "\"";
}

}  // namespace warpreg

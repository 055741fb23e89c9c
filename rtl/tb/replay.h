#pragma once
// Shared pieces of the Verilator replays of the golden vectors (docs/vectors.md): the
// JSON Lines reader, hex fields as 32-bit words, enum codes from the header, and the
// mismatch report with step numbers. Header-only: each replay is one translation unit
// plus its Verilated model.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace replay {

[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "replay: error: %s\n", message.c_str());
  std::exit(2);
}

/// A golden-vector file of one generator: the header, then records one at a time.
class Reader {
 public:
  Reader(const std::string& path, const std::string& generator) : path_(path), in_(path) {
    if (!in_) fail("cannot read " + path);
    std::string line;
    if (!std::getline(in_, line)) fail(path + ": empty file");
    header_ = parse(line);
    if (header_.value("format", "") != "warpreg-vectors" || header_.value("version", 0) != 1)
      fail(path + ": not a warpreg-vectors version 1 file (docs/vectors.md)");
    if (header_.value("generator", "") != generator)
      fail(path + ": vectors of '" + header_.value("generator", "") + "', this replay needs '" +
           generator + "'");
  }
  const nlohmann::json& header() const { return header_; }
  uint64_t count() const { return header_.at("count").get<uint64_t>(); }
  /// The next record, or false at the end of the file.
  bool next(nlohmann::json& record) {
    std::string line;
    if (!std::getline(in_, line)) return false;
    record = parse(line);
    if (record.at("step").get<uint64_t>() != line_ - 2)
      fail(path_ + ":" + std::to_string(line_) + ": records out of order");
    return true;
  }

 private:
  nlohmann::json parse(const std::string& line) {
    ++line_;
    try {
      return nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      fail(path_ + ":" + std::to_string(line_) + ": " + e.what());
    }
  }

  std::string path_;
  std::ifstream in_;
  nlohmann::json header_;
  uint64_t line_ = 0;
};

/// A field's value as `count` 32-bit words, word 0 the least significant: a number, or a
/// "0x" hex string (fields wider than 32 bits).
inline std::vector<uint32_t> words(const nlohmann::json& value, size_t count) {
  std::vector<uint32_t> w(count, 0);
  if (value.is_number_unsigned()) {
    w[0] = value.get<uint32_t>();
    return w;
  }
  const std::string s = value.get<std::string>();
  if (s.size() < 3 || s[0] != '0' || s[1] != 'x') fail("not a 0x hex value: " + s);
  for (size_t d = 0; d + 2 < s.size(); ++d) {
    const char c = s[s.size() - 1 - d];
    const uint32_t v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
    if (v == 16) fail("not a hex digit in " + s);
    if (d / 8 < count) w[d / 8] |= v << (4 * (d % 8));
  }
  return w;
}

inline uint64_t wide(const nlohmann::json& value) {
  const std::vector<uint32_t> w = words(value, 2);
  return uint64_t{w[1]} << 32 | w[0];
}

/// The header's values of enum field `field` must be `expected` (the RTL's codes).
inline void expect_enum(const nlohmann::json& header, const std::string& field,
                        const std::vector<std::string>& expected) {
  for (const nlohmann::json& f : header.at("fields"))
    if (f.at("name") == field) {
      if (f.at("values").get<std::vector<std::string>>() != expected)
        fail("field '" + field +
             "' has other values than the RTL's codes: " + f.at("values").dump());
      return;
    }
  fail("the vectors have no field '" + field + "'");
}

inline uint32_t code(const std::vector<std::string>& values, const std::string& name) {
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] == name) return static_cast<uint32_t>(i);
  fail("unknown value '" + name + "'");
}

/// Counts checks and mismatches; prints the first few mismatches with their step.
class Checker {
 public:
  explicit Checker(std::string block, unsigned reports = 10)
      : block_(std::move(block)), reports_(reports) {}

  void check(uint64_t step, const char* what, uint64_t got, uint64_t want) {
    ++checks_;
    if (got == want) return;
    if (mismatches_++ < reports_)
      std::printf("%s: step %llu: %s is 0x%llx, the model gives 0x%llx\n", block_.c_str(),
                  static_cast<unsigned long long>(step), what, static_cast<unsigned long long>(got),
                  static_cast<unsigned long long>(want));
  }
  void check_words(uint64_t step, const char* what, const uint32_t* got,
                   const std::vector<uint32_t>& want) {
    ++checks_;
    size_t differ = want.size();
    for (size_t i = want.size(); i-- > 0;)
      if (got[i] != want[i]) differ = i;
    if (differ == want.size()) return;
    if (mismatches_++ < reports_)
      std::printf(
          "%s: step %llu: %s differs from the model from bit %zu: word %zu is 0x%08x, "
          "the model gives 0x%08x\n",
          block_.c_str(), static_cast<unsigned long long>(step), what, 32 * differ, differ,
          got[differ], want[differ]);
  }
  /// A protocol error (an output valid when it must not be, or late).
  void error(uint64_t cycle, const std::string& what) {
    ++checks_;
    if (mismatches_++ < reports_)
      std::printf("%s: cycle %llu: %s\n", block_.c_str(), static_cast<unsigned long long>(cycle),
                  what.c_str());
  }
  uint64_t mismatches() const { return mismatches_; }
  /// The summary line; the exit status (0: no mismatch).
  int finish(const std::string& what) const {
    std::printf("%s: %s, %llu checks, %llu mismatches\n", block_.c_str(), what.c_str(),
                static_cast<unsigned long long>(checks_),
                static_cast<unsigned long long>(mismatches_));
    return mismatches_ == 0 ? 0 : 1;
  }

 private:
  std::string block_;
  unsigned reports_;
  uint64_t checks_ = 0, mismatches_ = 0;
};

}  // namespace replay

// JsonDocument: nesting bounded before the DOM is built, duplicate keys refused, lines
// of fields, quoted values cut.
#include <catch2/catch.hpp>
#include <string>

#include "common/json_input.h"

using namespace warpreg;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
std::string error_of(const std::string& text) {
  try {
    JsonDocument::parse(text, "in.json");
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("json input: nesting 100000 deep is refused at the limit, in a short message",
          "[json][bad-input]") {
  const std::string deep = "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::string e = error_of(deep);
  CHECK_THAT(e, StartsWith("in.json:1: arrays and objects nested more than 32 deep"));
  CHECK(e.size() < 200);
  const std::string at_limit = std::string(32, '[') + std::string(32, ']');
  CHECK(error_of(at_limit).empty());
  CHECK_FALSE(error_of(std::string(33, '[') + std::string(33, ']')).empty());
}

TEST_CASE("json input: a key given twice in one object is refused with both lines",
          "[json][bad-input]") {
  CHECK(error_of("{\"a\": 1,\n \"b\": {\"c\": 2},\n \"a\": 3}") ==
        "in.json:3: key \"a\" given twice in one object (first at line 1)");
  // The same key in two objects is fine.
  CHECK(error_of(R"({"a": {"x": 1}, "b": {"x": 2}})").empty());
}

TEST_CASE("json input: fields are found by line and long values are cut in messages", "[json]") {
  const JsonDocument doc =
      JsonDocument::parse("{\n \"set\": {\n  \"synth.ctas\": [1,\n   2]\n }\n}", "s.json");
  CHECK(doc.line_of("set") == 2);
  CHECK(doc.line_of("set.synth.ctas") == 3);
  CHECK(doc.line_of("set.synth.ctas[1]") == 4);
  CHECK(doc.line_of("set.absent") == 0);
  CHECK(doc.where("set.synth.ctas") == "s.json:3: set.synth.ctas: ");
  const std::string quoted = quote_text(std::string(1000, 'x'));
  CHECK(quoted.size() < json_limits::kMaxQuoted + 8);
  CHECK_THAT(quoted, Contains("..."));
  CHECK_THAT(error_of("{\"a\": 1} " + std::string(5000, 'z')),
             StartsWith("in.json:1: malformed JSON: text after the end of the document"));
  CHECK(error_of("{\"a\": 1} " + std::string(5000, 'z')).size() < 200);
}

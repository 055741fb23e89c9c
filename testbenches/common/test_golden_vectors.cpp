// The one golden-vector format (docs/vectors.md): every generator writes the same header
// keys, one record per step with every field, wide values as hex strings, and memh words
// that pack the same values as the JSON records.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/golden_vectors.h"
#include "modules/bdi/bdi_vectors.h"
#include "modules/ltrf/ltrf_vectors.h"
#include "modules/regmutex/regmutex_vectors.h"
#include "modules/rfv/rfv_vectors.h"
#include "modules/wrf/wrf_vectors.h"
#include "stimuli/driver/value_model.h"

using namespace warpreg;
using nlohmann::json;

namespace {

std::vector<vectors::VectorGenerator> all_generators() {
  return {bdi::vector_generator(bdi::Variant::Warped),
          bdi::vector_generator(bdi::Variant::Original),
          rename_table_vector_generator(),
          release_flag_cache_vector_generator(),
          tric_vector_generator(),
          coma_vector_generator(),
          regmutex::vector_generator(),
          aau_vector_generator()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string file_text(const vectors::VectorGenerator& g, vectors::Format format, uint64_t count,
                      uint64_t seed) {
  std::ostringstream out;
  vectors::write_vectors(g, format, out, count, seed);
  return out.str();
}

/// A "0x" hex string of exactly ceil(bits / 4) digits, as an integer's 32-bit words.
std::vector<uint32_t> parse_hex(const std::string& text, uint32_t bits) {
  REQUIRE(text.size() == 2 + (bits + 3) / 4);
  REQUIRE(text.substr(0, 2) == "0x");
  std::vector<uint32_t> words((bits + 31) / 32, 0);
  for (size_t d = 0; d + 2 < text.size(); ++d) {
    const char c = text[text.size() - 1 - d];
    const uint32_t v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'a' + 10;
    REQUIRE(v < 16);
    words[d / 8] |= v << (4 * (d % 8));
  }
  return words;
}

}  // namespace

TEST_CASE("vectors: every generator writes the same header keys and every field per record",
          "[vectors]") {
  for (const vectors::VectorGenerator& g : all_generators()) {
    INFO("generator " << g.name);
    const std::vector<std::string> lines =
        lines_of(file_text(g, vectors::Format::JsonLines, 40, 5));
    REQUIRE(lines.size() >= 2);
    const json head = json::parse(lines[0]);
    const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(lines[0]);
    std::vector<std::string> keys;
    for (auto it = ordered.begin(); it != ordered.end(); ++it) keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"format", "version", "generator", "block", "seed",
                                           "count", "parameters", "fields", "doc"});
    CHECK(head["format"] == "warpreg-vectors");
    CHECK(head["version"] == 1);
    CHECK(head["generator"] == g.name);
    CHECK(head["seed"] == "0x0000000000000005");
    CHECK(head["count"] == lines.size() - 1);
    CHECK(head["doc"].get<std::string>().rfind("docs/vectors.md#", 0) == 0);
    REQUIRE(head["fields"].size() == g.fields.size());
    for (size_t step = 1; step < lines.size(); ++step) {
      const nlohmann::ordered_json r = nlohmann::ordered_json::parse(lines[step]);
      INFO("record " << lines[step]);
      auto it = r.begin();
      REQUIRE(it.key() == "step");
      CHECK(it.value() == step - 1);
      for (const vectors::Field& f : g.fields) {
        ++it;
        REQUIRE(it != r.end());
        CHECK(it.key() == f.name);
        const auto& v = it.value();
        switch (f.kind) {
          case vectors::FieldKind::Unsigned:
            if (f.bits > 32) {
              REQUIRE(v.is_string());
              parse_hex(v.get<std::string>(), f.bits);
            } else {
              REQUIRE(v.is_number_unsigned());
              CHECK((f.bits == 32 || v.get<uint64_t>() < (uint64_t{1} << f.bits)));
            }
            break;
          case vectors::FieldKind::Signed:
            CHECK(v.is_number_integer());
            break;
          case vectors::FieldKind::Bool:
            CHECK(v.is_boolean());
            break;
          case vectors::FieldKind::Enum:
            CHECK(std::find(f.values.begin(), f.values.end(), v.get<std::string>()) !=
                  f.values.end());
            break;
          case vectors::FieldKind::Text:
            CHECK(v.is_string());
            break;
        }
      }
      CHECK(++it == r.end());
    }
  }
}

TEST_CASE("vectors: the same seed gives the same file, another seed another", "[vectors]") {
  for (const vectors::VectorGenerator& g : all_generators()) {
    INFO("generator " << g.name);
    const std::string a = file_text(g, vectors::Format::JsonLines, 300, 7);
    CHECK(a == file_text(g, vectors::Format::JsonLines, 300, 7));
    CHECK(a != file_text(g, vectors::Format::JsonLines, 300, 8));
  }
}

TEST_CASE("vectors: memh words pack the fields of the JSON records, the first field on top",
          "[vectors]") {
  for (const vectors::VectorGenerator& g : all_generators()) {
    INFO("generator " << g.name);
    const std::vector<std::string> json_lines =
        lines_of(file_text(g, vectors::Format::JsonLines, 60, 3));
    const std::vector<std::string> memh = lines_of(file_text(g, vectors::Format::Memh, 60, 3));
    // The header comment carries the JSON header record.
    REQUIRE(memh[0].rfind("// ", 0) == 0);
    CHECK(json::parse(memh[0].substr(3)) == json::parse(json_lines[0]));
    std::vector<std::string> words;
    for (const std::string& line : memh)
      if (line.rfind("//", 0) != 0) words.push_back(line);
    REQUIRE(words.size() == json_lines.size() - 1);
    const uint32_t width = vectors::memh_word_bits(g.fields);
    CHECK(width % 4 == 0);
    for (size_t step = 0; step < words.size(); ++step) {
      const std::vector<uint32_t> word = parse_hex("0x" + words[step], width);
      const json r = json::parse(json_lines[step + 1]);
      uint32_t lo = 0;
      for (size_t i = g.fields.size(); i-- > 0;) {
        const vectors::Field& f = g.fields[i];
        if (f.kind == vectors::FieldKind::Text) continue;
        std::vector<uint32_t> value((f.bits + 31) / 32, 0);
        for (uint32_t b = 0; b < f.bits; ++b, ++lo)
          if ((word[lo / 32] >> (lo % 32)) & 1u) value[b / 32] |= 1u << (b % 32);
        const json& v = r[f.name];
        std::vector<uint32_t> want((f.bits + 31) / 32, 0);
        if (f.kind == vectors::FieldKind::Enum)
          want[0] = static_cast<uint32_t>(
              std::find(f.values.begin(), f.values.end(), v.get<std::string>()) - f.values.begin());
        else if (f.kind == vectors::FieldKind::Bool)
          want[0] = v.get<bool>();
        else if (f.kind == vectors::FieldKind::Signed)
          want[0] =
              static_cast<uint32_t>(v.get<int64_t>()) & (f.bits == 32 ? ~0u : (1u << f.bits) - 1);
        else if (f.bits > 32)
          want = parse_hex(v.get<std::string>(), f.bits);
        else
          want[0] = v.get<uint32_t>();
        INFO("step " << step << " field " << f.name);
        CHECK(value == want);
      }
      // Above the fields: zero padding to whole hex digits.
      for (uint32_t b = lo; b < width; ++b) CHECK(((word[b / 32] >> (b % 32)) & 1u) == 0);
    }
  }
}

TEST_CASE("vectors: 54-bit release flags are hex strings that every JSON reader keeps exact",
          "[vectors]") {
  const vectors::VectorGenerator g = release_flag_cache_vector_generator();
  const auto records = vectors::records_as_json(g, 400, 1);
  size_t above_2_53 = 0;
  for (const auto& r : records) {
    for (const char* key : {"flags", "fill_flags"}) {
      REQUIRE(r[key].is_string());
      const uint64_t v = std::stoull(r[key].get<std::string>(), nullptr, 16);
      CHECK(v < (uint64_t{1} << 54));
      above_2_53 += v >= (uint64_t{1} << 53);
    }
  }
  CHECK(above_2_53 > 20);  // the values a double would have rounded
}

TEST_CASE("vectors: a value that does not fit its field is refused, not truncated", "[vectors]") {
  const vectors::Schema fields = {vectors::unsigned_field("a", 6), vectors::signed_field("s", 4),
                                  vectors::enum_field("op", {"x", "y", "z"}),
                                  vectors::unsigned_field("wide", 40)};
  vectors::Record r(fields);
  CHECK(fields[2].bits == 2);
  CHECK_NOTHROW(r.set("a", 63));
  CHECK_THROWS_AS(r.set("a", 64), std::logic_error);
  CHECK_NOTHROW(r.set_signed("s", -8));
  CHECK_THROWS_AS(r.set_signed("s", 8), std::logic_error);
  CHECK_THROWS_AS(r.set_enum("op", "w"), std::logic_error);
  CHECK_THROWS_AS(r.set("missing", 1), std::logic_error);
  CHECK_THROWS_AS(r.set("op", 1), std::logic_error);  // an enum is set by name
  const uint32_t fits[2] = {0xffffffffu, 0xffu}, too_wide[2] = {0, 0x100u};
  CHECK_NOTHROW(r.set_words("wide", fits, 2));
  CHECK(vectors::hex_string(r.words(3).data(), 40) == "0xffffffffff");
  CHECK_THROWS_AS(r.set_words("wide", too_wide, 2), std::logic_error);
  CHECK(r.words(1)[0] == 8u);  // -8 in 4 bits
  r.clear();
  CHECK(r.words(0)[0] == 0u);
}

TEST_CASE("vectors: more steps than the limit is an error before anything is written",
          "[vectors]") {
  std::ostringstream out;
  CHECK_THROWS_AS(vectors::write_vectors(aau_vector_generator(), vectors::Format::JsonLines, out,
                                         vectors::kMaxCount + 1, 1),
                  std::invalid_argument);
  CHECK(out.str().empty());
}

TEST_CASE("vectors: the RFV generators' random numbers are the workload driver's", "[vectors]") {
  for (uint64_t seed : {0ull, 1ull, 12345ull, ~0ull}) {
    vectors::Xoshiro256 mine(seed);
    Rng driver(seed);
    for (int i = 0; i < 100; ++i) {
      CHECK(mine.below(40) == driver.below(40));
      CHECK(mine.chance(0.7) == driver.chance(0.7));
      CHECK(mine.next() == driver.next());
    }
  }
}

TEST_CASE("vectors: docs/vectors.md has a row for every field of every generator, with its width",
          "[vectors]") {
  std::ifstream in(std::string(WARPREG_SOURCE_DIR) + "/docs/vectors.md");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const std::string page = text.str();
  for (const vectors::VectorGenerator& g : all_generators()) {
    INFO("generator " << g.name << ", " << g.doc);
    const std::string anchor = g.doc.substr(g.doc.find('#') + 1);
    REQUIRE(g.doc == "docs/vectors.md#" + anchor);
    const size_t begin = page.find("<a id=\"" + anchor + "\"></a>");
    REQUIRE(begin != std::string::npos);
    const size_t end = page.find("<a id=", begin + 1);
    const std::vector<std::string> lines = lines_of(page.substr(begin, end - begin));
    for (const vectors::Field& f : g.fields) {
      INFO("field " << f.name);
      const std::string bits = f.kind == vectors::FieldKind::Text ? "—" : std::to_string(f.bits);
      bool documented = false;
      for (const std::string& line : lines) {
        // | `name`[, `other`] | bits ... | kind | ...
        if (line.rfind("| ", 0) != 0) continue;
        const size_t cell = line.find(" | ");
        if (cell == std::string::npos) continue;
        const std::string first = line.substr(0, cell);
        const std::string second = line.substr(cell + 3, line.find(" |", cell + 3) - cell - 3);
        const bool names = first.find("`" + f.name + "`") != std::string::npos;
        // The width as a whole word of the cell ("4", "2 (`bdi-original`: 4)", "—").
        for (size_t at = second.find(bits); names && at != std::string::npos;
             at = second.find(bits, at + 1)) {
          const size_t after = at + bits.size();
          documented |=
              (at == 0 || !std::isdigit(static_cast<unsigned char>(second[at - 1]))) &&
              (after == second.size() || !std::isdigit(static_cast<unsigned char>(second[after])));
        }
      }
      CHECK(documented);
    }
  }
}

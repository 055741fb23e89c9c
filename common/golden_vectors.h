#pragma once
// Golden vectors: the one format every block's generator writes (docs/vectors.md).
//
// A generator is a plain description (VectorGenerator): its name, the hardware block
// its records describe, the block's fixed parameters, the record fields (each with a
// kind and a bit width, in the order of the memh packing) and a function that drives
// the block's C++ core for a seed and writes one Record per step to a RecordSink.
// write_vectors() turns that into a file: JSON Lines (a header record, then one record
// per step) or a $readmemh file (one packed word per step). Generators know nothing of
// the file formats, and this header knows nothing of the blocks.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace warpreg::vectors {

/// The header's "format" and "version": a reader checks both.
constexpr const char* kFormatName = "warpreg-vectors";
constexpr uint32_t kFormatVersion = 1;
/// The most steps one file may hold (a 10^7-step BDI file is about 5.5 GB).
constexpr uint64_t kMaxCount = 10'000'000;

enum class FieldKind : uint8_t {
  Unsigned,  ///< JSON: a number up to 32 bits, a "0x" hex string above
  Signed,    ///< two's complement, at most 32 bits; JSON: a number
  Bool,      ///< one bit; JSON: true or false
  Enum,      ///< JSON: one of `values`; memh: its index
  Text,      ///< JSON only: a label for people (not in the memh word)
};
const char* to_string(FieldKind kind);

struct Field {
  std::string name;
  FieldKind kind = FieldKind::Unsigned;
  uint32_t bits = 0;                ///< width in the memh word (0 for Text)
  std::vector<std::string> values;  ///< Enum: the names, index = code
};

Field unsigned_field(std::string name, uint32_t bits);
Field signed_field(std::string name, uint32_t bits);
Field bool_field(std::string name);
/// Enough bits for every value.
Field enum_field(std::string name, std::vector<std::string> values);
Field text_field(std::string name);

using Schema = std::vector<Field>;

/// One step's values, one per field of a schema; every field starts at 0 (false, the
/// first enum value, the empty text). Setting a field that does not exist, of another
/// kind, or a value that does not fit its width, throws std::logic_error: a generator
/// bug, never a silently truncated vector.
class Record {
 public:
  explicit Record(const Schema& schema);

  /// Every field back to 0.
  void clear();
  /// Unsigned or Bool field.
  Record& set(std::string_view field, uint64_t value);
  Record& set_signed(std::string_view field, int64_t value);
  Record& set_enum(std::string_view field, std::string_view value);
  Record& set_text(std::string_view field, std::string text);
  /// A wide Unsigned field from 32-bit words, word 0 the least significant.
  Record& set_words(std::string_view field, const uint32_t* words, size_t count);

  const Schema& schema() const { return *schema_; }
  /// Field i as 32-bit words, word 0 least significant (two's complement for Signed,
  /// the index for Enum), exactly ceil(bits / 32) of them.
  const std::vector<uint32_t>& words(size_t i) const { return values_[i].words; }
  const std::string& text(size_t i) const { return values_[i].text; }

 private:
  struct Value {
    std::vector<uint32_t> words;
    std::string text;
  };
  size_t index_of(std::string_view field, FieldKind kind) const;
  void store(size_t i, uint64_t value);

  const Schema* schema_;
  std::vector<Value> values_;
};

/// Where a generator writes its records, in step order: it fills the record next()
/// returns (the generator's own schema, cleared) and hands it over with emit().
class RecordSink {
 public:
  explicit RecordSink(const Schema& fields) : record_(fields) {}
  virtual ~RecordSink() = default;
  Record& next() {
    record_.clear();
    return record_;
  }
  void emit() { write(record_); }

 protected:
  virtual void write(const Record& record) = 0;

 private:
  Record record_;
};

/// A generator: what a registry lists and `warpreg vectors NAME` runs.
struct VectorGenerator {
  std::string name;                   ///< command-line name, e.g. "bdi"
  std::string block;                  ///< the hardware block the records describe, e.g. "bdi-codec"
  std::string description;            ///< one line for --help
  std::string doc;                    ///< where docs/vectors.md describes ports, fields and timing
  std::string count_meaning;          ///< what --count counts, e.g. "random registers after the
                                      ///< fixed boundary set"
  nlohmann::ordered_json parameters;  ///< the block's fixed parameters (header record)
  Schema fields;                      ///< one per record value, in memh packing order
  /// Records written for `count` steps; empty: write_vectors counts them in a first pass.
  std::function<uint64_t(uint64_t count)> records;
  /// Drives the core for `count` steps of the seeded sequence and writes every record;
  /// the same (count, seed) always gives the same records.
  std::function<void(RecordSink& out, uint64_t count, uint64_t seed)> write;
};

enum class Format : uint8_t {
  JsonLines,  ///< a header record, then one JSON object per step
  Memh,       ///< $readmemh: a comment header, then one packed hex word per step
};
const char* to_string(Format format);
/// "jsonl" or "memh"; throws std::invalid_argument naming the accepted names.
Format format_from_string(std::string_view name);

/// The header record (JSON Lines) or header comment (memh) of a file of `records` steps.
nlohmann::ordered_json header(const VectorGenerator& generator, uint64_t records, uint64_t seed);
/// Bits of the packed memh word: the fields' widths summed, rounded up to whole hex
/// digits (the extra bits are zero and the most significant).
uint32_t memh_word_bits(const Schema& fields);

/// Writes the header and every record of `count` steps; returns the records written.
/// Throws std::invalid_argument when count exceeds kMaxCount.
uint64_t write_vectors(const VectorGenerator& generator, Format format, std::ostream& out,
                       uint64_t count, uint64_t seed);

/// The records of `count` steps as JSON objects, as the JSON Lines file has them
/// (for tests and tools that want the values without a file).
std::vector<nlohmann::ordered_json> records_as_json(const VectorGenerator& generator,
                                                    uint64_t count, uint64_t seed);

/// "0x" and exactly ceil(bits / 4) lower-case hex digits of `words` (least significant
/// word first), the most significant digit first.
std::string hex_string(const uint32_t* words, uint32_t bits);

/// splitmix64 as a stream: the same numbers on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// next() mod n.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }

 private:
  uint64_t state_;
};

/// xoshiro256** (Blackman and Vigna) seeded by chained splitmix64: the RFV generators'
/// sequence, the same numbers as the workload driver's generator for the same seed.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed);
  uint64_t next();
  /// Uniform in [0, n) from the top 32 bits.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  /// True with `probability`.
  bool chance(double probability) {
    return static_cast<double>(next() >> 11) * 0x1.0p-53 < probability;
  }

 private:
  uint64_t state_[4];
};

}  // namespace warpreg::vectors

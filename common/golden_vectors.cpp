#include "common/golden_vectors.h"

#include <algorithm>
#include <charconv>
#include <ostream>
#include <stdexcept>

namespace warpreg::vectors {

const char* to_string(FieldKind kind) {
  switch (kind) {
    case FieldKind::Unsigned:
      return "unsigned";
    case FieldKind::Signed:
      return "signed";
    case FieldKind::Bool:
      return "bool";
    case FieldKind::Enum:
      return "enum";
    case FieldKind::Text:
      return "text";
  }
  return "?";
}

const char* to_string(Format format) { return format == Format::Memh ? "memh" : "jsonl"; }

Format format_from_string(std::string_view name) {
  if (name == "jsonl") return Format::JsonLines;
  if (name == "memh") return Format::Memh;
  throw std::invalid_argument("unknown vector format '" + std::string(name) +
                              "' (expected jsonl or memh)");
}

Field unsigned_field(std::string name, uint32_t bits) {
  return {std::move(name), FieldKind::Unsigned, bits, {}};
}
Field signed_field(std::string name, uint32_t bits) {
  return {std::move(name), FieldKind::Signed, bits, {}};
}
Field bool_field(std::string name) { return {std::move(name), FieldKind::Bool, 1, {}}; }
Field enum_field(std::string name, std::vector<std::string> values) {
  uint32_t bits = 1;
  while ((size_t{1} << bits) < values.size()) ++bits;
  return {std::move(name), FieldKind::Enum, bits, std::move(values)};
}
Field text_field(std::string name) { return {std::move(name), FieldKind::Text, 0, {}}; }

// ------------------------------------------------------------------------------ Record

Record::Record(const Schema& schema) : schema_(&schema), values_(schema.size()) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const Field& f = schema[i];
    if (f.kind != FieldKind::Text && f.bits == 0)
      throw std::logic_error("vector field '" + f.name + "' has no bits");
    if (f.kind == FieldKind::Signed && f.bits > 32)
      throw std::logic_error("signed vector field '" + f.name + "' is wider than 32 bits");
    values_[i].words.assign((f.bits + 31) / 32, 0);
  }
}

void Record::clear() {
  for (Value& v : values_) {
    std::fill(v.words.begin(), v.words.end(), 0);
    v.text.clear();
  }
}

size_t Record::index_of(std::string_view field, FieldKind kind) const {
  for (size_t i = 0; i < schema_->size(); ++i) {
    const Field& f = (*schema_)[i];
    if (f.name != field) continue;
    const bool ok = f.kind == kind || (kind == FieldKind::Unsigned && f.kind == FieldKind::Bool);
    if (!ok)
      throw std::logic_error("vector field '" + f.name + "' is " + to_string(f.kind) + ", not " +
                             to_string(kind));
    return i;
  }
  throw std::logic_error("no vector field '" + std::string(field) + "'");
}

void Record::store(size_t i, uint64_t value) {
  std::vector<uint32_t>& w = values_[i].words;
  std::fill(w.begin(), w.end(), 0);
  w[0] = static_cast<uint32_t>(value);
  if (w.size() > 1) w[1] = static_cast<uint32_t>(value >> 32);
}

Record& Record::set(std::string_view field, uint64_t value) {
  const size_t i = index_of(field, FieldKind::Unsigned);
  const uint32_t bits = (*schema_)[i].bits;
  if (bits < 64 && (value >> bits) != 0)
    throw std::logic_error("value " + std::to_string(value) + " does not fit vector field '" +
                           std::string(field) + "' (" + std::to_string(bits) + " bits)");
  store(i, value);
  return *this;
}

Record& Record::set_signed(std::string_view field, int64_t value) {
  const size_t i = index_of(field, FieldKind::Signed);
  const uint32_t bits = (*schema_)[i].bits;
  const int64_t half = int64_t{1} << (bits - 1);
  if (value < -half || value >= half)
    throw std::logic_error("value " + std::to_string(value) + " does not fit signed field '" +
                           std::string(field) + "' (" + std::to_string(bits) + " bits)");
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  store(i, static_cast<uint64_t>(value) & mask);
  return *this;
}

Record& Record::set_enum(std::string_view field, std::string_view value) {
  const size_t i = index_of(field, FieldKind::Enum);
  const std::vector<std::string>& names = (*schema_)[i].values;
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == value) {
      store(i, k);
      return *this;
    }
  throw std::logic_error("'" + std::string(value) + "' is not a value of vector field '" +
                         std::string(field) + "'");
}

Record& Record::set_text(std::string_view field, std::string text) {
  values_[index_of(field, FieldKind::Text)].text = std::move(text);
  return *this;
}

Record& Record::set_words(std::string_view field, const uint32_t* words, size_t count) {
  const size_t i = index_of(field, FieldKind::Unsigned);
  const uint32_t bits = (*schema_)[i].bits;
  std::vector<uint32_t>& w = values_[i].words;
  std::fill(w.begin(), w.end(), 0);
  for (size_t k = 0; k < count; ++k) {
    const bool inside = k < w.size() && (bits >= 32 * (k + 1) || (words[k] >> (bits % 32)) == 0);
    if (!inside && words[k] != 0)
      throw std::logic_error("value does not fit vector field '" + std::string(field) + "' (" +
                             std::to_string(bits) + " bits)");
    if (k < w.size()) w[k] = words[k];
  }
  return *this;
}

// ------------------------------------------------------------------------------ writing

std::string hex_string(const uint32_t* words, uint32_t bits) {
  static const char* digits = "0123456789abcdef";
  const uint32_t n = (bits + 3) / 4;
  std::string s(2 + n, '0');
  s[1] = 'x';
  for (uint32_t d = 0; d < n; ++d) {
    const uint32_t nibble = (words[d / 8] >> (4 * (d % 8))) & 15u;
    s[1 + n - d] = digits[nibble];
  }
  return s;
}

namespace {

void append_number(std::string& s, uint64_t v) {
  char buf[24];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void append_signed(std::string& s, uint32_t word, uint32_t bits) {
  const uint64_t sign = uint64_t{1} << (bits - 1);
  const int64_t v = static_cast<int64_t>((uint64_t{word} ^ sign) - sign);
  char buf[24];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

/// One record as a JSON object: "step" first, then the fields in schema order.
void append_json(std::string& s, const Record& r, uint64_t step) {
  s += "{\"step\":";
  append_number(s, step);
  const Schema& fields = r.schema();
  for (size_t i = 0; i < fields.size(); ++i) {
    const Field& f = fields[i];
    s += ",\"";
    s += f.name;
    s += "\":";
    const std::vector<uint32_t>& w = r.words(i);
    switch (f.kind) {
      case FieldKind::Unsigned:
        if (f.bits <= 32) {
          append_number(s, w[0]);
        } else {
          s += '"';
          s += hex_string(w.data(), f.bits);
          s += '"';
        }
        break;
      case FieldKind::Signed:
        append_signed(s, w[0], f.bits);
        break;
      case FieldKind::Bool:
        s += w[0] ? "true" : "false";
        break;
      case FieldKind::Enum:
        s += '"';
        s += f.values.at(w[0]);
        s += '"';
        break;
      case FieldKind::Text:
        s += nlohmann::json(r.text(i)).dump();
        break;
    }
  }
  s += '}';
}

class JsonLinesSink : public RecordSink {
 public:
  JsonLinesSink(std::ostream& out, const Schema& fields) : RecordSink(fields), out_(out) {}
  uint64_t steps() const { return steps_; }

 protected:
  void write(const Record& record) override {
    line_.clear();
    append_json(line_, record, steps_++);
    line_ += '\n';
    out_ << line_;
  }

 private:
  std::ostream& out_;
  std::string line_;
  uint64_t steps_ = 0;
};

class MemhSink : public RecordSink {
 public:
  MemhSink(std::ostream& out, const Schema& fields)
      : RecordSink(fields), out_(out), bits_(memh_word_bits(fields)), word_((bits_ + 31) / 32) {}
  uint64_t steps() const { return steps_; }

 protected:
  void write(const Record& record) override {
    std::fill(word_.begin(), word_.end(), 0);
    // The last field is the least significant, as in a SystemVerilog packed struct.
    uint32_t at = 0;
    const Schema& fields = record.schema();
    for (size_t i = fields.size(); i-- > 0;) {
      const uint32_t bits = fields[i].bits;
      const std::vector<uint32_t>& w = record.words(i);
      for (uint32_t b = 0; b < bits; ++b, ++at)
        if ((w[b / 32] >> (b % 32)) & 1u) word_[at / 32] |= 1u << (at % 32);
    }
    out_ << hex_string(word_.data(), bits_).substr(2) << '\n';
    ++steps_;
  }

 private:
  std::ostream& out_;
  uint32_t bits_;
  std::vector<uint32_t> word_;
  uint64_t steps_ = 0;
};

class CountingSink : public RecordSink {
 public:
  using RecordSink::RecordSink;
  uint64_t records = 0;

 protected:
  void write(const Record&) override { ++records; }
};

class JsonCollector : public RecordSink {
 public:
  using RecordSink::RecordSink;
  std::vector<nlohmann::ordered_json> records;

 protected:
  void write(const Record& record) override {
    line_.clear();
    append_json(line_, record, records.size());
    records.push_back(nlohmann::ordered_json::parse(line_));
  }

 private:
  std::string line_;
};

void write_memh_header(std::ostream& out, const nlohmann::ordered_json& head,
                       const Schema& fields) {
  const uint32_t word = memh_word_bits(fields);
  out << "// " << head.dump() << '\n';
  out << "// " << head["count"].get<uint64_t>() << " words of " << word
      << " bits, one per step, most significant bit first:\n";
  uint32_t total = 0;
  for (const Field& f : fields) total += f.bits;
  uint32_t hi = word;
  if (word > total) {
    out << "//   [" << word - 1 << ':' << total << "] zero\n";
    hi = total;
  }
  for (const Field& f : fields) {
    if (f.kind == FieldKind::Text) continue;
    out << "//   [" << hi - 1 << ':' << hi - f.bits << "] " << f.name << '\n';
    hi -= f.bits;
  }
}

}  // namespace

uint32_t memh_word_bits(const Schema& fields) {
  uint32_t bits = 0;
  for (const Field& f : fields) bits += f.bits;
  return (bits + 3) / 4 * 4;
}

nlohmann::ordered_json header(const VectorGenerator& generator, uint64_t records, uint64_t seed) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  for (const Field& f : generator.fields) {
    nlohmann::ordered_json j = {{"name", f.name}, {"kind", to_string(f.kind)}};
    if (f.kind != FieldKind::Text) j["bits"] = f.bits;
    if (f.kind == FieldKind::Enum) j["values"] = f.values;
    fields.push_back(std::move(j));
  }
  const uint32_t seed_words[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  return {{"format", kFormatName},
          {"version", kFormatVersion},
          {"generator", generator.name},
          {"block", generator.block},
          {"seed", hex_string(seed_words, 64)},
          {"count", records},
          {"parameters", generator.parameters},
          {"fields", std::move(fields)},
          {"doc", generator.doc}};
}

uint64_t write_vectors(const VectorGenerator& generator, Format format, std::ostream& out,
                       uint64_t count, uint64_t seed) {
  if (count > kMaxCount)
    throw std::invalid_argument("at most " + std::to_string(kMaxCount) + " steps per file");
  uint64_t records = 0;
  if (generator.records) {
    records = generator.records(count);
  } else {
    CountingSink counter(generator.fields);
    generator.write(counter, count, seed);
    records = counter.records;
  }
  const nlohmann::ordered_json head = header(generator, records, seed);
  uint64_t written = 0;
  if (format == Format::JsonLines) {
    out << head.dump() << '\n';
    JsonLinesSink sink(out, generator.fields);
    generator.write(sink, count, seed);
    written = sink.steps();
  } else {
    write_memh_header(out, head, generator.fields);
    MemhSink sink(out, generator.fields);
    generator.write(sink, count, seed);
    written = sink.steps();
  }
  if (written != records)
    throw std::logic_error("generator " + generator.name + " wrote " + std::to_string(written) +
                           " records, announced " + std::to_string(records));
  return written;
}

std::vector<nlohmann::ordered_json> records_as_json(const VectorGenerator& generator,
                                                    uint64_t count, uint64_t seed) {
  JsonCollector collector(generator.fields);
  generator.write(collector, count, seed);
  return std::move(collector.records);
}

// ------------------------------------------------------------------------------ random

Xoshiro256::Xoshiro256(uint64_t seed) {
  for (uint64_t& word : state_) {
    seed += 0x9e3779b97f4a7c15ull;
    seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
    seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
    seed ^= seed >> 31;
    word = seed;
  }
}

uint64_t Xoshiro256::next() {
  const auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

}  // namespace warpreg::vectors

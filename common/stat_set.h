#pragma once
// Statistics declared once, in the block that reports them. A StatSet is a plain struct
// whose members declare themselves (name, unit, description) and hold their values:
//
//   struct CompressorStats : StatSet {
//     CompressorStats() : StatSet("bdi_compressor") {}
//     Counter compressions{this, "compressions", "registers", "Writes compressed."};
//     Statistic<double> ratio{this, "compression_ratio", "ratio", "Original / stored bytes."};
//   };
//
// A Counter is a plain 64-bit increment on the hot path; a Statistic is set when the
// block reports. write() puts every member into the block's stats.json object, so a
// block reports nothing it has not declared; `warpreg doc stats` lists every
// registered set (docs/stats.md).
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace warpreg {

class StatBase;

class StatSet {
 public:
  /// How a platform of several SMs combines the SMs' values into its totals.
  enum class Combine : uint8_t {
    Sum,   ///< counts, energies, power, storage
    Mean,  ///< ratios, averages and per-kernel facts: the mean over the SMs
    Max,   ///< peaks and maxima
  };
  struct Spec {
    std::string name;
    std::string unit;  ///< "cycles", "accesses", "fraction", "pJ" ...
    std::string description;
    std::string type;  ///< "int", "real", "text", "list", "object"
    Combine combine = Combine::Sum;
  };

  /// `block`: the name the block reports under in stats.json's blocks.
  explicit StatSet(std::string block) : block_(std::move(block)) {}
  /// Virtual: the registry hands sets out as StatSet pointers (StatRegistry::instances).
  virtual ~StatSet() = default;
  StatSet(const StatSet&) = delete;
  StatSet& operator=(const StatSet&) = delete;

  const std::string& block() const { return block_; }
  const std::vector<Spec>& specs() const { return specs_; }
  /// True for a name some member declares.
  bool declares(const std::string& name) const;
  /// Every member's value under its name, into `out` (a JSON object).
  void write(nlohmann::json& out) const;

 private:
  friend class StatBase;
  std::string block_;
  std::vector<Spec> specs_;
  std::vector<const StatBase*> members_;
};

/// "sum", "mean" or "max".
const char* to_string(StatSet::Combine combine);

class StatBase {
 public:
  virtual nlohmann::json json_value() const = 0;

 protected:
  /// `combine`: how SMs' values combine; without one, from the type and unit (a counter,
  /// an energy, a power or a count object sums, a real or a fraction/ratio object is the
  /// mean, anything else sums).
  StatBase(StatSet* owner, const char* name, const char* unit, const char* description,
           const char* type, std::optional<StatSet::Combine> combine);
  ~StatBase() = default;
  StatBase(const StatBase&) = delete;
  StatBase& operator=(const StatBase&) = delete;
};

/// An event count.
class Counter final : public StatBase {
 public:
  Counter(StatSet* owner, const char* name, const char* unit, const char* description)
      : StatBase(owner, name, unit, description, "int", StatSet::Combine::Sum) {}
  Counter& operator++() {
    ++value_;
    return *this;
  }
  Counter& operator+=(uint64_t n) {
    value_ += n;
    return *this;
  }
  Counter& operator--() {
    --value_;
    return *this;
  }
  uint64_t value() const { return value_; }
  operator uint64_t() const { return value_; }
  void set(uint64_t v) { value_ = v; }
  nlohmann::json json_value() const override { return value_; }

 private:
  uint64_t value_ = 0;
};

/// A value the block computes when it reports (a ratio, an average, a list per bank,
/// a breakdown), or a configuration fact it reports beside its counters.
template <class T>
class Statistic final : public StatBase {
 public:
  Statistic(StatSet* owner, const char* name, const char* unit, const char* description,
            std::optional<StatSet::Combine> combine = std::nullopt)
      : StatBase(owner, name, unit, description, type_name(), combine) {}
  void set(T value) { value_ = std::move(value); }
  const T& get() const { return value_; }
  nlohmann::json json_value() const override { return value_; }

 private:
  static const char* type_name() {
    if constexpr (std::is_same_v<T, double>) return "real";
    if constexpr (std::is_integral_v<T>) return "int";
    if constexpr (std::is_same_v<T, std::string>) return "text";
    if constexpr (std::is_same_v<T, nlohmann::json>) return "object";
    return "list";
  }
  T value_{};
};

/// Every StatSet type the build knows, for docs/stats.md and the test that no block
/// reports an undeclared key.
class StatRegistry {
 public:
  using Factory = std::function<std::unique_ptr<StatSet>()>;
  static StatRegistry& instance();
  void add(Factory make);
  /// One default-constructed instance of each registered set.
  std::vector<std::unique_ptr<StatSet>> instances() const;

 private:
  std::vector<Factory> factories_;
};

struct StatRegistrar {
  explicit StatRegistrar(StatRegistry::Factory make) {
    StatRegistry::instance().add(std::move(make));
  }
};

/// Registers a default-constructible StatSet type, at namespace scope in a source file.
#define WARPREG_REGISTER_STATS(Type)                                    \
  static const ::warpreg::StatRegistrar warpreg_stats_registrar_##Type( \
      [] { return std::unique_ptr<::warpreg::StatSet>(new Type()); })

}  // namespace warpreg

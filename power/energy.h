#pragma once
// Energy accounting, split as SoCRocket does: coefficients (a technology table),
// activity (event counts and residency per power state) and derived results.
// Dynamic energy = sum(events x pJ per event); leakage energy = sum over power
// states of (unit-cycles spent in the state x mW per unit x ns per cycle).
// Residency is integrated lazily when a unit changes state, never per cycle.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpreg::power {

/// Power states of a unit (a bank, a register entry, a compressor ...).
enum class PowerState : uint8_t { On, Drowsy, Off, Gated };
constexpr unsigned kPowerStateCount = 4;
const char* to_string(PowerState s);

/// One coefficient of a technology table.
struct TechValue {
  double value = 0;
  std::string unit;    ///< "pJ", "mW", "nA", "V", "mm" ...
  std::string per;     ///< what one value refers to, e.g. "16-byte bank access" (may be empty)
  std::string source;  ///< seed file, table and row it is quoted from
  /// Numeric qualifiers the user of the value scales by, e.g. "access_bytes", "bank_bytes".
  std::map<std::string, double> attributes;
};

class TechError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A technology table loaded from power/tech/NAME.json.
class TechTable {
 public:
  /// Loads a shipped table by name or a path to a JSON file. Throws TechError naming the file.
  static TechTable load(const std::string& name_or_path);
  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::string& path() const { return path_; }
  double technology_nm() const { return technology_nm_; }
  bool has(const std::string& key) const;
  /// Throws TechError naming the table and the key when absent.
  const TechValue& at(const std::string& key) const;
  double value(const std::string& key) const { return at(key).value; }
  /// The value `block` needs; throws TechError naming the block, the key and the table
  /// when the table lacks it (never a silent 0).
  double value_for(const std::string& block, const std::string& key) const;
  /// A numeric qualifier of a value (e.g. "access_bytes"); throws TechError when absent.
  double attribute(const std::string& key, const std::string& attribute) const;
  nlohmann::json to_json() const;

 private:
  std::string name_;
  std::string description_;
  std::string path_;
  double technology_nm_ = 0;
  std::vector<std::pair<std::string, TechValue>> values_;
};

/// Folder of the shipped technology tables: $WARPREG_TECH, else data_dir()/power/tech.
std::string tech_dir();
std::vector<std::string> tech_names();

/// The energy account of one block.
class EnergyAccount {
 public:
  using EventId = uint32_t;
  using GroupId = uint32_t;

  /// `cycle_ns`: duration of one cycle in nanoseconds (for leakage).
  EnergyAccount(std::string block, double cycle_ns);

  /// Declares an event at elaboration time.
  EventId add_event(std::string name, std::string description, double pj_per_event);
  /// Counts n occurrences of an event: the hot path, an array increment.
  void count(EventId id, uint64_t n = 1) { events_[id].count += n; }
  uint64_t events(EventId id) const { return events_[id].count; }

  /// Declares `units` identical units (e.g. 16 banks) starting in `initial`, with
  /// the leakage power of one unit in each state in mW.
  GroupId add_residency(std::string name, std::string description, uint32_t units,
                        PowerState initial, const double (&mw_per_unit)[kPowerStateCount]);
  /// Moves `n` units of a group from one state to another at `cycle` (non-decreasing).
  /// Throws std::logic_error when fewer than n units are in `from` or `cycle` goes backwards.
  void transition(GroupId group, PowerState from, PowerState to, uint64_t cycle, uint32_t n = 1);
  uint32_t units_in(GroupId group, PowerState s) const;
  /// Declares a group whose residency a plain core integrates itself (per unit, at its
  /// own changes) and hands over with set_measured(); its leakage is the ON-equivalent
  /// unit-cycles x `mw_on`.
  GroupId add_measured_residency(std::string name, std::string description, uint32_t units,
                                 double mw_on);
  void set_measured(GroupId group, const uint64_t (&unit_cycles)[kPowerStateCount],
                    double on_equivalent_unit_cycles);
  /// Replaces a group's leakage per unit and state (elaboration time: before the
  /// first transition or finish).
  void set_unit_power(GroupId group, const double (&mw_per_unit)[kPowerStateCount]);
  /// Unit-cycles spent in a state, integrated up to `cycle` (not before the group's
  /// last transition: std::logic_error). Does not change the account.
  uint64_t unit_cycles(GroupId group, PowerState s, uint64_t cycle) const;

  /// Integrates residency up to `cycle` (call once at the end of simulation).
  void finish(uint64_t cycle);

  const std::string& block() const { return block_; }
  double dynamic_pj() const;
  double leakage_pj() const;  ///< up to the last finish() or transition()
  /// One group's share of leakage_pj(), for breakdowns.
  double group_leakage_pj(GroupId group) const;
  /// One event's share of dynamic_pj().
  double event_pj(EventId id) const { return double(events_[id].count) * events_[id].pj; }
  /// {"events": {NAME: count}, "dynamic_pj", "leakage_pj", "residency": {...}}
  nlohmann::json to_json() const;
  /// {"block", "cycle_ns", "events": [{"name","description","pj_per_event"}...],
  ///  "residency": [{"name","description","units","mw_per_unit": {STATE: mW}}...]}
  /// for documentation and describe.
  nlohmann::json describe() const;

 private:
  struct Event {
    std::string name, description;
    double pj = 0;
    uint64_t count = 0;
  };
  struct Group {
    std::string name, description;
    double mw[kPowerStateCount] = {};
    uint32_t units[kPowerStateCount] = {};
    uint64_t unit_cycles[kPowerStateCount] = {};
    uint64_t last_cycle = 0;
    bool measured = false;     ///< integrated outside (add_measured_residency)
    double on_equivalent = 0;  ///< measured: Σ unit-cycles x leakage fraction
  };
  double leakage_of(const Group& g) const;
  void integrate(Group& g, uint64_t cycle);
  std::string block_;
  double cycle_ns_;
  std::vector<Event> events_;
  std::vector<Group> groups_;
};

}  // namespace warpreg::power

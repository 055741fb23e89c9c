#pragma once
// A waveform of the whole platform: blocks register probes (a name and a function that
// reads their state); the platform samples every probe once per cycle into the VCD file.
// Nothing is registered or sampled unless a waveform was asked for, so the cost is zero
// when it is off. Power-state signals use the codes of docs/observability.md.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace sc_core {
class sc_trace_file;
}

namespace warpreg {

/// Codes of power-state signals in waveforms: power::PowerState's values, plus MIXED
/// for a group whose cells are not all in one state.
enum class WaveState : uint32_t { On = 0, Drowsy = 1, Off = 2, Gated = 3, Mixed = 4 };

class Waveform {
 public:
  /// Reads a value at the cycle being sampled (after every access of that cycle).
  using Probe = std::function<uint32_t(uint64_t cycle)>;

  /// Opens `path` (".vcd" appended by SystemC when missing); throws ConfigError naming it.
  explicit Waveform(const std::string& path);
  ~Waveform();
  Waveform(const Waveform&) = delete;
  Waveform& operator=(const Waveform&) = delete;

  /// The file SystemC writes for `path`: it appends ".vcd" to the base name.
  static std::string file_of(const std::string& path);

  /// Adds a signal `name` (hierarchical, e.g. "regfile.bank0_power") of `width` bits.
  void add(const std::string& name, unsigned width, Probe probe);
  /// Adds a signal that shows, each cycle, how much the running `total` grew since the
  /// cycle before (events per cycle from a counter the block keeps anyway).
  void add_count(const std::string& name, unsigned width, std::function<uint64_t()> total);
  /// Evaluates every probe for `cycle`; SystemC writes the changed values when time moves.
  void sample(uint64_t cycle);

 private:
  sc_core::sc_trace_file* file_ = nullptr;
  std::deque<uint32_t> values_;  ///< stable addresses: the trace file holds references
  std::vector<Probe> probes_;
};

/// Something with signals worth a waveform: a block adds its probes under its own name.
class TracedBlock {
 public:
  virtual ~TracedBlock() = default;
  virtual void add_signals(Waveform& wave) = 0;
};

}  // namespace warpreg

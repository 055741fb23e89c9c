#include "modules/interfaces/waveform.h"

#include <systemc>

#include "common/errors.h"

namespace warpreg {

namespace {
std::string base_of(const std::string& path) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  return base;
}
}  // namespace

std::string Waveform::file_of(const std::string& path) { return base_of(path) + ".vcd"; }

Waveform::Waveform(const std::string& path) {
  const std::string base = base_of(path);
  // SystemC reports the timescale as an info message; a waveform needs no announcement.
  const sc_core::sc_actions info =
      sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  if (file_) {
    // VCD timescales must be powers of ten: the waveform is in ps; one cycle is one period.
    file_->set_time_unit(1, sc_core::SC_PS);
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, info);
  if (!file_) throw ConfigError("cannot create waveform file " + path);
}

Waveform::~Waveform() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

void Waveform::add(const std::string& name, unsigned width, Probe probe) {
  values_.push_back(0);
  probes_.push_back(std::move(probe));
  sc_core::sc_trace(file_, values_.back(), name, static_cast<int>(width));
}

void Waveform::add_count(const std::string& name, unsigned width, std::function<uint64_t()> total) {
  add(name, width, [total = std::move(total), last = uint64_t{0}](uint64_t) mutable {
    const uint64_t now = total();
    const auto in_cycle = static_cast<uint32_t>(now - last);
    last = now;
    return in_cycle;
  });
}

void Waveform::sample(uint64_t cycle) {
  size_t i = 0;
  for (uint32_t& value : values_) value = probes_[i++](cycle);
}

}  // namespace warpreg

#include "modules/memory/interconnect_core.h"

#include <algorithm>
#include <string>

#include "common/errors.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

void InterconnectConfig::validate(std::string_view name) const {
  const std::string n(name);
  if (sm_ports == 0 || sm_ports > 1024)
    throw ConfigError(n + ".sm_ports must be 1 to 1024 (got " + std::to_string(sm_ports) + ")");
  if (slice_ports == 0 || slice_ports > 1024)
    throw ConfigError(n + ".slice_ports must be 1 to 1024 (got " + std::to_string(slice_ports) +
                      ")");
  if (flit_bytes == 0) throw ConfigError(n + ".flit_bytes must be at least 1");
  check_clock(name, clock_mhz);
  check_energy(name, "energy.flit_pj", energy.flit_pj);
  check_energy(name, "energy.leakage_mw", energy.leakage_mw);
}

InterconnectCore::InterconnectCore(const InterconnectConfig& config, std::string_view name)
    : config_(config) {
  config_.validate(name);
  sm_inject_.resize(config_.sm_ports);
  sm_eject_.resize(config_.sm_ports);
  slice_inject_.resize(config_.slice_ports);
  slice_eject_.resize(config_.slice_ports);
}

Traversal InterconnectCore::send(Timeline& source, Timeline& destination, uint32_t bytes,
                                 uint64_t cycle, Direction& counters) {
  const uint32_t n = flits(bytes);
  Traversal t;
  t.injected = source.reserve(cycle, n);
  const uint64_t head_arrives = t.injected + config_.latency;
  const uint64_t ejected = destination.reserve(head_arrives, n);
  t.delivered = ejected + n;
  ++counters.packets;
  counters.flits += n;
  counters.bytes += bytes;
  counters.wait_cycles += (t.injected - cycle) + (ejected - head_arrives);
  return t;
}

Traversal InterconnectCore::request(uint32_t sm, uint32_t slice, uint32_t bytes, uint64_t cycle) {
  return send(sm_inject_[sm], slice_eject_[slice], bytes, cycle, requests_);
}

Traversal InterconnectCore::reply(uint32_t slice, uint32_t sm, uint32_t bytes, uint64_t cycle) {
  return send(slice_inject_[slice], sm_eject_[sm], bytes, cycle, replies_);
}

void InterconnectCore::forget_before(uint64_t cycle) {
  for (auto* ports : {&sm_inject_, &sm_eject_, &slice_inject_, &slice_eject_})
    for (Timeline& port : *ports) port.forget_before(cycle);
}

}  // namespace warpreg::memory

#include "modules/memory/l1_cache.h"

#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

namespace {

RequestRules l1_rules(const CacheConfig& c) {
  RequestRules r;
  r.line_bytes = c.line_bytes;
  const bool read_only = c.write_policy == WritePolicy::ReadOnly;
  r.spaces = read_only ? space_bit(MemSpace::Constant)
                       : space_bit(MemSpace::Global) | space_bit(MemSpace::Local);
  r.writes = !read_only;
  return r;
}

}  // namespace

L1Cache::L1Cache(sc_core::sc_module_name name, const CacheConfig& config)
    : sc_core::sc_module(name),
      cpu_side("cpu_side"),
      mem_side("mem_side"),
      core_(config, config.write_policy == WritePolicy::ReadOnly ? "l1c" : "l1d"),
      clock_(config.clock_mhz),
      rules_(l1_rules(config)),
      energy_(this->name(), clock_.ns_per_cycle()) {
  activity_.declare(energy_, config);
  cpu_side.register_b_transport(this, &L1Cache::b_transport);
}

void L1Cache::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  MemRequest* ext = accept_request(payload, rules_, *this);
  if (ext == nullptr) return;
  // The SM sends loads, stores and atomics; write-backs come only from caches.
  if (ext->kind == MemKind::Writeback || (ext->kind == MemKind::Atomic && !rules_.writes)) {
    refuse(payload, tlm::TLM_COMMAND_ERROR_RESPONSE, *this,
           ext->kind == MemKind::Writeback ? "a write-back (only caches below the L1 take them)"
                                           : "an atomic to a read-only cache");
    return;
  }
  const uint64_t cycle = arrival_cycle(clock_, delay);
  CacheParts parts{core_, clock_, down_, energy_, activity_, MemLevel::L1};
  tlm::tlm_fw_transport_if<>& below = *mem_side.operator->();
  uint64_t done = 0;
  if (ext->kind == MemKind::Atomic || ext->bypass_l1) {
    done = pass(parts, below, payload, *ext, cycle);
  } else {
    CacheRequest request;
    request.address = payload.get_address();
    request.index_address = request.address;
    request.bytes = line_bytes_of(payload, *ext, core_.config().line_bytes);
    request.kind = ext->kind;
    request.space = ext->space;
    done = serve(parts, below, payload, *ext, request, cycle);
  }
  if (payload.is_response_error()) return;
  delay = time_of(clock_, done) - sc_core::sc_time_stamp();
}

nlohmann::json L1Cache::stats(uint64_t end_cycle) {
  return cache_stats(energy_, core_, activity_, end_cycle);
}

nlohmann::json L1Cache::describe() const { return cache_describe(core_.config(), energy_); }

}  // namespace warpreg::memory

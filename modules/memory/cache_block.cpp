#include "modules/memory/cache_block.h"

#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

Sent send_below(tlm::tlm_fw_transport_if<>& below, tlm::tlm_generic_payload& payload,
                const CycleClock& clock, uint64_t cycle) {
  Sent sent;
  sc_core::sc_time delay = time_of(clock, cycle) - sc_core::sc_time_stamp();
  below.b_transport(payload, delay);
  if (payload.is_response_error()) return sent;
  MemRequest* ext = nullptr;
  payload.get_extension(ext);
  sent.ok = true;
  sent.done = std::max(cycle, cycle_not_before(clock, sc_core::sc_time_stamp() + delay));
  sent.accepted = ext != nullptr ? std::max(cycle, cycle_not_before(clock, ext->accepted)) : cycle;
  return sent;
}

void CacheActivity::declare(power::EnergyAccount& energy, const CacheConfig& c) {
  tag_lookups = energy.add_event("tag_lookups", "tag-array lookups (every request examined)",
                                 c.energy.tag_lookup_pj);
  data_reads = energy.add_event("data_reads", "data-array reads (read hits, write-back read-outs)",
                                c.energy.data_read_pj);
  data_writes =
      energy.add_event("data_writes", "data-array writes (write hits and allocations, fills)",
                       c.energy.data_write_pj);
  mshr_accesses =
      energy.add_event("mshr_accesses", "MSHR allocations and merges", c.energy.mshr_access_pj);
  const double mw[power::kPowerStateCount] = {c.energy.leakage_mw, c.energy.leakage_mw, 0, 0};
  energy.add_residency("cache", "the cache (tags, data, MSHRs)", 1, power::PowerState::On, mw);
}

ByteMask line_bytes_of(const tlm::tlm_generic_payload& payload, const MemRequest& ext,
                       uint32_t line_bytes) {
  const bool write = ext.kind == MemKind::Store || ext.kind == MemKind::Writeback;
  if (write && line_bytes == kMaxLineBytes && !ext.byte_mask.empty()) return ext.byte_mask;
  return ByteMask::range(static_cast<uint32_t>(payload.get_address() & (line_bytes - 1)),
                         payload.get_data_length());
}

uint64_t serve(CacheParts& p, tlm::tlm_fw_transport_if<>& below, tlm::tlm_generic_payload& payload,
               MemRequest& ext, const CacheRequest& request, uint64_t cycle) {
  const uint32_t line_bytes = p.core.config().line_bytes;
  const bool write = request.kind == MemKind::Store || request.kind == MemKind::Writeback;
  p.core.forget_before(current_cycle(p.clock));
  CacheDecision d = p.core.access(request, cycle);
  p.energy.count(p.activity.tag_lookups);
  const auto prepare_down = [&](MemKind kind, MemSpace space,
                                uint64_t address) -> tlm::tlm_generic_payload& {
    tlm::tlm_generic_payload& down = p.down.prepare(kind, space, address, line_bytes);
    MemRequest& r = p.down.request();
    r.sm = ext.sm;
    r.warp = ext.warp;
    r.lanes = ext.lanes;
    r.sectors = 0xf;
    r.id = ext.id;
    return down;
  };

  if (d.writeback) {
    // Only local lines are dirty in an L1; an L2 line may be either, the DRAM does not mind.
    const MemSpace space = p.level == MemLevel::L1 ? MemSpace::Local : MemSpace::Global;
    tlm::tlm_generic_payload& wb = prepare_down(MemKind::Writeback, space, d.victim_address);
    const Sent sent = send_below(below, wb, p.clock, d.send);
    p.core.complete_writeback(d, sent.ok ? sent.accepted : d.send);
    p.energy.count(p.activity.data_reads);
    p.activity.bytes_to_below += line_bytes;
    if (!sent.ok) {
      if (d.outcome == CacheOutcome::Miss) p.core.abort_miss(d);
      payload.set_response_status(wb.get_response_status());
      return d.start;
    }
  }

  uint64_t done = d.ready;
  switch (d.outcome) {
    case CacheOutcome::Hit:
      p.energy.count(write ? p.activity.data_writes : p.activity.data_reads);
      ext.served_by = p.level;
      break;
    case CacheOutcome::MshrMerge:
      p.energy.count(p.activity.mshr_accesses);
      ext.served_by = p.level;
      break;
    case CacheOutcome::Miss: {
      p.energy.count(p.activity.mshr_accesses);
      tlm::tlm_generic_payload& fill =
          prepare_down(MemKind::Load, request.space, p.core.line_of(request.address));
      const Sent sent = send_below(below, fill, p.clock, d.send);
      if (!sent.ok) {
        p.core.abort_miss(d);
        payload.set_response_status(fill.get_response_status());
        return d.start;
      }
      p.core.complete_miss(d, sent.done, sent.accepted);
      p.energy.count(p.activity.data_writes);
      p.activity.bytes_from_below += line_bytes;
      ext.served_by = p.down.request().served_by;
      done = std::max(sent.done, d.send);
      break;
    }
    case CacheOutcome::Forward: {
      const Sent sent = send_below(below, payload, p.clock, d.send);
      p.core.complete_forward(d, sent.ok ? sent.accepted : d.send);
      if (!sent.ok) return d.start;
      p.activity.bytes_to_below += payload.get_data_length();
      done = sent.done;
      break;
    }
  }
  p.activity.bytes_served += payload.get_data_length();
  ext.accepted = time_of(p.clock, d.accepted);
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return done;
}

uint64_t pass(CacheParts& p, tlm::tlm_fw_transport_if<>& below, tlm::tlm_generic_payload& payload,
              MemRequest& ext, uint64_t cycle) {
  p.core.forget_before(current_cycle(p.clock));
  CacheDecision d = p.core.pass(cycle);
  const Sent sent = send_below(below, payload, p.clock, d.send);
  p.core.complete_forward(d, sent.ok ? sent.accepted : d.send);
  if (!sent.ok) return d.start;
  const uint32_t bytes = payload.get_data_length();
  if (ext.kind != MemKind::Load) p.activity.bytes_to_below += bytes;
  if (ext.kind != MemKind::Store) p.activity.bytes_from_below += bytes;
  p.activity.bytes_served += bytes;
  ext.accepted = time_of(p.clock, d.accepted);
  return sent.done;
}

nlohmann::json cache_stats(power::EnergyAccount& energy, const CacheCore& core,
                           const CacheActivity& activity, uint64_t end_cycle) {
  energy.finish(end_cycle);
  nlohmann::json j = energy.to_json();
  const CacheCore::Counters& c = core.counters();
  const double span = end_cycle > 0 ? double(end_cycle) : 1.0;
  j["requests"] = c.reads + c.writes + c.passed;
  j["reads"] = c.reads;
  j["writes"] = c.writes;
  j["passed"] = c.passed;
  j["read_hits"] = c.read_hits;
  j["read_misses"] = c.read_misses;
  j["mshr_merges"] = c.mshr_merges;
  j["write_hits"] = c.write_hits;
  j["write_misses"] = c.write_misses;
  j["write_evicts"] = c.write_evicts;
  j["forwarded_writes"] = c.forwarded;
  j["fills"] = c.fills;
  j["evictions"] = c.evictions;
  j["writebacks"] = c.writebacks;
  j["stalls"] = {
      {"port", {{"requests", c.port_stalls}, {"cycles", c.port_stall_cycles}}},
      {"mshr_full", {{"requests", c.mshr_stalls}, {"cycles", c.mshr_stall_cycles}}},
      {"mshr_merge_full", {{"requests", c.merge_stalls}, {"cycles", c.merge_stall_cycles}}},
      {"set_reserved", {{"requests", c.set_stalls}, {"cycles", c.set_stall_cycles}}},
      {"miss_queue_full", {{"requests", c.queue_stalls}, {"cycles", c.queue_stall_cycles}}}};
  j["mshr_occupancy_cycles"] = c.mshr_busy_cycles;
  j["mshr_occupancy_mean"] = double(c.mshr_busy_cycles) / span;
  j["miss_queue_occupancy_cycles"] = c.miss_queue_busy_cycles;
  j["miss_queue_occupancy_mean"] = double(c.miss_queue_busy_cycles) / span;
  j["bytes_served"] = activity.bytes_served;
  j["bytes_from_below"] = activity.bytes_from_below;
  j["bytes_to_below"] = activity.bytes_to_below;
  return j;
}

namespace {

const char* policy_name(WritePolicy p) {
  switch (p) {
    case WritePolicy::ReadOnly:
      return "read_only";
    case WritePolicy::LocalWriteBackGlobalWriteEvict:
      return "local_write_back_global_write_evict";
    case WritePolicy::WriteBack:
      return "write_back";
  }
  return "?";
}

}  // namespace

nlohmann::json cache_describe(const CacheConfig& c, const power::EnergyAccount& energy) {
  return {{"storage_bits", {{"data", c.capacity_bytes() * 8}}},
          {"organisation",
           {{"sets", c.sets},
            {"ways", c.ways},
            {"line_bytes", c.line_bytes},
            {"capacity_bytes", c.capacity_bytes()},
            {"set_index", c.set_index == SetIndexFunction::FermiHash ? "fermi_hash" : "linear"},
            {"replacement", "lru"},
            {"write_policy", policy_name(c.write_policy)},
            {"write_allocate", c.write_allocate},
            {"mshr_entries", c.mshr_entries},
            {"mshr_max_merge", c.mshr_max_merge},
            {"miss_queue_entries", c.miss_queue_entries}}},
          {"ports", {{"accesses_per_cycle", 1}}},
          {"latency_cycles", {{"hit", c.latency}}},
          {"clock_mhz", c.clock_mhz},
          {"energy", energy.describe()}};
}

}  // namespace warpreg::memory

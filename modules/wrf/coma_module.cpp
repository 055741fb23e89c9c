#include "modules/wrf/coma_module.h"

#include <algorithm>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg {

WARPREG_REGISTER_STATS(ComaStats);

namespace {
ComaConfig coma_config(const MachineShape& machine) {
  ComaConfig c;
  c.entries = machine.collector_units;  // seed 002 §5.1: one entry per collector unit
  return c;
}
}  // namespace

ComaModule::ComaModule(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name),
      params_(&context.params),
      core_(coma_config(context.machine)),
      regfile_(context.regfile),
      clock_(context.clock),
      bank_ports_(params_.bank_ports && regfile_.lane_slices > 1),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  if (bank_ports_) {
    read_free_.assign(regfile_.banks, 0);
    write_free_.assign(regfile_.banks, 0);
  }
  const double pj = context.tech.value_for(this->name(), "coma_table_access");
  table_writes_ = energy_.add_event(
      "table_writes", "active-mask table writes (a warp assigned a collector unit)", pj);
  table_reads_ =
      energy_.add_event("table_reads", "active-mask table reads (one per operand read)", pj);
}

void ComaModule::refuse_collector(tlm::tlm_generic_payload& payload, uint32_t collector) {
  refuse(payload, tlm::TLM_GENERIC_ERROR_RESPONSE, *this,
         "collector unit " + std::to_string(collector) + " beyond the table's " +
             std::to_string(core_.config().entries));
}

uint64_t ComaModule::take_bank_port(std::vector<uint64_t>& next_free, const RfAccess& a,
                                    uint64_t& cycle) {
  // Registers outside the file are the banks' to refuse.
  if (a.phys_reg == kNoPhysical) return 0;
  uint64_t& port = next_free[regfile_.bank_of(a.phys_reg, a.warp_slot, a.arch_reg)];
  const uint64_t grant = std::max(cycle, port);
  port = grant + 1;
  const uint64_t waited = grant - cycle;
  cycle = grant;
  return waited;
}

DirectTransport ComaModule::direct() {
  return serving_at<ComaModule>(direct_to<ComaModule>(), clock_);
}

[[gnu::always_inline]] inline bool ComaModule::gate(tlm::tlm_generic_payload& payload,
                                                    RfAccess& a) {
  if (a.kind == RfAccessKind::Write) {
    // The write already switches only the slices of its (scoreboard) mask.
    core_.write_mask(a.active_mask);
    return true;
  }
  // A read the SM sent is lane-aligned (all lanes): the mask gates it. One a codec
  // before COMA narrowed is packed into those slices (a compressed image, or only
  // the slices holding data): every bit of them is needed, so the gate is the codec's.
  // The gate never cuts a lane the read needs: a read the collector's entry does not
  // cover is not that collector's (a stage's own, as RFV's spill) and goes whole, and
  // a register-file cache's fill is no collector's read at all: every lane is fetched.
  if (a.collector == kNoCollector) return true;
  if (a.collector >= core_.config().entries) {
    refuse_collector(payload, a.collector);
    return false;
  }
  if (a.read_lanes != kFullMask)
    core_.read_ungated(a.active_mask, a.read_lanes, false);
  else if ((a.active_mask & ~core_.entry(a.collector)) != 0)
    core_.read_ungated(a.active_mask, kFullMask, true);
  else
    a.read_lanes = core_.read_mask(a.collector, a.active_mask);
  energy_.count(table_reads_);
  return true;
}

[[gnu::always_inline]] inline uint64_t ComaModule::bank_port_cycle(const RfAccess& a,
                                                                   uint64_t cycle) {
  if (!bank_ports_) return cycle;
  if (a.kind == RfAccessKind::Read) {
    if (const uint64_t waited = take_bank_port(read_free_, a, cycle)) {
      ++conflicted_reads_;
      read_conflict_cycles_ += waited;
    }
  } else if (take_bank_port(write_free_, a, cycle) > 0) {
    ++conflicted_writes_;
  }
  return cycle;
}

bool ComaModule::assign(tlm::tlm_generic_payload& payload, const RfAccess& a) {
  // The first Wake of a collector assignment carries the warp's active mask; a
  // stage's own instruction (kNoCollector, e.g. RegMutex's compaction MOV) has no entry.
  if (a.operand_slot != 0 || a.collector == kNoCollector) return true;
  if (a.collector >= core_.config().entries) {
    refuse_collector(payload, a.collector);
    return false;
  }
  core_.assign(a.collector, a.active_mask);
  energy_.count(table_writes_);
  return true;
}

bool ComaModule::serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                          uint64_t& ready) {
  switch (a.kind) {
    case RfAccessKind::Wake:
      ready = assign(payload, a) ? send_at(payload, a, clock_, cycle) : cycle;
      return true;
    case RfAccessKind::Read:
    case RfAccessKind::Write:
      ready = gate(payload, a) ? send_at(payload, a, clock_, bank_port_cycle(a, cycle)) : cycle;
      return true;
    default:
      return false;
  }
}

void ComaModule::transport(tlm::tlm_generic_payload& payload, RfAccess& a,
                           sc_core::sc_time& delay) {
  // Reads, writes and Wakes: what serve_at does at the delay's cycle.
  uint64_t ready = 0;
  if (!serve_at(payload, a, clock_.cycle_at(delay), ready))
    forward(payload, a, delay);
  else if (payload.is_response_ok())
    clock_.complete_at(delay, ready);
}

double ComaModule::gated_share() const {
  const ComaCore::Counters& c = core_.counters();
  const uint64_t all = c.lanes_accessed + c.lanes_gated;
  return all ? double(c.lanes_gated) / double(all) : 0.0;
}

namespace {

// Shares of warp instructions with all 32, 17-31 and 0-16 active lanes, and the mean
// share of active lanes (thread utilisation; seed 002 Figure 3 and its categories).
nlohmann::json lane_breakdown(const std::array<uint64_t, kWarpSize + 1>& counts) {
  uint64_t all = 0, half = 0, partial = 0, lanes = 0;
  for (unsigned k = 0; k <= kWarpSize; ++k) {
    all += counts[k];
    lanes += k * counts[k];
    if (k <= kWarpSize / 2)
      half += counts[k];
    else if (k < kWarpSize)
      partial += counts[k];
  }
  const auto share = [all](uint64_t n) { return all ? double(n) / double(all) : 0.0; };
  return {{"lanes_32", share(counts[kWarpSize])},
          {"lanes_17_31", share(partial)},
          {"lanes_0_16", share(half)},
          {"utilisation", all ? double(lanes) / double(all * kWarpSize) : 0.0}};
}

}  // namespace

nlohmann::json ComaModule::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  const ComaCore::Counters& c = core_.counters();
  ComaStats& s = stats_;
  s.storage_bits.set(core_.config().storage_bits());
  s.writeback_masks.set(c.writeback_masks);
  s.lanes_accessed.set(c.lanes_accessed);
  s.lanes_gated.set(c.lanes_gated);
  s.mask_mismatches.set(c.mismatches);
  s.ungated_reads.set(c.ungated_reads);
  s.read_active_lanes.set({c.read_active_lanes.begin(), c.read_active_lanes.end()});
  s.assigned_active_lanes.set({c.assigned_active_lanes.begin(), c.assigned_active_lanes.end()});
  s.reads_by_lanes.set(lane_breakdown(c.read_active_lanes));
  s.instructions_by_lanes.set(lane_breakdown(c.assigned_active_lanes));
  s.gated_share.set(gated_share());
  s.bank_conflicts.set({{"reads", conflicted_reads_},
                        {"read_cycles", read_conflict_cycles_},
                        {"writes", conflicted_writes_}});
  nlohmann::json j = energy_.to_json();
  s.write(j);
  return j;
}

nlohmann::json ComaModule::describe() const {
  const ComaConfig& c = core_.config();
  return {{"storage_bits", {{"mask_table", c.storage_bits()}}},
          {"organisation",
           {{"entries", c.entries},
            {"bits_per_entry", kWarpSize},
            {"indexed_by", "operand collector unit"},
            {"gated_segments_per_register", regfile_.lane_slices}}},
          {"ports",
           {{"target", "operand-path transactions from the collectors (Wake, Read, Write)"},
            {"initiator",
             "the same transactions towards the banks, reads narrowed to the "
             "active lanes"},
            {"table_write",
             "two-level scheduler: active mask of the warp assigned a collector "
             "unit (the first Wake)"},
            {"table_read", "every operand read, by collector unit id"},
            {"writeback_mask", "scoreboard: the writeback's active mask"}}},
          {"latency_cycles", {{"table_access", 0}}},
          {"parameters", params_.to_json()},
          {"one_port_per_bank", bank_ports_},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

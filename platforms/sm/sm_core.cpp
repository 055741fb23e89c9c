#include "platforms/sm/sm_core.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "common/bits.h"
#include "common/errors.h"
#include "common/params.h"
#include "platforms/sm/sm_params.h"

namespace warpreg {

namespace {
const char* kUnitNames[kUnitTypes] = {"SP", "SFU", "MEM"};

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}
}  // namespace

SmConfig SmConfig::from(const Params& p) {
  const SmParams sm(&p);
  const CollectorParams collector(&p);
  const ExecParams exec(&p);
  const MemParams mem(&p);
  const SimParams sim(&p);
  SmConfig c;
  c.limits.max_warps = sm.max_warps;
  c.limits.max_threads = sm.max_threads;
  c.limits.max_ctas = sm.max_ctas;
  c.limits.shared_mem_bytes = sm.shared_mem_bytes;
  c.limits.registers = sm.registers;
  c.limits.reg_alloc_granularity = sm.reg_alloc_granularity;
  c.schedulers = sm.schedulers;
  c.issue_width = sm.issue_width;
  c.policy = sm.scheduler;
  c.ready_queue = sm.ready_queue;
  c.collectors = {collector.sp, collector.sfu, collector.mem};
  c.exec_units = {exec.sp_units, exec.sfu_units, exec.mem_units};
  c.alu_latency = exec.alu_latency;
  c.sfu_latency = exec.sfu_latency;
  c.sfu_interval = exec.sfu_interval;
  c.branch_latency = exec.branch_latency;
  c.store_latency = exec.store_latency;
  c.mem_hit_rate = mem.hit_rate;
  c.mem_hit_latency = mem.hit_latency;
  c.mem_miss_latency = mem.miss_latency;
  c.local_lines = mem.local_lines;
  c.memory_system = mem.model == MemoryModel::MemorySystem;
  c.seed = sim.seed;
  c.watchdog_cycles = sim.watchdog_cycles;
  return c;
}

SmCore::SmCore(const SmConfig& config, Workload& workload, OperandPort& port,
               ShadowRegisterFile& shadow)
    : config_(config),
      workload_(workload),
      port_(port),
      shadow_(shadow),
      kernel_(workload.shape()),
      occupancy_(compute_occupancy(config.limits, kernel_)),
      rng_state_(config.seed ^ 0x5eed0fca11ab1e5ull) {
  warps_.resize(config_.limits.max_warps);
  ctas_.resize(occupancy_.ctas);
  uint32_t id = 0;
  for (unsigned t = 0; t < kUnitTypes; ++t) {
    collector_begin_[t] = id;
    id += config_.collectors[t];
    free_collectors_[t] = config_.collectors[t];
    unit_free_[t].assign(config_.exec_units[t], 0);
  }
  collectors_.resize(id);
  for (uint32_t s = 0; s < config_.schedulers; ++s)
    schedulers_.emplace_back(config_.policy, config_.ready_queue);
  demote_after_pick_.reserve(size_t{config_.limits.max_warps} * (config_.issue_width + 1));
  local_lines_.reserve(config_.local_lines);
}

void SmCore::override_occupancy(const Occupancy& occupancy) {
  if (started_) throw std::logic_error("override_occupancy after the run started");
  if (occupancy.warps_per_cta != occupancy_.warps_per_cta || occupancy.ctas == 0 ||
      occupancy.warps() > config_.limits.max_warps || occupancy.ctas > config_.limits.max_ctas)
    throw ConfigError("a design's occupancy (" + std::to_string(occupancy.ctas) + " CTAs of " +
                      std::to_string(occupancy.warps_per_cta) +
                      " warps) does not fit the SM's warp and CTA slots");
  occupancy_ = occupancy;
  ctas_.assign(occupancy_.ctas, Cta{});
}

void SmCore::fail(const char* kind, std::string message) {
  if (!failure_.empty()) return;
  failure_kind_ = kind;
  failure_ = std::move(message);
}

void SmCore::launch_ctas(uint64_t now) {
  if (cta_source_) {
    for (uint32_t c = 0; c < ctas_.size() && !grid_drained_; ++c) {
      uint32_t id = 0;
      if (ctas_[c].busy) continue;
      if (cta_source_->next_cta(now, id))
        launch_cta(c, id, now);
      else
        grid_drained_ = true;
    }
    return;
  }
  for (uint32_t c = 0; c < ctas_.size() && next_cta_ < kernel_.ctas; ++c)
    if (!ctas_[c].busy) launch_cta(c, next_cta_++, now);
}

void SmCore::launch_cta(uint32_t cta_slot, uint32_t id, uint64_t now) {
  Cta& cta = ctas_[cta_slot];
  cta.busy = true;
  cta.id = id;
  ++running_ctas_;
  cta.warps_left = occupancy_.warps_per_cta;
  cta.live = occupancy_.warps_per_cta;
  cta.at_barrier = 0;
  ++counters_.ctas_launched;
  for (uint32_t k = 0; k < occupancy_.warps_per_cta; ++k) {
    const uint32_t slot = cta_slot * occupancy_.warps_per_cta + k;
    Warp& w = warps_[slot];
    w = Warp{};
    w.state = WarpState::Running;
    w.cta_slot = cta_slot;
    w.cta_id = cta.id;
    w.warp_in_cta = k;
    w.stream = &workload_.load_warp(config_.workload_slot_base + slot, cta.id, k);
    shadow_.reset_warp(slot);
    reclassify(slot);
    RfAccess& a = txn_.access();
    txn_.prepare(RfAccessKind::Launch, nullptr);
    a.warp_slot = static_cast<uint16_t>(slot);
    a.cta_slot = static_cast<uint16_t>(cta_slot);
    a.regs_per_warp = occupancy_.regs_per_warp();
    a.phys_reg = slot * occupancy_.regs_per_warp();
    port_.access(txn_, now);
    scheduler_of(slot).add_warp(slot, launch_age_++);
  }
  for (IssueHook* hook : hooks_)
    hook->cta_launched(cta_slot, occupancy_.warps_per_cta, occupancy_.regs_per_warp(), now);
}

void SmCore::finish_warp(uint32_t slot, uint64_t now) {
  Warp& w = warps_[slot];
  RfAccess& a = txn_.access();
  txn_.prepare(RfAccessKind::Retire, nullptr);
  a.warp_slot = static_cast<uint16_t>(slot);
  a.cta_slot = static_cast<uint16_t>(w.cta_slot);
  a.regs_per_warp = occupancy_.regs_per_warp();
  a.phys_reg = slot * occupancy_.regs_per_warp();
  port_.access(txn_, now);
  w.state = WarpState::Empty;
  reclassify(slot);
  counters_.last_cycle = now;
  Cta& cta = ctas_[w.cta_slot];
  if (--cta.warps_left == 0) {
    cta.busy = false;
    ++ctas_done_;
    --running_ctas_;
    for (IssueHook* hook : hooks_) hook->cta_finished(w.cta_slot, now);
    launch_ctas(now);
  }
}

inline int SmCore::free_collector(UnitType t) const {
  const unsigned ti = static_cast<unsigned>(t);
  const uint64_t free = ~busy_collectors_[ti];
  const uint32_t first = free == 0 ? 64 : uint32_t(__builtin_ctzll(free));
  return first < config_.collectors[ti] ? int(collector_begin_[ti] + first) : -1;
}

void SmCore::add_issue_hook(IssueHook* hook) {
  if (hooks_.size() >= kNotParked) throw std::logic_error("too many issue hooks");
  hooks_.push_back(hook);
  if (hook->may_hold()) asked_hooks_.push_back(uint8_t(hooks_.size() - 1));
  parkings_.push_back(std::make_unique<HookParking>(*this, uint8_t(hooks_.size() - 1)));
  hook->attach_parking(parkings_.back().get());
}

IssueVerdict SmCore::ask_hooks(uint32_t slot, uint64_t now) {
  const Warp& w = warps_[slot];
  for (const uint8_t i : asked_hooks_) {
    IssueHook* hook = hooks_[i];
    if (parked(w, i, now)) {
      hook->parked_probe(slot, now);  // a later hook: always called
      if (parked(w, i, now)) return IssueVerdict::Wait;
    }
    const IssueVerdict v = hook->before_issue(slot, w.cta_slot, w.next, w.stream->at(w.next), now);
    if (v != IssueVerdict::Issue) return v;
  }
  return IssueVerdict::Issue;
}

inline bool SmCore::held_by_hook(uint32_t slot) {
  ++counters_.hook_waits;
  if (config_.policy == SchedulerPolicy::TwoLevel) demote_after_pick_.push_back(slot);
  return false;
}

// Inlined (forced: the compiler would not) into the scheduler's scan in step(), its
// only caller: it runs several times per issued instruction.
[[gnu::always_inline]] inline bool SmCore::can_issue(uint32_t slot) {
  // The cheap tests, inlined into the scheduler's scan: most warps fail one of them.
  const Warp& w = warps_[slot];
  if (parked(w, 0, issue_cycle_)) {
    // A parked warp has not issued since its hook parked it in a probe that passed every
    // test but the collector's: its scoreboard is still clear, its next instruction the same.
    if (w.parked_unit < kUnitTypes && free_collectors_[w.parked_unit] == 0) return false;
    return parked_probes_quiet_ == issue_cycle_ ? held_by_hook(slot) : can_issue_parked(slot);
  }
  if (w.state == WarpState::Running && !w.branch_pending && !w.scoreboard_blocked &&
      w.last_issue != issue_cycle_) {
    // Every collector of its type taken (often, behind slow operand paths): no call.
    if (w.next_unit < kUnitTypes && free_collectors_[w.next_unit] == 0) return false;
    return can_issue_next(slot);
  }
  if (w.state == WarpState::AtBarrier && config_.policy == SchedulerPolicy::TwoLevel)
    demote_after_pick_.push_back(slot);
  return false;
}

bool SmCore::can_issue_parked(uint32_t slot) {
  if (hooks_[0]->parked_probe(slot, issue_cycle_)) parked_probes_quiet_ = issue_cycle_;
  return parked(warps_[slot], 0, issue_cycle_) ? held_by_hook(slot) : can_issue_next(slot);
}

bool SmCore::can_issue_next(uint32_t slot) {
  Warp& w = warps_[slot];
  const WarpInst& inst = w.stream->at(w.next);
  if (inst.cls != InstClass::Exit && inst.cls != InstClass::Barrier) {
    // Cheapest test first: most cycles every collector of the type is taken.
    const auto unit = static_cast<uint8_t>(unit_of(inst.cls));
    if (free_collectors_[unit] == 0) {
      w.next_unit = unit;  // the scan fails it inline while the type stays full
      return false;
    }
    bool hazard = false;
    for (unsigned i = 0; i < inst.num_src && !hazard; ++i) hazard = w.pending_writes[inst.src[i]];
    for (unsigned i = 0; i < inst.num_dst && !hazard; ++i) hazard = w.pending_writes[inst.dst[i]];
    if (hazard) {
      w.scoreboard_blocked = true;
      reclassify(slot);
      return false;
    }
  }
  if (asked_hooks_.empty()) return true;
  switch (ask_hooks(slot, issue_cycle_)) {
    case IssueVerdict::Issue:
      return true;
    case IssueVerdict::Metadata:
      warps_[slot].metadata_next = true;
      return true;
    case IssueVerdict::Wait:
      break;
  }
  return held_by_hook(slot);
}

void SmCore::reclassify(uint32_t slot) {
  if (config_.policy != SchedulerPolicy::Lrr) return;  // only the LRR scan reads the classes
  // Parked by the first hook, until released or until a later cycle (unpark_due files it
  // again then): by collector type. Waiting at a barrier, for a branch or on the
  // scoreboard, or gone: nothing to do (under LRR, which demotes no warp).
  const Warp& w = warps_[slot];
  uint8_t cls = kInert;
  if (w.parked_by == 0 && w.parked_until > step_cycle_)
    cls = static_cast<uint8_t>(kParked + w.parked_unit);
  else if (w.parked_by == 0 ||
           (w.state == WarpState::Running && !w.branch_pending && !w.scoreboard_blocked))
    cls = kAsk;
  scheduler_of(slot).set_class(slot, cls);
}

void SmCore::unpark_due(uint64_t now) {
  uint64_t next = kNever;
  for (uint64_t left = timed_parks_; left != 0; left &= left - 1) {
    const uint32_t slot = uint32_t(__builtin_ctzll(left));
    const Warp& w = warps_[slot];
    if (w.parked_by == 0 && w.parked_until != WarpParking::kUntilReleased) {
      if (w.parked_until > now) {
        next = std::min(next, w.parked_until);
        continue;
      }
      reclassify(slot);
    }
    timed_parks_ &= ~(uint64_t{1} << slot);
  }
  next_unpark_ = next;
}

void SmCore::issue(uint32_t slot, uint64_t now) {
  Warp& w = warps_[slot];
  // A warp that issues is not parked (can_issue released it or its park ran out): forget
  // the hook, so that its class follows its own state again.
  if (w.parked_by != kNotParked) {
    w.parked_by = kNotParked;
    reclassify(slot);
  }
  if (w.metadata_next) {
    w.metadata_next = false;
    w.last_issue = now;
    ++counters_.metadata_instructions;
    return;
  }
  const WarpInst& inst = w.stream->at(w.next);
  for (IssueHook* hook : hooks_) hook->issued(slot, w.cta_slot, inst, now);
  const uint32_t index = w.next++;
  w.next_unit = kUnknownUnit;
  w.last_issue = now;
  ++counters_.warp_instructions;
  counters_.thread_instructions += static_cast<uint64_t>(popcount32(inst.active));
  ++counters_.by_class[static_cast<unsigned>(inst.cls)];
  WarpScheduler& scheduler = scheduler_of(slot);
  Cta& cta = ctas_[w.cta_slot];

  if (inst.cls == InstClass::Exit) {
    w.stream->retire(index);
    w.state = WarpState::Exiting;
    reclassify(slot);
    scheduler.remove_warp(slot);
    --cta.live;
    ++counters_.retired;
    last_retire_cycle_ = now;
    release_barrier_if_complete(w.cta_slot);
    if (w.outstanding == 0) finish_warp(slot, now);
    return;
  }
  if (inst.cls == InstClass::Barrier) {
    w.stream->retire(index);
    w.state = WarpState::AtBarrier;
    reclassify(slot);
    scheduler.demote(slot);
    ++cta.at_barrier;
    ++counters_.retired;
    last_retire_cycle_ = now;
    release_barrier_if_complete(w.cta_slot);
    return;
  }

  const UnitType type = unit_of(inst.cls);
  const int cu = free_collector(type);
  Collector& col = collectors_[uint32_t(cu)];
  col.warp = slot;
  col.inst = index;
  busy_collectors_[static_cast<unsigned>(type)] |=
      uint64_t{1} << (uint32_t(cu) - collector_begin_[static_cast<unsigned>(type)]);
  --free_collectors_[static_cast<unsigned>(type)];
  ++counters_.collector_allocations;

  uint64_t ready = now + 1;
  RfAccess& a = txn_.access();
  if (config_.announce_collectors) announce_collector(slot, uint32_t(cu), inst, now);
  for (unsigned k = 0; k < inst.num_src; ++k) {
    const uint16_t reg = inst.src[k];
    if (reg == kZeroRegister) continue;
    if (reg >= occupancy_.regs_per_warp()) {
      fail("bad_workload",
           "warp " + std::to_string(slot) + " (CTA " + std::to_string(w.cta_id) + ") at PC " +
               hex(inst.pc) + " reads R" + std::to_string(reg) + " but the kernel allocates " +
               std::to_string(occupancy_.regs_per_warp()) + " registers per thread");
      return;
    }
    txn_.prepare(RfAccessKind::Read, &col.operands[k]);
    a.warp_slot = static_cast<uint16_t>(slot);
    a.cta_slot = static_cast<uint16_t>(w.cta_slot);
    a.arch_reg = reg;
    a.collector = static_cast<uint16_t>(cu);
    a.operand_slot = static_cast<uint8_t>(k);
    a.active_mask = inst.active;
    a.phys_reg = slot * occupancy_.regs_per_warp() + reg;
    a.pc = inst.pc;
    ready = std::max(ready, port_.access(txn_, now));
    ++counters_.operand_reads;
    if (!shadow_.check(slot, reg, inst.pc, inst.active, col.operands[k])) {
      const ShadowRegisterFile::Mismatch& m = shadow_.first_mismatch();
      fail("integrity_mismatch", "integrity mismatch: warp slot " + std::to_string(m.warp_slot) +
                                     " (CTA " + std::to_string(w.cta_id) + ", warp " +
                                     std::to_string(w.warp_in_cta) + ") R" + std::to_string(m.reg) +
                                     " at PC " + hex(m.pc) + " lane " + std::to_string(m.lane) +
                                     ": expected " + hex(m.expected) + ", got " + hex(m.got));
    }
  }
  col.ready_cycle = ready;
  uint64_t& dispatch_from = dispatch_from_[static_cast<unsigned>(type)];
  dispatch_from = std::min(dispatch_from, ready);
  for (unsigned k = 0; k < inst.num_dst; ++k)
    if (inst.dst[k] != kZeroRegister) w.pending_writes.set(inst.dst[k]);
  ++w.outstanding;
  if (inst.cls == InstClass::Branch) {
    w.branch_pending = true;
    reclassify(slot);
  }
  scheduler.issued(slot, inst.cls == InstClass::Load);
}

void SmCore::announce_collector(uint32_t slot, uint32_t cu, const WarpInst& inst, uint64_t now) {
  // One Wake per destination register (operand_slot = its index), or one without a
  // register when there is none: power-control stages wake the destination, and the
  // first Wake carries the collector's active mask. The banks ignore Wake.
  RfAccess& a = txn_.access();
  uint8_t sent = 0;
  const auto wake = [&](uint16_t reg, uint32_t phys_reg) {
    txn_.prepare(RfAccessKind::Wake, nullptr);
    a.warp_slot = static_cast<uint16_t>(slot);
    a.cta_slot = static_cast<uint16_t>(warps_[slot].cta_slot);
    a.arch_reg = reg;
    a.collector = static_cast<uint16_t>(cu);
    a.operand_slot = sent++;
    a.active_mask = inst.active;
    a.phys_reg = phys_reg;
    a.pc = inst.pc;
    port_.access(txn_, now);
  };
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t reg = inst.dst[k];
    // An out-of-range destination is reported at writeback (bad_workload).
    if (reg != kZeroRegister && reg < occupancy_.regs_per_warp())
      wake(reg, slot * occupancy_.regs_per_warp() + reg);
  }
  if (sent == 0) wake(kZeroRegister, kNoPhysical);
}

void SmCore::release_barrier_if_complete(uint32_t cta_slot) {
  Cta& cta = ctas_[cta_slot];
  if (cta.at_barrier == 0 || cta.at_barrier < cta.live) return;
  cta.at_barrier = 0;
  for (uint32_t k = 0; k < occupancy_.warps_per_cta; ++k) {
    const uint32_t slot = cta_slot * occupancy_.warps_per_cta + k;
    if (warps_[slot].state != WarpState::AtBarrier) continue;
    warps_[slot].state = WarpState::Running;
    reclassify(slot);
  }
}

bool SmCore::touch_local_line(uint32_t slot, uint16_t word) {
  const uint32_t line = slot << 16 | word;
  ++local_uses_;
  for (auto& [held, used] : local_lines_)
    if (held == line) {
      used = local_uses_;
      return true;
    }
  if (config_.local_lines == 0) return false;
  if (local_lines_.size() < config_.local_lines) {
    local_lines_.emplace_back(line, local_uses_);
  } else {
    auto lru = std::min_element(local_lines_.begin(), local_lines_.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    *lru = {line, local_uses_};
  }
  return false;
}

uint32_t SmCore::latency_of(const WarpInst& inst, uint32_t slot) {
  switch (inst.cls) {
    case InstClass::Sfu:
      return config_.sfu_latency;
    case InstClass::Load: {
      ++counters_.loads;
      if (inst.local_word != kNoLocalWord) {
        // A fill: its spill slot's line hits when the L1 still holds it.
        ++counters_.local_loads;
        if (!touch_local_line(slot, inst.local_word)) return config_.mem_miss_latency;
        ++counters_.local_hits;
        ++counters_.load_hits;
        return config_.mem_hit_latency;
      }
      const double u = double(splitmix64(rng_state_) >> 11) * 0x1.0p-53;
      if (u < config_.mem_hit_rate) {
        ++counters_.load_hits;
        return config_.mem_hit_latency;
      }
      return config_.mem_miss_latency;
    }
    case InstClass::Store:
      ++counters_.stores;
      if (inst.local_word != kNoLocalWord) {
        ++counters_.local_stores;
        touch_local_line(slot, inst.local_word);  // written back and allocated in L1
      }
      return config_.store_latency;
    case InstClass::Branch:
    case InstClass::Barrier:
    case InstClass::Exit:
      return config_.branch_latency;
    case InstClass::Alu:
      break;
  }
  return config_.alu_latency;
}

void SmCore::dispatch(uint64_t now) {
  for (unsigned t = 0; t < kUnitTypes; ++t) {
    // No instruction waits for this type, or none has its operands yet.
    if (busy_collectors_[t] == 0 || now < dispatch_from_[t]) continue;
    dispatch_from_[t] = dispatch_type(t, now);
  }
}

inline uint64_t SmCore::dispatch_type(unsigned t, uint64_t now) {
  std::vector<uint64_t>& units = unit_free_[t];
  const uint32_t count = config_.collectors[t];
  const uint64_t all = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  uint64_t next_ready = kNever;
  // Visit i (0..count-1) looks at position (collector_rr_ + i) mod count, and a dispatch
  // moves collector_rr_ on to the position after it while i goes on counting. A second
  // visit of a collector changes nothing (it was not ready), so only the busy collectors
  // not yet visited are looked at, in the same order.
  uint64_t unvisited = busy_collectors_[t];
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t from = collector_rr_[t] + i;
    if (from >= count) from -= count;
    const uint64_t ahead =
        from == 0 ? unvisited : ((unvisited >> from) | (unvisited << (count - from))) & all;
    if (ahead == 0) break;
    const uint32_t skip = uint32_t(__builtin_ctzll(ahead));
    if (skip >= count - i) break;  // the visits end before it
    i += skip;
    uint32_t position = from + skip;
    if (position >= count) position -= count;
    unvisited &= ~(uint64_t{1} << position);
    Collector& col = collectors_[collector_begin_[t] + position];
    if (col.ready_cycle > now) {
      next_ready = std::min(next_ready, col.ready_cycle);
      continue;
    }
    auto unit = std::find_if(units.begin(), units.end(), [now](uint64_t f) { return f <= now; });
    if (unit == units.end()) return now;  // a collector is ready: try again next cycle
    const WarpInst& inst = warps_[col.warp].stream->at(col.inst);
    *unit = now + (t == static_cast<unsigned>(UnitType::Sfu) ? config_.sfu_interval : 1);
    if (memory_ && t == static_cast<unsigned>(UnitType::Mem)) {
      const Warp& w = warps_[col.warp];
      const MemoryTiming timing =
          memory_->access({&inst, w.stream, col.warp, w.cta_id, w.warp_in_cta, col.inst}, now);
      *unit = std::max(*unit, timing.unit_free);
      if (inst.cls == InstClass::Load) {
        ++counters_.loads;
        if (timing.l1_hit) ++counters_.load_hits;
      } else {
        ++counters_.stores;
      }
      schedule(std::max(timing.done, now + 1), EventKind::Complete, col.warp, col.inst);
    } else {
      schedule(now + latency_of(inst, col.warp), EventKind::Complete, col.warp, col.inst);
    }
    busy_collectors_[t] &= ~(uint64_t{1} << position);
    ++free_collectors_[t];
    ++counters_.dispatches;
    collector_rr_[t] = position + 1 == count ? 0 : position + 1;
  }
  // Collectors the visits did not reach (a dispatch moved them on) wait for the next cycle.
  for (; unvisited != 0; unvisited &= unvisited - 1)
    next_ready = std::min(
        next_ready,
        collectors_[collector_begin_[t] + uint32_t(__builtin_ctzll(unvisited))].ready_cycle);
  return next_ready;
}

inline void SmCore::schedule(uint64_t cycle, EventKind kind, uint32_t warp, uint32_t inst) {
  events_.push(Event{cycle, kind, warp, inst});
}

void SmCore::complete(const Event& e, uint64_t now) {
  Warp& w = warps_[e.warp];
  const WarpInst& inst = w.stream->at(e.inst);
  if (inst.cls == InstClass::Branch) {
    w.branch_pending = false;
    reclassify(e.warp);
  }
  uint64_t ready = 0;
  RfAccess& a = txn_.access();
  for (unsigned k = 0; k < inst.num_dst; ++k) {
    const uint16_t reg = inst.dst[k];
    if (reg == kZeroRegister) continue;
    if (reg >= occupancy_.regs_per_warp()) {
      fail("bad_workload", "warp " + std::to_string(e.warp) + " at PC " + hex(inst.pc) +
                               " writes R" + std::to_string(reg) + " but the kernel allocates " +
                               std::to_string(occupancy_.regs_per_warp()) +
                               " registers per thread");
      return;
    }
    // The stream's values are the driver's; stages on the path may transform the buffer.
    writeback_buffer_ = w.stream->value(inst, k);
    txn_.prepare(RfAccessKind::Write, &writeback_buffer_);
    a.warp_slot = static_cast<uint16_t>(e.warp);
    a.cta_slot = static_cast<uint16_t>(w.cta_slot);
    a.arch_reg = reg;
    a.active_mask = inst.active;
    a.phys_reg = e.warp * occupancy_.regs_per_warp() + reg;
    a.pc = inst.pc;
    ready = std::max(ready, port_.access(txn_, now));
    shadow_.write(e.warp, reg, inst.active, w.stream->value(inst, k));
    ++counters_.result_writes;
  }
  if (ready == 0) {
    retire(e.warp, e.inst, now);
    return;
  }
  schedule(std::max(ready, now + 1), EventKind::WriteDone, e.warp, e.inst);
}

void SmCore::write_done(const Event& e, uint64_t now) {
  Warp& w = warps_[e.warp];
  const WarpInst& inst = w.stream->at(e.inst);
  for (unsigned k = 0; k < inst.num_dst; ++k)
    if (inst.dst[k] != kZeroRegister) w.pending_writes.reset(inst.dst[k]);
  if (w.scoreboard_blocked) {
    w.scoreboard_blocked = false;
    reclassify(e.warp);
  }
  retire(e.warp, e.inst, now);
}

void SmCore::retire(uint32_t slot, uint32_t inst, uint64_t now) {
  Warp& w = warps_[slot];
  w.stream->retire(inst);
  --w.outstanding;
  ++counters_.retired;
  last_retire_cycle_ = now;
  if (w.state == WarpState::Exiting && w.outstanding == 0) finish_warp(slot, now);
}

/// The LRR scan by warp class (WarpScheduler::pick_classified): asks can_issue about the
/// warps it may issue or probe, and counts the parked ones it would only count.
struct SmCore::LrrScanRule {
  SmCore& core;
  WarpScheduler::Selection select(const WarpScheduler::ClassMasks& m) const {
    // Parked warps whose collector type has a free unit: probed until the cycle's probes
    // are quiet, then only counted; the others do nothing.
    uint64_t parked = m[kParked + kUnitTypes];
    for (unsigned t = 0; t < kUnitTypes; ++t)
      if (core.free_collectors_[t] != 0) parked |= m[kParked + t];
    const uint64_t quiet = core.parked_probes_quiet_ == core.issue_cycle_ ? ~uint64_t{0} : 0;
    return {m[kAsk] | (parked & ~quiet), parked & quiet};
  }
  void count(unsigned waits) { core.counters_.hook_waits += waits; }
  bool can_issue(uint32_t slot) { return core.can_issue(slot); }
};

uint64_t SmCore::step(uint64_t now) {
  step_cycle_ = now;
  if (now >= next_unpark_) unpark_due(now);
  // The first CTAs launch in the first step, once the operand path is bound.
  if (!started_) {
    started_ = true;
    counters_.first_cycle = now;
    counters_.last_cycle = now;
    last_retire_cycle_ = now;
    launch_ctas(now);
  }
  while (!events_.empty() && events_.top().cycle <= now) {
    const Event e = events_.top();
    events_.pop();
    if (e.kind == EventKind::Complete)
      complete(e, now);
    else
      write_done(e, now);
    if (failed()) return kNever;
  }
  dispatch(now);

  issue_cycle_ = now;
  bool issued = false;
  bool rotated = false;  ///< the two-level ready queue changed: try again next cycle
  // The scheduler that issues first rotates every cycle: collectors allocated in the
  // same cycle take turns at the bank arbiter (round-robin).
  LrrScanRule lrr_rule{*this};
  const size_t count = schedulers_.size();
  size_t at = scheduler_index(now);
  for (size_t i = 0; i < count; ++i, at = at + 1 == count ? 0 : at + 1) {
    WarpScheduler& scheduler = schedulers_[at];  // (now + i) mod count
    for (uint32_t n = 0; n < config_.issue_width; ++n) {
      const int slot = config_.policy == SchedulerPolicy::Lrr
                           ? scheduler.pick_classified(lrr_rule)
                           : scheduler.pick([this](uint32_t s) { return can_issue(s); });
      if (slot < 0) break;
      issue(uint32_t(slot), now);
      issued = true;
      if (failed()) return kNever;
    }
    // A warp held back by a hook or waiting at a barrier leaves the two-level ready
    // queue, as a warp waiting for memory does, so that the warps that can go (RFV's
    // throttled CTA, the last warp to reach the barrier) get in.
    if (!demote_after_pick_.empty()) {
      for (uint32_t slot : demote_after_pick_) scheduler.demote(slot);
      demote_after_pick_.clear();
      rotated = true;
    }
  }
  if (issued) ++counters_.issue_cycles;
  if (done()) return kNever;

  if (now - last_retire_cycle_ >= config_.watchdog_cycles) {
    fail("watchdog",
         "watchdog: no warp instruction retired for " + std::to_string(now - last_retire_cycle_) +
             " cycles (sim.watchdog_cycles = " + std::to_string(config_.watchdog_cycles) +
             ") at cycle " + std::to_string(now) + "\n" + warp_report(now));
    return kNever;
  }
  if (issued) {
    idle_rotations_ = 0;
    return now + 1;
  }
  const uint64_t next = next_event_cycle(now);
  if (next == kNever && rotated && ++idle_rotations_ <= config_.limits.max_warps) {
    // Nothing is in flight but the two-level ready queue changed: give every warp a
    // turn in it before calling this a stall.
    return now + 1;
  }
  if (rotated && next != kNever) return now + 1;
  if (next == kNever) {
    idle_rotations_ = 0;
    for (IssueHook* hook : hooks_)
      if (hook->resolve_stall(now)) return now + 1;
    fail("watchdog", "deadlock: nothing can happen any more at cycle " + std::to_string(now) +
                         "\n" + warp_report(now));
    return kNever;
  }
  // Wake up in time for the watchdog even when the next event is far away.
  return std::min(next, last_retire_cycle_ + config_.watchdog_cycles);
}

uint64_t SmCore::next_event_cycle(uint64_t now) const {
  uint64_t next = events_.empty() ? kNever : events_.top().cycle;
  for (const IssueHook* hook : hooks_)
    next = std::min(next, std::max(hook->next_change(now), now + 1));
  for (unsigned t = 0; t < kUnitTypes; ++t) {
    uint64_t busy = busy_collectors_[t];
    if (busy == 0) continue;
    const auto& units = unit_free_[t];
    const uint64_t unit = std::max(*std::min_element(units.begin(), units.end()), now + 1);
    for (; busy != 0; busy &= busy - 1) {
      const Collector& col = collectors_[collector_begin_[t] + uint32_t(__builtin_ctzll(busy))];
      next = std::min(next, std::max(col.ready_cycle, unit));
    }
  }
  return next;
}

SmCore::Activity SmCore::activity() const {
  Activity a;
  for (const Warp& w : warps_) {
    if (w.state == WarpState::Empty) continue;
    ++a.resident_warps;
    if (w.state == WarpState::AtBarrier) ++a.warps_at_barrier;
    a.instructions_in_flight += w.outstanding;
  }
  for (const uint64_t busy : busy_collectors_) a.busy_collectors += popcount64(busy);
  return a;
}

std::string SmCore::warp_report(uint64_t now) const {
  std::ostringstream out;
  out << "cycle " << now << ", CTAs done " << ctas_done_ << " of "
      << (cta_source_ ? std::to_string(counters_.ctas_launched) + " launched here, grid " : "")
      << kernel_.ctas << ", events pending " << events_.size() << "\n";
  for (uint32_t slot = 0; slot < warps_.size(); ++slot) {
    const Warp& w = warps_[slot];
    if (w.state == WarpState::Empty) continue;
    out << "  warp slot " << slot << " (CTA " << w.cta_id << ", warp " << w.warp_in_cta << "): ";
    if (w.state == WarpState::Exiting) {
      out << "exited, waiting for " << w.outstanding << " instruction(s) to retire\n";
      continue;
    }
    const WarpInst& inst = w.stream->at(w.next);
    out << "next PC " << hex(inst.pc) << " (" << to_string(inst.cls) << "), " << w.outstanding
        << " in flight; ";
    if (w.state == WarpState::AtBarrier) {
      out << "waits at a barrier (" << ctas_[w.cta_slot].at_barrier << " of "
          << ctas_[w.cta_slot].live << " warps arrived)\n";
      continue;
    }
    if (w.branch_pending) {
      out << "waits for a branch to resolve\n";
      continue;
    }
    std::string regs;
    for (unsigned i = 0; i < inst.num_src; ++i)
      if (w.pending_writes.test(inst.src[i])) regs += " R" + std::to_string(inst.src[i]);
    for (unsigned i = 0; i < inst.num_dst; ++i)
      if (w.pending_writes.test(inst.dst[i])) regs += " R" + std::to_string(inst.dst[i]);
    if (!regs.empty())
      out << "waits on the scoreboard for" << regs << "\n";
    else if (inst.cls != InstClass::Exit && inst.cls != InstClass::Barrier &&
             free_collectors_[static_cast<unsigned>(unit_of(inst.cls))] == 0)
      out << "waits for a free " << kUnitNames[static_cast<unsigned>(unit_of(inst.cls))]
          << " collector unit\n";
    else
      out << "ready to issue" << (asked_hooks_.empty() ? "" : " (an issue hook may hold it)")
          << "\n";
  }
  for (const IssueHook* hook : hooks_) out << hook->wait_report();
  return out.str();
}

}  // namespace warpreg

#include "modules/ltrf/ltrf_core.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

const char* to_string(LtrfMode mode) {
  switch (mode) {
    case LtrfMode::Off:
      return "off";
    case LtrfMode::Direct:
      return "direct";
    case LtrfMode::Rfc:
      return "rfc";
    case LtrfMode::Ltrf:
      return "ltrf";
    case LtrfMode::LtrfPlus:
      return "ltrf-plus";
  }
  return "?";
}

void LtrfCoreConfig::validate() const {
  if (regs_per_interval == 0 || regs_per_interval > 256)
    throw std::invalid_argument("regs_per_interval must be 1..256");
  if (active_warps == 0 || active_warps > 255)
    throw std::invalid_argument("active_warps must be 1..255");
  if (resident_warps > max_warps) throw std::invalid_argument("resident_warps exceeds max_warps");
  if (regs_per_warp > max_regs_per_thread)
    throw std::invalid_argument("regs_per_warp exceeds max_regs_per_thread");
  if (max_regs_per_thread > 256) throw std::invalid_argument("max_regs_per_thread must be <= 256");
  if (wcb_read_ports == 0) throw std::invalid_argument("wcb_read_ports must be at least 1");
  if (fill_cycles == 0) throw std::invalid_argument("fill_cycles must be at least 1");
  if (uint64_t{resident_warps} * regs_per_warp > main.physical_registers())
    throw std::invalid_argument("the main register file holds fewer registers than the warps name");
}

LtrfCore::LtrfCore(const LtrfCoreConfig& config, std::vector<RegisterSet> interval_sets)
    : config_(config),
      sets_(std::move(interval_sets)),
      main_(config.main),
      warps_(config.max_warps),
      offsets_(config.active_warps),
      entries_(size_t(config.active_warps) * config.regs_per_interval),
      cache_read_free_(config.regs_per_interval, 0),
      cache_write_free_(config.regs_per_interval, 0),
      fill_free_(config.regs_per_interval, 0) {
  config_.validate();
  for (const RegisterSet& s : sets_)
    if (s.count() > config_.regs_per_interval)
      throw std::invalid_argument("a register-interval's working set exceeds regs_per_interval");
  for (Warp& w : warps_) w.banks = AddressAllocationUnit(config_.regs_per_interval);
  if (shared()) {
    shared_slots_ = AddressAllocationUnit(static_cast<uint32_t>(entries_.size()));
    shared_index_.assign(size_t(config_.max_warps) * 256, kNoEntry);
  }
}

// ---------------------------------------------------------------- shared RFC

uint64_t LtrfCore::shared_read(uint32_t slot, uint16_t reg, LaneMask lanes, uint64_t t,
                               WarpRegister& out) {
  const uint16_t idx = shared_index_[size_t(slot) * 256 + reg];
  if (idx == kNoEntry) {
    ++counters_.read_misses;
    return main_read(slot, reg, t, out);
  }
  const Entry& e = entries_[idx];
  if ((lanes & ~e.valid_lanes) != 0) {
    ++counters_.read_misses;
    const uint64_t ready = main_read(slot, reg, t, out);
    out.merge(e.value, e.valid_lanes);
    return ready;
  }
  const uint32_t bank = idx % config_.regs_per_interval;
  const uint64_t grant = std::max(t, cache_read_free_[bank]);
  cache_read_free_[bank] = grant + 1;
  out = e.value;
  ++counters_.cache_reads;
  ++counters_.read_hits;
  return grant + config_.cache_latency;
}

uint64_t LtrfCore::shared_write(uint32_t slot, uint16_t reg, LaneMask mask,
                                const WarpRegister& value, uint64_t cycle) {
  uint16_t& idx = shared_index_[size_t(slot) * 256 + reg];
  if (idx == kNoEntry) {
    uint32_t free = shared_slots_.allocate();
    if (free == AddressAllocationUnit::kNone) {
      // FIFO victim, whichever warp it belongs to: warps displace each other (§2.3).
      const uint32_t victim = shared_slots_.oldest_occupied();
      Entry& v = entries_[victim];
      if (v.dirty) {
        main_write(v.warp, v.reg, cycle + config_.cache_latency, v.value, v.valid_lanes);
        ++counters_.written_back;
      }
      shared_index_[size_t(v.warp) * 256 + v.reg] = kNoEntry;
      v = Entry{};
      shared_slots_.deallocate(victim);
      ++counters_.evicted;
      free = shared_slots_.allocate();
    }
    idx = static_cast<uint16_t>(free);
    entries_[idx] = Entry{};
    entries_[idx].reg = reg;
    entries_[idx].warp = static_cast<uint16_t>(slot);
  }
  Entry& e = entries_[idx];
  e.value.merge(value, mask);
  e.valid_lanes |= mask;
  e.dirty = true;
  const uint32_t bank = idx % config_.regs_per_interval;
  const uint64_t grant = std::max(cycle, cache_write_free_[bank]);
  cache_write_free_[bank] = grant + 1;
  ++counters_.cache_writes;
  return grant + config_.cache_latency;
}

void LtrfCore::shared_drop(uint32_t slot) {
  for (uint32_t r = 0; r < 256; ++r) {
    uint16_t& idx = shared_index_[size_t(slot) * 256 + r];
    if (idx == kNoEntry) continue;
    entries_[idx] = Entry{};
    shared_slots_.deallocate(idx);
    idx = kNoEntry;
  }
}

// ---------------------------------------------------------------- main RF and crossbar

uint64_t LtrfCore::main_read(uint32_t slot, uint16_t reg, uint64_t cycle, WarpRegister& out) {
  ++counters_.main_reads;
  return main_.read(phys(slot, reg), main_bank(slot, reg), cycle, out).ready_cycle;
}

uint64_t LtrfCore::main_write(uint32_t slot, uint16_t reg, uint64_t cycle,
                              const WarpRegister& value, LaneMask mask) {
  ++counters_.main_writes;
  return main_.write(phys(slot, reg), main_bank(slot, reg), cycle, value, mask).ready_cycle;
}

uint64_t LtrfCore::transfer(uint32_t cache_bank, uint64_t cycle) {
  // The crossbar between the main RF and the cache is 4x narrower than the baseline's:
  // a register takes fill_cycles on the link of its cache bank (seed 004 §4.2).
  const uint64_t start = std::max(cycle, fill_free_[cache_bank]);
  fill_free_[cache_bank] = start + config_.fill_cycles;
  ++counters_.crossbar_transfers;
  return start + config_.fill_cycles;
}

// ---------------------------------------------------------------- cache management

void LtrfCore::evict(uint32_t slot, uint16_t reg, uint64_t cycle, bool write_back) {
  Warp& w = warps_[slot];
  Entry& e = entry(w, reg);
  if (write_back && e.valid_lanes != 0) {
    // Read out of the cache bank, then (LTRF) over the narrow link into the main RF;
    // the RFC writes back over the SM's full-width path.
    const uint64_t read_out = cycle + config_.cache_latency;
    const uint64_t arrives = prefetching() ? transfer(w.wcb.bank[reg], read_out) : read_out;
    main_write(slot, reg, arrives, e.value, e.valid_lanes);
    ++counters_.written_back;
  } else if (e.dirty) {
    ++counters_.dropped_dead;
  }
  e = Entry{};
  w.banks.deallocate(w.wcb.bank[reg]);
  w.wcb.cached.reset(reg);
  ++counters_.evicted;
}

void LtrfCore::fetch_working_set(uint32_t slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  const uint64_t start = cycle + config_.lookup_cycles;
  uint64_t resident = cycle + 1;
  const RegisterSet missing = w.wcb.working_set & ~w.wcb.cached;
  for (uint32_t r = 0; r < config_.regs_per_warp; ++r) {
    if (!missing.test(r)) continue;
    const uint16_t reg = static_cast<uint16_t>(r);
    const uint32_t bank = w.banks.allocate();
    if (bank == AddressAllocationUnit::kNone)
      throw std::logic_error("ltrf: a working set does not fit the warp's cache banks");
    w.wcb.bank[reg] = static_cast<uint8_t>(bank);
    w.wcb.cached.set(reg);
    Entry& e = entry(w, reg);
    e = Entry{};
    e.reg = reg;
    // LTRF+ only allocates a dead register: its first access is a write (§3.2).
    if (config_.mode == LtrfMode::LtrfPlus && !w.wcb.live.test(reg)) {
      ++counters_.allocated_dead;
      continue;
    }
    const uint64_t at_crossbar = main_read(slot, reg, start, e.value);
    const uint64_t done = transfer(bank, at_crossbar);
    e.valid_lanes = kFullMask;
    ++counters_.fetched;
    resident = std::max(resident, done);
  }
  w.resident_at = resident;
  counters_.prefetch_wait_cycles += resident - cycle;
  counters_.max_prefetch_cycles = std::max(counters_.max_prefetch_cycles, resident - cycle);
}

void LtrfCore::activate(uint32_t slot, uint32_t interval, uint64_t cycle) {
  Warp& w = warps_[slot];
  w.wcb.offset = offsets_.allocate();
  if (w.wcb.offset == AddressAllocationUnit::kNone)
    throw std::logic_error("ltrf: activated a warp with no free warp-offset slot");
  w.status = Status::Active;
  ++counters_.activations;
  w.resident_at = cycle;
  if (!prefetching()) return;
  // A warp activated in the middle of an interval refetches that interval's working
  // set (LTRF+: its live registers) before it runs (§4.2 "Warp Stall").
  if (interval != kNoInterval && interval < sets_.size()) {
    w.interval = interval;
    w.header_index = w.pending_index;
    w.wcb.working_set = sets_[interval];
  }
  fetch_working_set(slot, cycle);
}

void LtrfCore::deactivate(uint32_t slot, uint64_t cycle, bool write_back) {
  Warp& w = warps_[slot];
  if (w.status != Status::Active) return;
  for (uint32_t r = 0; r < config_.regs_per_warp; ++r) {
    if (!w.wcb.cached.test(r)) continue;
    const uint16_t reg = static_cast<uint16_t>(r);
    const Entry& e = entry(w, reg);
    // LTRF writes back the whole working set, LTRF+ its live registers (§3.2); the
    // RFC its dirty entries.
    bool wb = write_back;
    if (config_.mode == LtrfMode::LtrfPlus) wb = wb && w.wcb.live.test(reg);
    if (config_.mode == LtrfMode::Rfc) wb = wb && e.dirty;
    evict(slot, reg, cycle, wb);
  }
  offsets_.deallocate(w.wcb.offset);
  w.wcb.offset = AddressAllocationUnit::kNone;
  w.status = Status::Inactive;
  ++counters_.deactivations;
  activate_next(cycle);
}

void LtrfCore::activate_next(uint64_t cycle) {
  while (!queue_.empty() && offsets_.free_slots() > 0) {
    const uint32_t slot = queue_.front();
    queue_.pop_front();
    activate(slot, warps_[slot].pending_interval, cycle);
  }
}

void LtrfCore::replace_missed(uint64_t cycle) {
  if (queue_.empty() || offsets_.free_slots() != 0) return;
  // Loads turn into misses only as cycles pass: with every slot taken, one look per
  // cycle is enough.
  if (cycle == replace_checked_) return;
  replace_checked_ = cycle;
  for (uint32_t s = 0; s < warps_.size() && !queue_.empty() && offsets_.free_slots() == 0; ++s) {
    const Warp& w = warps_[s];
    if (w.status != Status::Active || w.load_since == ~uint64_t(0) ||
        w.load_since + config_.miss_cycles > cycle)
      continue;
    ++counters_.miss_deactivations;
    deactivate(s, cycle, true);
  }
}

// ---------------------------------------------------------------- issue stage

LtrfCore::Ask LtrfCore::before_issue(uint32_t slot, uint32_t interval, uint64_t cycle, bool header,
                                     uint32_t index) {
  if (!caches() || shared()) return Ask::Issue;
  Warp& w = warps_[slot];
  if (w.status != Status::Active && !queue_.empty()) replace_missed(cycle);
  if (w.status == Status::Inactive) {
    w.status = Status::Queued;
    w.pending_interval = interval;
    w.pending_index = index;
    queue_.push_back(slot);
    activate_next(cycle);
  } else if (w.status == Status::Queued) {
    w.pending_interval = interval;
    w.pending_index = index;
  }
  if (w.status != Status::Active) return Ask::Wait;
  const bool new_unit = interval != w.interval || (header && index != w.header_index);
  if (prefetching() && interval != kNoInterval && new_unit) {
    w.header_index = index;
    // PREFETCH at the interval's start: registers leaving the working set go back to
    // the main RF when modified (LTRF+: and live), the new ones are fetched.
    const RegisterSet& next = sets_[interval];
    const RegisterSet leaving = w.wcb.cached & ~next;
    for (uint32_t r = 0; r < config_.regs_per_warp; ++r) {
      if (!leaving.test(r)) continue;
      const uint16_t reg = static_cast<uint16_t>(r);
      bool wb = entry(w, reg).dirty;
      if (config_.mode == LtrfMode::LtrfPlus) wb = wb && w.wcb.live.test(reg);
      evict(slot, reg, cycle, wb);
    }
    w.interval = interval;
    w.wcb.working_set = next;
    ++counters_.prefetches;
    fetch_working_set(slot, cycle);
    return Ask::Prefetch;
  }
  return cycle >= w.resident_at ? Ask::Issue : Ask::Wait;
}

void LtrfCore::issued(uint32_t slot, const WarpInst& inst, const RegisterSet& dead,
                      uint64_t cycle) {
  if (!caches() || shared()) return;
  Warp& w = warps_[slot];
  if (config_.mode == LtrfMode::LtrfPlus) w.wcb.live &= ~dead;
  switch (inst.cls) {
    case InstClass::Load:
      // A long-latency operation: once it is known to miss, the warp gives its slot
      // to a waiting warp (§3.2 two-level scheduler; replace_missed).
      if (w.load_regs.none()) w.load_since = cycle;
      for (unsigned k = 0; k < inst.num_dst; ++k)
        if (inst.dst[k] != kZeroRegister) w.load_regs.set(inst.dst[k]);
      if (w.load_regs.none()) w.load_since = ~uint64_t(0);
      break;
    case InstClass::Barrier:
      deactivate(slot, cycle, true);
      break;
    case InstClass::Exit:
      deactivate(slot, cycle, false);
      break;
    default:
      break;
  }
}

uint64_t LtrfCore::next_change(uint64_t cycle) const {
  uint64_t next = ~uint64_t(0);
  for (const Warp& w : warps_) {
    if (w.status != Status::Active) continue;
    if (w.resident_at > cycle) next = std::min(next, w.resident_at);
    if (!queue_.empty() && w.load_since != ~uint64_t(0) &&
        w.load_since + config_.miss_cycles > cycle)
      next = std::min(next, w.load_since + config_.miss_cycles);
  }
  return next;
}

// ---------------------------------------------------------------- operand path

uint64_t LtrfCore::read(uint32_t slot, uint16_t reg, uint8_t operand, LaneMask lanes,
                        uint64_t cycle, WarpRegister& out) {
  if (!caches()) {
    ++counters_.read_misses;
    return main_read(slot, reg, cycle, out);
  }
  Warp& w = warps_[slot];
  // The collector reads the bank number and warp offset from the WCB: two read ports,
  // so a third operand waits a cycle (§4.1).
  ++counters_.wcb_lookups;
  const uint32_t port_wait = operand / config_.wcb_read_ports;
  if (port_wait) ++counters_.wcb_port_stalls;
  uint64_t t = cycle + config_.lookup_cycles + port_wait;
  if (shared()) return shared_read(slot, reg, lanes, t, out);
  uint64_t ready;
  if (w.status == Status::Active && w.wcb.cached.test(reg)) {
    Entry& e = entry(w, reg);
    const uint32_t bank = w.wcb.bank[reg];
    bool from_cache = true;
    if ((lanes & ~e.valid_lanes) != 0) {
      // Lanes the cache does not hold: an RFC entry written by a divergent result, or
      // an LTRF+ register the liveness bits called dead.
      WarpRegister from_main;
      t = main_read(slot, reg, t, from_main);
      from_main.merge(e.value, e.valid_lanes);
      if (config_.mode == LtrfMode::Rfc) {
        ++counters_.read_misses;
        out = from_main;
        ready = t;
        from_cache = false;
      } else {
        ++counters_.unfetched_reads;
        t = transfer(bank, t);
        e.value = from_main;
        e.valid_lanes = kFullMask;
      }
    }
    if (from_cache) {
      const uint64_t grant = std::max(t, cache_read_free_[bank]);
      cache_read_free_[bank] = grant + 1;
      out = e.value;
      ++counters_.cache_reads;
      ++counters_.read_hits;
      ready = grant + config_.cache_latency;
    }
  } else {
    // RFC miss, or an LTRF register outside any known interval: the main RF serves it.
    ++counters_.read_misses;
    ready = main_read(slot, reg, t, out);
  }
  return ready;
}

uint64_t LtrfCore::write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value,
                         uint64_t cycle) {
  if (!caches()) return main_write(slot, reg, cycle, value, mask);
  if (shared()) return shared_write(slot, reg, mask, value, cycle);
  Warp& w = warps_[slot];
  w.wcb.live.set(reg);
  if (w.load_regs.test(reg)) {
    w.load_regs.reset(reg);
    if (w.load_regs.none()) w.load_since = ~uint64_t(0);
  }
  if (w.status == Status::Active && config_.mode == LtrfMode::Rfc && !w.wcb.cached.test(reg)) {
    // The RFC allocates every result (Gebhart ISCA'11); a full partition evicts FIFO.
    uint32_t bank = w.banks.allocate();
    if (bank == AddressAllocationUnit::kNone) {
      const Entry& victim =
          entries_[size_t(w.wcb.offset) * config_.regs_per_interval + w.banks.oldest_occupied()];
      evict(slot, victim.reg, cycle, victim.dirty);
      bank = w.banks.allocate();
    }
    w.wcb.bank[reg] = static_cast<uint8_t>(bank);
    w.wcb.cached.set(reg);
    Entry& e = entry(w, reg);
    e = Entry{};
    e.reg = reg;
  }
  if (w.status == Status::Active && w.wcb.cached.test(reg)) {
    Entry& e = entry(w, reg);
    e.value.merge(value, mask);
    e.valid_lanes |= mask;
    e.dirty = true;
    const uint32_t bank = w.wcb.bank[reg];
    const uint64_t grant = std::max(cycle, cache_write_free_[bank]);
    cache_write_free_[bank] = grant + 1;
    ++counters_.cache_writes;
    return grant + config_.cache_latency;
  }
  ++counters_.direct_writes;
  return main_write(slot, reg, cycle, value, mask);
}

void LtrfCore::launch(uint32_t slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  if (w.status == Status::Active) deactivate(slot, cycle, false);
  queue_.erase(std::remove(queue_.begin(), queue_.end(), slot), queue_.end());
  w = Warp{};
  w.banks = AddressAllocationUnit(config_.regs_per_interval);
}

void LtrfCore::retire(uint32_t slot, uint64_t cycle) {
  if (shared()) shared_drop(slot);
  Warp& w = warps_[slot];
  if (w.status == Status::Active) deactivate(slot, cycle, false);
  queue_.erase(std::remove(queue_.begin(), queue_.end(), slot), queue_.end());
  w.status = Status::Inactive;
  w.wcb.live.reset();
  w.interval = kNoInterval;
}

// ---------------------------------------------------------------- reports

const WarpRegister* LtrfCore::cached_value(uint32_t slot, uint16_t reg) const {
  const Warp& w = warps_[slot];
  if (w.status != Status::Active || !w.wcb.cached.test(reg)) return nullptr;
  return &entries_[size_t(w.wcb.offset) * config_.regs_per_interval + w.wcb.bank[reg]].value;
}

uint64_t LtrfCore::wcb_storage_bits() const {
  const uint64_t regs = config_.max_regs_per_thread;
  return uint64_t{config_.max_warps} *
         (regs * bits_for(config_.regs_per_interval) + bits_for(config_.active_warps) + 2 * regs);
}

uint64_t LtrfCore::cache_storage_bits() const {
  return uint64_t{config_.regs_per_interval} * config_.active_warps * kWarpRegisterBytes * 8;
}

uint64_t LtrfCore::queue_storage_bits() const {
  return uint64_t{config_.max_warps} *
             AddressAllocationUnit(config_.regs_per_interval).storage_bits() +
         offsets_.storage_bits();
}

std::string LtrfCore::wait_report() const {
  std::string out = "  ltrf: " + std::to_string(offsets_.occupied_slots()) + " of " +
                    std::to_string(config_.active_warps) + " warp-offset slots taken, " +
                    std::to_string(queue_.size()) + " warps queued for one";
  for (uint32_t s = 0; s < warps_.size(); ++s)
    if (warps_[s].status == Status::Active)
      out +=
          "; warp " + std::to_string(s) + " resident at " + std::to_string(warps_[s].resident_at);
  return out + "\n";
}

}  // namespace warpreg

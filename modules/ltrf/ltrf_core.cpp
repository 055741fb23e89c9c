#include "modules/ltrf/ltrf_core.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

const char* to_string(LtrfMode mode) {
  switch (mode) {
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
  if (regs_per_warp > 256) throw std::invalid_argument("regs_per_warp must be <= 256");
}

LtrfCore::LtrfCore(const LtrfCoreConfig& config, std::vector<RegisterSet> interval_sets,
                   AddressAllocationCore& allocation, RegisterFileCacheCore& cache,
                   MainRegisterFile& main)
    : config_(config),
      sets_(std::move(interval_sets)),
      allocation_(allocation),
      cache_(cache),
      main_(main),
      warps_(config.max_warps) {
  config_.validate();
  active_.reserve(config_.max_warps);
  if (allocation_.config().max_warps < config_.max_warps)
    throw std::invalid_argument("the address allocation unit has fewer WCBs than warp slots");
  if (allocation_.config().banks != cache_.config().banks ||
      allocation_.config().offsets != cache_.config().entries_per_bank)
    throw std::invalid_argument(
        "the address allocation unit's banks and offsets differ from the cache's organisation");
  if (config_.regs_per_warp > allocation_.config().table_entries)
    throw std::invalid_argument("regs_per_warp exceeds the address table's entries");
  for (const RegisterSet& s : sets_)
    if (s.count() > cache_.config().banks)
      throw std::invalid_argument("a register-interval's working set exceeds regs_per_interval");
  if (shared()) {
    shared_slots_ = AddressAllocationUnit(cache_.config().entries());
    shared_index_.assign(size_t(config_.max_warps) * 256, kNoEntry);
  }
}

// ---------------------------------------------------------------- main RF

MainRegisterFile::Read LtrfCore::main_read(uint32_t slot, uint16_t reg, uint64_t cycle,
                                           WarpRegister& out, MainAccess access) {
  ++counters_.main_reads;
  return main_.read(slot, reg, cycle, out, access);
}

uint64_t LtrfCore::main_write(uint32_t slot, uint16_t reg, uint64_t cycle,
                              const WarpRegister& value, LaneMask mask, MainAccess access) {
  ++counters_.main_writes;
  return main_.write(slot, reg, cycle, value, mask, access);
}

// ---------------------------------------------------------------- shared RFC

uint64_t LtrfCore::shared_read(uint32_t slot, uint16_t reg, LaneMask lanes, uint64_t t,
                               WarpRegister& out) {
  const uint16_t idx = shared_index_[size_t(slot) * 256 + reg];
  if (idx == kNoEntry) {
    ++counters_.read_misses;
    return main_read(slot, reg, t, out, MainAccess::Operand).ready;
  }
  const CacheEntry& e = cache_.entry(idx);
  if ((lanes & ~e.valid_lanes) != 0) {
    ++counters_.read_misses;
    const uint64_t ready = main_read(slot, reg, t, out, MainAccess::Operand).ready;
    out.merge(e.value, e.valid_lanes);
    return ready;
  }
  out = e.value;
  ++counters_.read_hits;
  return cache_.read(cache_.bank_of(idx), t);
}

uint64_t LtrfCore::shared_write(uint32_t slot, uint16_t reg, LaneMask mask,
                                const WarpRegister& value, uint64_t cycle) {
  uint16_t& idx = shared_index_[size_t(slot) * 256 + reg];
  if (idx == kNoEntry) {
    uint32_t free = shared_slots_.allocate();
    if (free == AddressAllocationUnit::kNone) {
      // FIFO victim, whichever warp it belongs to: warps displace each other (§2.3).
      const uint32_t victim = shared_slots_.oldest_occupied();
      CacheEntry& v = cache_.entry(victim);
      if (v.dirty) {
        main_write(v.warp, v.reg, cycle + cache_.config().latency, v.value, v.valid_lanes,
                   MainAccess::WriteBack);
        ++counters_.written_back;
      }
      shared_index_[size_t(v.warp) * 256 + v.reg] = kNoEntry;
      v.reset();
      shared_slots_.deallocate(victim);
      ++counters_.evicted;
      free = shared_slots_.allocate();
    }
    idx = static_cast<uint16_t>(free);
    CacheEntry& fresh = cache_.entry(idx);
    fresh.reset(reg, static_cast<uint16_t>(slot));
  }
  CacheEntry& e = cache_.entry(idx);
  e.value.merge(value, mask);
  e.valid_lanes |= mask;
  e.dirty = true;
  return cache_.write(cache_.bank_of(idx), cycle);
}

void LtrfCore::shared_drop(uint32_t slot) {
  for (uint32_t r = 0; r < 256; ++r) {
    uint16_t& idx = shared_index_[size_t(slot) * 256 + r];
    if (idx == kNoEntry) continue;
    cache_.entry(idx).reset();
    shared_slots_.deallocate(idx);
    idx = kNoEntry;
  }
}

// ---------------------------------------------------------------- cache management

void LtrfCore::evict(uint32_t slot, uint16_t reg, uint64_t cycle, bool write_back) {
  Warp& w = warps_[slot];
  CacheEntry& e = entry(slot, reg);
  if (write_back && e.valid_lanes != 0) {
    // Read out of the cache bank, then (LTRF) over the narrow link into the main RF;
    // the RFC writes back over the SM's full-width path.
    const uint64_t read_out = cycle + cache_.config().latency;
    const uint64_t arrives =
        prefetching() ? cache_.transfer(allocation_.bank(slot, reg), read_out) : read_out;
    main_write(slot, reg, arrives, e.value, e.valid_lanes, MainAccess::WriteBack);
    ++counters_.written_back;
  } else if (e.dirty) {
    ++counters_.dropped_dead;
  }
  // The value stays: nothing reads an entry outside the cached set, and the next fetch
  // or allocation resets the whole entry.
  e.valid_lanes = 0;
  e.dirty = false;
  allocation_.release_bank(slot, reg);
  w.wcb.cached.reset(reg);
  ++counters_.evicted;
}

void LtrfCore::fetch_working_set(uint32_t slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  const uint64_t start = cycle + allocation_.config().lookup_cycles;
  uint64_t resident = cycle + 1;
  const RegisterSet missing = w.wcb.working_set & ~w.wcb.cached;
  for_each_register(missing, config_.regs_per_warp, [&](uint16_t reg) {
    const uint32_t bank = allocation_.allocate_bank(slot, reg);
    if (bank == AddressAllocationCore::kNone)
      throw std::logic_error("ltrf: a working set does not fit the warp's cache banks");
    w.wcb.cached.set(reg);
    CacheEntry& e = entry(slot, reg);
    e.reset(reg, static_cast<uint16_t>(slot));
    // LTRF+ only allocates a dead register: its first access is a write (§3.2).
    if (config_.mode == LtrfMode::LtrfPlus && !w.wcb.live.test(reg)) {
      ++counters_.allocated_dead;
      return;
    }
    const MainRegisterFile::Read fill = main_read(slot, reg, start, e.value, MainAccess::Fill);
    const uint64_t done = cache_.transfer(bank, fill.ready);
    e.valid_lanes = fill.lanes;
    ++counters_.fetched;
    resident = std::max(resident, done);
  });
  w.resident_at = resident;
  counters_.prefetch_wait_cycles += resident - cycle;
  counters_.max_prefetch_cycles = std::max(counters_.max_prefetch_cycles, resident - cycle);
}

void LtrfCore::activate(uint32_t slot, uint32_t interval, uint64_t cycle) {
  Warp& w = warps_[slot];
  if (allocation_.allocate_offset(slot) == AddressAllocationCore::kNone)
    throw std::logic_error("ltrf: activated a warp with no free warp-offset slot");
  w.status = Status::Active;
  active_.push_back(slot);
  release(slot);
  note_load(w.load_since);
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
  // A copy: evict() takes each register out of the cached set.
  const RegisterSet cached = w.wcb.cached;
  for_each_register(cached, config_.regs_per_warp, [&](uint16_t reg) {
    const CacheEntry& e = entry(slot, reg);
    // LTRF writes back the whole working set, LTRF+ its live registers (§3.2); the
    // RFC its dirty entries.
    bool wb = write_back;
    if (config_.mode == LtrfMode::LtrfPlus) wb = wb && w.wcb.live.test(reg);
    if (config_.mode == LtrfMode::Rfc) wb = wb && e.dirty;
    evict(slot, reg, cycle, wb);
  });
  allocation_.release_offset(slot);
  w.status = Status::Inactive;
  *std::find(active_.begin(), active_.end(), slot) = active_.back();
  active_.pop_back();
  release(slot);
  ++counters_.deactivations;
  activate_next(cycle);
}

void LtrfCore::activate_next(uint64_t cycle) {
  while (!queue_.empty() && allocation_.free_offsets() > 0) {
    const uint32_t slot = queue_.front();
    queue_.pop_front();
    activate(slot, warps_[slot].pending_interval, cycle);
  }
}

void LtrfCore::replace_missed(uint64_t cycle) {
  if (queue_.empty() || allocation_.free_offsets() != 0) return;
  // Loads turn into misses only as cycles pass: with every slot taken, one look per
  // cycle is enough.
  if (cycle == replace_checked_) return;
  replace_checked_ = cycle;
  if (cycle < earliest_miss_) return;  // no active warp's load has turned into a miss yet
  earliest_miss_ = ~uint64_t(0);
  uint32_t s = 0;
  for (; s < warps_.size() && !queue_.empty() && allocation_.free_offsets() == 0; ++s) {
    const Warp& w = warps_[s];
    if (w.status != Status::Active || w.load_since == ~uint64_t(0)) continue;
    if (w.load_since + config_.miss_cycles > cycle) {
      note_load(w.load_since);
      continue;
    }
    ++counters_.miss_deactivations;
    deactivate(s, cycle, true);
  }
  if (s < warps_.size()) earliest_miss_ = 0;  // warps left unseen: look again next time
}

void LtrfCore::note_load(uint64_t since) {
  if (since != ~uint64_t(0)) earliest_miss_ = std::min(earliest_miss_, since + config_.miss_cycles);
}

// ---------------------------------------------------------------- issue stage

void LtrfCore::prefetch(uint32_t slot, uint32_t interval, uint32_t index, uint64_t cycle) {
  Warp& w = warps_[slot];
  w.header_index = index;
  // PREFETCH at the interval's start: registers leaving the working set go back to
  // the main RF when modified (LTRF+: and live), the new ones are fetched.
  const RegisterSet& next = sets_[interval];
  const RegisterSet leaving = w.wcb.cached & ~next;
  for_each_register(leaving, config_.regs_per_warp, [&](uint16_t reg) {
    bool wb = entry(slot, reg).dirty;
    if (config_.mode == LtrfMode::LtrfPlus) wb = wb && w.wcb.live.test(reg);
    evict(slot, reg, cycle, wb);
  });
  w.interval = interval;
  w.wcb.working_set = next;
  ++counters_.prefetches;
  fetch_working_set(slot, cycle);
}

LtrfCore::Ask LtrfCore::before_issue(uint32_t slot, uint32_t interval, uint64_t cycle, bool header,
                                     uint32_t index) {
  if (shared()) return Ask::Issue;
  Warp& w = warps_[slot];
  replace_missed_if_waiting(w, cycle);
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
  if (w.status != Status::Active) {
    // Queued: nothing but replace_missed changes that until activate() releases it.
    if (parking_) parking_->park(slot, WarpParking::kUntilReleased);
    return Ask::Wait;
  }
  const bool new_unit = interval != w.interval || (header && index != w.header_index);
  if (prefetching() && interval != kNoInterval && new_unit) {
    prefetch(slot, interval, index, cycle);
    return Ask::Prefetch;
  }
  if (cycle >= w.resident_at) return Ask::Issue;
  // Fetching: the answer is Wait until the set is resident, unless the warp leaves the pool.
  if (parking_) parking_->park(slot, w.resident_at);
  return Ask::Wait;
}

void LtrfCore::issued(uint32_t slot, const WarpInst& inst, const RegisterSet& dead,
                      uint64_t cycle) {
  if (shared()) return;
  Warp& w = warps_[slot];
  if (config_.mode == LtrfMode::LtrfPlus) w.wcb.live &= ~dead;
  switch (inst.cls) {
    case InstClass::Load:
      // A long-latency operation: once it is known to miss, the warp gives its slot
      // to a waiting warp (§3.2 two-level scheduler; replace_missed).
      if (w.load_regs.none()) {
        w.load_since = cycle;
        note_load(cycle);
      }
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
  for (const uint32_t slot : active_) {
    const Warp& w = warps_[slot];
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
  Warp& w = warps_[slot];
  // The collector reads the bank number and warp offset from the WCB: two read ports,
  // so a third operand waits a cycle (§4.1).
  uint64_t t = cycle + allocation_.lookup(operand);
  if (shared()) return shared_read(slot, reg, lanes, t, out);
  if (w.status != Status::Active || !w.wcb.cached.test(reg)) {
    // RFC miss, or an LTRF register outside any known interval: the main RF serves it.
    ++counters_.read_misses;
    return main_read(slot, reg, t, out, MainAccess::Operand).ready;
  }
  CacheEntry& e = entry(slot, reg);
  const uint32_t bank = allocation_.bank(slot, reg);
  if ((lanes & ~e.valid_lanes) != 0) {
    // Lanes the cache does not hold: an RFC entry written by a divergent result, or
    // an LTRF+ register the liveness bits called dead.
    if (config_.mode == LtrfMode::Rfc) {
      ++counters_.read_misses;
      const uint64_t ready = main_read(slot, reg, t, out, MainAccess::Operand).ready;
      out.merge(e.value, e.valid_lanes);
      return ready;
    }
    WarpRegister from_main;
    const MainRegisterFile::Read fill = main_read(slot, reg, t, from_main, MainAccess::Fill);
    from_main.merge(e.value, e.valid_lanes);
    ++counters_.unfetched_reads;
    t = cache_.transfer(bank, fill.ready);
    e.value = from_main;
    e.valid_lanes |= fill.lanes;
  }
  out = e.value;
  ++counters_.read_hits;
  return cache_.read(bank, t);
}

void LtrfCore::result_arrived(uint32_t slot, uint16_t reg) {
  Warp& w = warps_[slot];
  if (!w.load_regs.test(reg)) return;
  w.load_regs.reset(reg);
  if (w.load_regs.none()) w.load_since = ~uint64_t(0);
}

uint64_t LtrfCore::write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value,
                         uint64_t cycle) {
  if (shared()) return shared_write(slot, reg, mask, value, cycle);
  Warp& w = warps_[slot];
  w.wcb.live.set(reg);
  result_arrived(slot, reg);
  if (w.status == Status::Active && config_.mode == LtrfMode::Rfc && !w.wcb.cached.test(reg)) {
    // The RFC allocates every result (Gebhart ISCA'11); a full partition evicts FIFO.
    uint32_t bank = allocation_.allocate_bank(slot, reg);
    if (bank == AddressAllocationCore::kNone) {
      const CacheEntry& victim =
          cache_.entry(cache_.index(allocation_.offset(slot), allocation_.oldest_bank(slot)));
      evict(slot, victim.reg, cycle, victim.dirty);
      bank = allocation_.allocate_bank(slot, reg);
    }
    w.wcb.cached.set(reg);
    CacheEntry& e = entry(slot, reg);
    e.reset(reg, static_cast<uint16_t>(slot));
  }
  if (w.status == Status::Active && w.wcb.cached.test(reg)) {
    CacheEntry& e = entry(slot, reg);
    e.value.merge(value, mask);
    e.valid_lanes |= mask;
    e.dirty = true;
    return cache_.write(allocation_.bank(slot, reg), cycle);
  }
  ++counters_.direct_writes;
  return main_write(slot, reg, cycle, value, mask, MainAccess::Result);
}

bool LtrfCore::takes_result(uint32_t slot, uint16_t reg) const {
  if (shared()) return true;
  const Warp& w = warps_[slot];
  return w.status == Status::Active && (config_.mode == LtrfMode::Rfc || w.wcb.cached.test(reg));
}

void LtrfCore::launch(uint32_t slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  if (w.status == Status::Active) deactivate(slot, cycle, false);
  queue_.erase(std::remove(queue_.begin(), queue_.end(), slot), queue_.end());
  w = Warp{};
  release(slot);
  allocation_.reset(slot);
}

void LtrfCore::retire(uint32_t slot, uint64_t cycle) {
  if (shared()) shared_drop(slot);
  Warp& w = warps_[slot];
  if (w.status == Status::Active) deactivate(slot, cycle, false);
  queue_.erase(std::remove(queue_.begin(), queue_.end(), slot), queue_.end());
  w.status = Status::Inactive;
  release(slot);
  w.wcb.live.reset();
  w.interval = kNoInterval;
}

// ---------------------------------------------------------------- reports

const WarpRegister* LtrfCore::cached_value(uint32_t slot, uint16_t reg) const {
  const Warp& w = warps_[slot];
  if (w.status != Status::Active || !w.wcb.cached.test(reg)) return nullptr;
  return &cache_.entry(cache_.index(allocation_.offset(slot), allocation_.bank(slot, reg))).value;
}

std::string LtrfCore::wait_report() const {
  std::string out = "  ltrf: " + std::to_string(allocation_.taken_offsets()) + " of " +
                    std::to_string(allocation_.config().offsets) + " warp-offset slots taken, " +
                    std::to_string(queue_.size()) + " warps queued for one";
  for (uint32_t s = 0; s < warps_.size(); ++s)
    if (warps_[s].status == Status::Active)
      out +=
          "; warp " + std::to_string(s) + " resident at " + std::to_string(warps_[s].resident_at);
  return out + "\n";
}

}  // namespace warpreg

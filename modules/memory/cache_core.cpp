#include "modules/memory/cache_core.h"

#include <stdexcept>
#include <string>

#include "common/errors.h"

namespace warpreg::memory {

namespace {

bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

[[noreturn]] void refuse(std::string_view name, const char* field, const std::string& why) {
  throw ConfigError(std::string(name) + "." + field + " " + why);
}

}  // namespace

void CacheConfig::validate(std::string_view name) const {
  if (!power_of_two(sets))
    refuse(name, "sets", "must be a power of two (got " + std::to_string(sets) + ")");
  if (ways == 0 || ways > 64)
    refuse(name, "ways", "must be 1 to 64 (got " + std::to_string(ways) + ")");
  if (!power_of_two(line_bytes) || line_bytes < 32 || line_bytes > kMaxLineBytes)
    refuse(name, "line_bytes",
           "must be 32, 64 or 128 bytes (got " + std::to_string(line_bytes) + ")");
  if (set_index == SetIndexFunction::FermiHash && sets != 32 && sets != 64)
    refuse(name, "set_index",
           "fermi_hash needs 32 or 64 sets (GPGPU-Sim's hash), got " + std::to_string(sets) +
               " sets; use linear");
  if (mshr_entries == 0) refuse(name, "mshr_entries", "must be at least 1");
  if (mshr_max_merge == 0) refuse(name, "mshr_max_merge", "must be at least 1");
  if (miss_queue_entries == 0) refuse(name, "miss_queue_entries", "must be at least 1");
  if (latency == 0) refuse(name, "latency", "must be at least 1 cycle");
  if (write_allocate && write_policy != WritePolicy::WriteBack)
    refuse(name, "write_allocate", "needs the write_back write policy");
  check_clock(name, clock_mhz);
  check_energy(name, "energy.tag_lookup_pj", energy.tag_lookup_pj);
  check_energy(name, "energy.data_read_pj", energy.data_read_pj);
  check_energy(name, "energy.data_write_pj", energy.data_write_pj);
  check_energy(name, "energy.mshr_access_pj", energy.mshr_access_pj);
  check_energy(name, "energy.leakage_mw", energy.leakage_mw);
}

CacheConfig CacheConfig::gtx480_l1d() { return CacheConfig{}; }

CacheConfig CacheConfig::gtx480_l1d_48k() {
  CacheConfig c;
  c.sets = 64;
  c.ways = 6;
  return c;
}

CacheConfig CacheConfig::gtx480_l2_slice() {
  CacheConfig c;
  c.sets = 64;
  c.ways = 8;
  c.set_index = SetIndexFunction::Linear;
  c.write_policy = WritePolicy::WriteBack;
  c.write_allocate = true;
  c.mshr_entries = 32;
  c.mshr_max_merge = 4;
  c.miss_queue_entries = 4;
  c.latency = 120;
  return c;
}

CacheConfig CacheConfig::gtx480_constant() {
  CacheConfig c;
  c.sets = 64;
  c.ways = 2;
  c.line_bytes = 64;
  c.set_index = SetIndexFunction::Linear;
  c.write_policy = WritePolicy::ReadOnly;
  c.mshr_entries = 2;
  c.mshr_max_merge = 32;
  c.miss_queue_entries = 4;
  c.latency = 35;
  return c;
}

CacheCore::CacheCore(const CacheConfig& config, std::string_view name) : config_(config) {
  config_.validate(name);
  line_shift_ = static_cast<uint32_t>(__builtin_ctz(config_.line_bytes));
  lines_.resize(size_t(config_.sets) * config_.ways);
  mshrs_.reserve(config_.mshr_entries * 2);
}

uint32_t CacheCore::set_of(uint64_t a) const {
  if (config_.set_index == SetIndexFunction::Linear)
    return static_cast<uint32_t>((a >> line_shift_) & (config_.sets - 1));
  // GPGPU-Sim cache_config::hash_function, FERMI_HASH_SET_FUNCTION: bits 7-11 of the
  // address XOR bits 13, 14, 15, 17 and 19; 64 sets prepend bit 12.
  const uint64_t lower = (a >> line_shift_) & 0x1f;
  uint64_t upper = (a & 0xe000) >> 13;
  upper |= (a & 0x20000) >> 14;
  upper |= (a & 0x80000) >> 15;
  uint64_t set = lower ^ upper;
  if (config_.sets == 64) set |= (a & 0x1000) >> 7;
  return static_cast<uint32_t>(set);
}

ByteMask CacheCore::full_line() const { return ByteMask::range(0, config_.line_bytes); }

int CacheCore::find(uint64_t line, uint32_t set) const {
  const Line* row = &lines_[size_t(set) * config_.ways];
  for (uint32_t w = 0; w < config_.ways; ++w)
    if (row[w].present && row[w].tag == line) return static_cast<int>(w);
  return -1;
}

bool CacheCore::contains(uint64_t address, uint64_t index_address) const {
  return find(line_of(address), set_of(index_address)) >= 0;
}

bool CacheCore::dirty(uint64_t address, uint64_t index_address) const {
  const uint32_t set = set_of(index_address);
  const int way = find(line_of(address), set);
  return way >= 0 && lines_[size_t(set) * config_.ways + way].dirty;
}

uint32_t CacheCore::mshrs_busy(uint64_t cycle, uint64_t& first_free) const {
  uint32_t busy = 0;
  first_free = kPending;
  for (const Mshr& m : mshrs_) {
    if (m.allocated <= cycle && cycle < m.ready) {
      ++busy;
      first_free = std::min(first_free, m.ready);
    }
  }
  return busy;
}

int CacheCore::find_mshr(uint64_t line, uint64_t cycle) const {
  for (size_t i = 0; i < mshrs_.size(); ++i) {
    const Mshr& m = mshrs_[i];
    if (m.line == line && m.allocated <= cycle && cycle < m.ready) return static_cast<int>(i);
  }
  return -1;
}

int CacheCore::victim(uint32_t set, uint64_t cycle) const {
  const Line* row = &lines_[size_t(set) * config_.ways];
  int best = -1;
  for (uint32_t w = 0; w < config_.ways; ++w) {
    if (!row[w].present) return static_cast<int>(w);
    if (row[w].ready > cycle) continue;
    if (best < 0 || row[w].lru < row[best].lru) best = static_cast<int>(w);
  }
  return best;
}

uint64_t CacheCore::earliest_fill(uint32_t set) const {
  const Line* row = &lines_[size_t(set) * config_.ways];
  uint64_t first = kPending;
  for (uint32_t w = 0; w < config_.ways; ++w) first = std::min(first, row[w].ready);
  return first;
}

void CacheCore::forget_before(uint64_t cycle) {
  port_.forget_before(cycle);
  for (size_t i = 0; i < mshrs_.size();) {
    if (mshrs_[i].ready <= cycle) {
      mshrs_[i] = mshrs_.back();
      mshrs_.pop_back();
    } else {
      ++i;
    }
  }
}

void CacheCore::queue(CacheDecision& d, uint64_t accepted) {
  const uint64_t left = std::max(accepted, d.send);
  const uint64_t entered =
      std::max(d.send, left > config_.miss_queue_entries ? left - config_.miss_queue_entries : 0);
  counters_.miss_queue_busy_cycles += left - entered;
  if (entered > d.send) {
    ++counters_.queue_stalls;
    counters_.queue_stall_cycles += entered - d.send;
    d.accepted = std::max(d.accepted, entered - config_.latency);
  }
}

void CacheCore::evict(Line& line, CacheDecision& d) {
  if (!line.present) return;
  ++counters_.evictions;
  if (line.dirty) {
    ++counters_.writebacks;
    d.writeback = true;
    d.victim_address = line.tag;
  }
  line.present = false;
  line.dirty = false;
}

CacheDecision CacheCore::pass(uint64_t cycle) {
  CacheDecision d;
  d.outcome = CacheOutcome::Forward;
  d.start = port_.reserve(cycle, 1);
  if (d.start > cycle) {
    ++counters_.port_stalls;
    counters_.port_stall_cycles += d.start - cycle;
  }
  d.accepted = d.start;
  d.send = d.start + config_.latency;
  ++counters_.passed;
  return d;
}

CacheDecision CacheCore::access(const CacheRequest& r, uint64_t cycle) {
  const bool is_write = r.kind == MemKind::Store || r.kind == MemKind::Writeback;
  if (is_write && config_.write_policy == WritePolicy::ReadOnly)
    throw std::logic_error("a write reached a read-only cache");
  CacheDecision d;
  d.start = port_.reserve(cycle, 1);
  if (d.start > cycle) {
    ++counters_.port_stalls;
    counters_.port_stall_cycles += d.start - cycle;
  }
  ++(is_write ? counters_.writes : counters_.reads);
  const uint64_t tag = line_of(r.address);
  const uint32_t set = set_of(r.index_address);
  Line* row = &lines_[size_t(set) * config_.ways];
  const ByteMask bytes = r.bytes.empty() ? full_line() : r.bytes;
  // The tag lookup happens `latency` cycles after the port; stalls move it later.
  uint64_t at = d.start + config_.latency;
  // A stall moves the lookup to when the resource frees; a request counts once per kind.
  uint32_t stalled = 0;
  const auto stall = [&](uint32_t kind, uint64_t until, uint64_t& requests, uint64_t& cycles) {
    if (!(stalled & kind)) ++requests;
    stalled |= kind;
    cycles += until - at;
    at = until;
  };
  enum : uint32_t { kMergeStall = 1, kMshrStall = 2, kSetStall = 4 };

  for (;;) {
    const int way = find(tag, set);
    Line* line = way >= 0 ? &row[way] : nullptr;
    const bool filled = line != nullptr && line->ready <= at;

    if (is_write) {
      const bool write_back_hit = config_.write_policy == WritePolicy::WriteBack ||
                                  (r.space == MemSpace::Local && r.kind == MemKind::Store);
      if (line != nullptr && write_back_hit &&
          (filled || config_.write_policy == WritePolicy::WriteBack)) {
        // Write-back hit (a line still being filled takes the bytes as well: the fill
        // does not overwrite them).
        line->dirty = true;
        line->valid |= bytes;
        touch(*line);
        ++counters_.write_hits;
        d.outcome = CacheOutcome::Hit;
        break;
      }
      if (line == nullptr && config_.write_allocate) {
        // Write-allocate without fetching: the line holds only the written bytes.
        const int v = victim(set, at);
        if (v < 0) {
          stall(kSetStall, earliest_fill(set), counters_.set_stalls, counters_.set_stall_cycles);
          continue;
        }
        evict(row[v], d);
        row[v] = Line{tag, at, 0, bytes, true, true};
        touch(row[v]);
        ++counters_.write_misses;
        d.outcome = CacheOutcome::Hit;
        break;
      }
      // Not kept here: write-evict of a global store hit, or a no-write-allocate miss.
      if (line != nullptr && filled) {
        line->present = false;
        line->dirty = false;
        ++counters_.write_evicts;
        ++counters_.write_hits;
      } else {
        ++counters_.write_misses;
      }
      ++counters_.forwarded;
      d.outcome = CacheOutcome::Forward;
      break;
    }

    // Loads and atomics.
    if (filled && line->valid.covers(bytes)) {
      if (r.kind == MemKind::Atomic) line->dirty = true;
      touch(*line);
      ++counters_.read_hits;
      d.outcome = CacheOutcome::Hit;
      break;
    }
    if (line != nullptr && !filled) {
      const int m = find_mshr(tag, at);
      if (m >= 0 && mshrs_[m].merged < config_.mshr_max_merge) {
        ++mshrs_[m].merged;
        if (r.kind == MemKind::Atomic) line->dirty = true;
        touch(*line);
        ++counters_.mshr_merges;
        d.outcome = CacheOutcome::MshrMerge;
        d.ready = line->ready;
        break;
      }
      stall(kMergeStall, line->ready, counters_.merge_stalls, counters_.merge_stall_cycles);
      continue;
    }
    // A miss (or a line that holds only written bytes): fetch the line.
    uint64_t first_free = 0;
    if (mshrs_busy(at, first_free) >= config_.mshr_entries) {
      stall(kMshrStall, first_free, counters_.mshr_stalls, counters_.mshr_stall_cycles);
      continue;
    }
    int v = way;
    if (line == nullptr) {
      v = victim(set, at);
      if (v < 0) {
        stall(kSetStall, earliest_fill(set), counters_.set_stalls, counters_.set_stall_cycles);
        continue;
      }
      evict(row[v], d);
      row[v] = Line{tag, kPending, 0, ByteMask{}, true, false};
    } else {
      line->ready = kPending;
    }
    if (r.kind == MemKind::Atomic) row[v].dirty = true;
    touch(row[v]);
    mshrs_.push_back(Mshr{tag, at, kPending, 1});
    ++counters_.read_misses;
    d.outcome = CacheOutcome::Miss;
    d.line = static_cast<uint32_t>(size_t(set) * config_.ways + v);
    d.mshr = static_cast<uint32_t>(mshrs_.size() - 1);
    break;
  }
  if (d.outcome == CacheOutcome::Hit) d.ready = at;
  d.send = at;
  d.accepted = at - config_.latency;
  return d;
}

void CacheCore::complete_miss(CacheDecision& miss, uint64_t fill_cycle, uint64_t accepted_cycle) {
  Line& line = lines_[miss.line];
  Mshr& mshr = mshrs_[miss.mshr];
  const uint64_t fill = std::max(fill_cycle, miss.send);
  line.ready = fill;
  line.valid = full_line();
  mshr.ready = fill;
  counters_.mshr_busy_cycles += fill - mshr.allocated;
  ++counters_.fills;
  queue(miss, accepted_cycle);
}

void CacheCore::abort_miss(const CacheDecision& miss) {
  Line& line = lines_[miss.line];
  line.ready = miss.send;
  if (line.valid.empty()) {  // a written line keeps its bytes
    line.present = false;
    line.dirty = false;
  }
  mshrs_[miss.mshr].ready = miss.send;
  mshrs_[miss.mshr].allocated = miss.send;
  --counters_.read_misses;
}

void CacheCore::complete_forward(CacheDecision& forward, uint64_t accepted_cycle) {
  queue(forward, accepted_cycle);
}

void CacheCore::complete_writeback(CacheDecision& decision, uint64_t accepted_cycle) {
  queue(decision, accepted_cycle);
}

}  // namespace warpreg::memory

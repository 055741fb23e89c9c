#include "modules/wrf/tric_core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpreg {

const char* to_string(RegPower state) {
  switch (state) {
    case RegPower::Off:
      return "off";
    case RegPower::Drowsy:
      return "drowsy";
    case RegPower::On:
      return "on";
  }
  return "?";
}

void TricConfig::validate() const {
  if (registers == 0) throw std::invalid_argument("TricConfig.registers must be positive");
  if (wakeup_latency == 0)
    throw std::invalid_argument("TricConfig.wakeup_latency must be at least one cycle");
}

TricCore::TricCore(const TricConfig& config, TransitionSink& sink)
    : config_(config), sink_(sink), entries_(config.registers) {
  config_.validate();
  std::vector<PendingSleep> storage;
  storage.reserve(size_t(config.registers));
  pending_ = decltype(pending_)(std::greater<PendingSleep>(), std::move(storage));
  for (std::vector<PendingSleep>& bucket : ring_) bucket.reserve(16);
}

void TricCore::out_of_range(uint32_t reg) const {
  throw std::out_of_range("TRIC: register entry " + std::to_string(reg) + " beyond the " +
                          std::to_string(entries_.size()) + " entries of the file");
}

uint64_t TricCore::emit(uint64_t cycle, uint32_t reg, RegPower from, RegPower to) {
  // An entry changes state one change at a time: a call dated before the entry's
  // previous change (it came late through a slower path) takes effect with it.
  Entry& e = entries_[reg];
  cycle = std::max({cycle, ring_next_, e.changed_at});
  e.changed_at = cycle;
  sink_.transition(reg, from, to, cycle);
  return cycle;
}

uint64_t TricCore::advance(uint64_t cycle) {
  if (cycle < ring_next_) {
    ++counters_.late_calls;
    cycle = ring_next_;
  }
  if (cycle > latest_) {
    latest_ = cycle;
    // No later call can be dated more than reorder_window cycles before this one, nor
    // its look-ahead wake `lookahead` cycles before that: older sleeps are final.
    const uint64_t hold = uint64_t(config_.reorder_window) + config_.lookahead;
    if (latest_ > hold) commit(latest_ - hold - 1);
  }
  return cycle;
}

void TricCore::settle_sleep(Entry& e, uint32_t reg) {
  ++e.generation;  // the pending sleep is committed now instead, where nothing cancels it
  ++counters_.sleeps;
  emit(e.sleep_at, reg, RegPower::On, RegPower::Drowsy);
  e.phase = RegPower::Drowsy;
  e.drowsy_since = e.sleep_at;
  e.sleep_at = kNone;
}

void TricCore::apply_sleep(const PendingSleep& s) {
  Entry& e = entries_[s.reg];
  // Cancelled: the entry was woken again, retired, or its sleep moved later.
  if (s.generation != e.generation || e.phase != RegPower::On || e.sleep_at != s.cycle) return;
  ++counters_.sleeps;
  e.phase = RegPower::Drowsy;
  e.drowsy_since = s.cycle;
  e.sleep_at = kNone;
  sink_.transition(s.reg, RegPower::On, RegPower::Drowsy, s.cycle);
}

void TricCore::drain_queue(uint64_t last) {
  while (!pending_.empty() && pending_.top().cycle <= last) {
    const PendingSleep s = pending_.top();
    pending_.pop();
    apply_sleep(s);
  }
}

void TricCore::commit(uint64_t last) {
  for (uint64_t c = ring_next_; c <= last && ring_size_ > 0; ++c) {
    std::vector<PendingSleep>& bucket = ring_[c % kRing];
    for (const PendingSleep& s : bucket) apply_sleep(s);
    ring_size_ -= bucket.size();
    bucket.clear();
  }
  drain_queue(last);
  if (last >= ring_next_) ring_next_ = last + 1;
}

void TricCore::launch(uint32_t first, uint32_t count, uint64_t cycle) {
  cycle = advance(cycle);
  for (uint32_t reg = first; reg < first + count; ++reg) {
    Entry& e = entry(reg);
    if (e.phase != RegPower::Off) continue;  // already allocated
    const uint64_t at = emit(cycle, reg, RegPower::Off, RegPower::Drowsy);
    const uint32_t generation = e.generation;  // keeps cancelled sleeps cancelled
    e = Entry{};
    e.generation = generation;
    e.phase = RegPower::Drowsy;
    e.drowsy_since = at;
    e.changed_at = at;
    ++counters_.launches;
    counters_.peak_allocated = std::max(counters_.peak_allocated, ++counters_.allocated);
  }
}

void TricCore::retire(uint32_t first, uint32_t count, uint64_t cycle) {
  cycle = advance(cycle);
  for (uint32_t reg = first; reg < first + count; ++reg) {
    Entry& e = entry(reg);
    if (e.phase == RegPower::Off) continue;
    const uint64_t at = std::max(cycle, e.changed_at);
    if (e.phase == RegPower::On && (e.held > 0 || e.sleep_at == kNone || e.sleep_at >= at)) {
      ++e.generation;  // no pending sleep any more
      emit(at, reg, RegPower::On, RegPower::Off);
    } else {
      // DROWSY, or ON with a sleep still pending before this cycle.
      if (e.phase == RegPower::On) settle_sleep(e, reg);
      emit(at, reg, RegPower::Drowsy, RegPower::Off);
    }
    e.phase = RegPower::Off;
    e.held = 0;
    e.sleep_at = kNone;
    ++counters_.retirements;
    --counters_.allocated;
  }
}

uint64_t TricCore::wake(uint32_t reg, uint64_t cycle, bool destination) {
  cycle = advance(cycle);
  Entry& e = entry(reg);
  if (e.phase == RegPower::Off) {
    ++counters_.off_violations;
    return cycle;
  }
  uint64_t sent = cycle >= config_.lookahead ? cycle - config_.lookahead : 0;
  sent = std::max(sent, ring_next_);
  if (e.phase == RegPower::On && (e.sleep_at == kNone || e.sleep_at >= sent)) {
    if (e.sleep_at != kNone) {
      ++e.generation;  // cancels the pending sleep: the entry stays ON
      e.sleep_at = kNone;
    }
    ++counters_.stay_on;
  } else {
    // DROWSY at `sent` (or since a sleep that is still pending): wake it.
    uint64_t since = e.drowsy_since;
    if (e.phase == RegPower::On) {
      since = e.sleep_at;
      settle_sleep(e, reg);
    }
    sent = emit(std::max(sent, since), reg, RegPower::Drowsy, RegPower::On);
    e.phase = RegPower::On;
    e.sleep_at = kNone;
    e.on_at = sent + config_.wakeup_latency;
    ++counters_.wakeups;
  }
  if (destination) {
    ++e.held;
    return cycle;
  }
  const uint64_t ready = std::max(
      cycle, e.on_at >= config_.hidden_cycles ? e.on_at - config_.hidden_cycles : uint64_t(0));
  if (ready > cycle) {
    ++counters_.delayed_accesses;
    counters_.delay_cycles += ready - cycle;
  }
  return ready;
}

void TricCore::check_access(Entry& e, uint64_t served) {
  if (e.phase == RegPower::Off) {
    ++counters_.off_violations;
    return;
  }
  if (e.last_access != kNone) {
    const uint64_t distance =
        served >= e.last_access ? served - e.last_access : e.last_access - served;
    counters_.inter_access_sum += distance;
    ++counters_.inter_access_count;
    if (distance <= kShortInterAccess) {
      counters_.short_inter_access_sum += distance;
      ++counters_.short_inter_access_count;
    }
  }
  e.last_access = served;
  const bool asleep = e.phase != RegPower::On || (e.sleep_at != kNone && e.sleep_at < served);
  if (asleep || served + config_.hidden_cycles < e.on_at) ++counters_.drowsy_violations;
}

void TricCore::schedule_sleep(Entry& e, uint32_t reg, uint64_t done) {
  if (e.phase != RegPower::On) return;
  done = std::max({done, ring_next_, e.changed_at});
  if (e.sleep_at != kNone) {
    if (e.sleep_at >= done) return;  // another access keeps it ON longer
    ++e.generation;
  }
  const PendingSleep sleep{done, reg, e.generation};
  if (done - ring_next_ < kRing) {
    ring_[done % kRing].push_back(sleep);
    ++ring_size_;
  } else {
    pending_.push(sleep);
  }
  e.sleep_at = done;
}

void TricCore::read_done(uint32_t reg, uint64_t served, uint64_t done, uint64_t cycle) {
  advance(cycle);
  Entry& e = entry(reg);
  check_access(e, served);
  if (e.held == 0) schedule_sleep(e, reg, done);
}

void TricCore::write_done(uint32_t reg, uint64_t served, uint64_t done, uint64_t cycle) {
  advance(cycle);
  Entry& e = entry(reg);
  check_access(e, served);
  if (e.held > 0) --e.held;
  if (e.held == 0) schedule_sleep(e, reg, done);
}

void TricCore::flush(uint64_t cycle) {
  advance(cycle);
  commit(cycle);
}

RegPower TricCore::state(uint32_t reg, uint64_t cycle) const {
  const Entry& e = entries_.at(reg);
  if (e.phase == RegPower::On && e.sleep_at != kNone && e.sleep_at <= cycle)
    return RegPower::Drowsy;
  return e.phase;
}

}  // namespace warpreg

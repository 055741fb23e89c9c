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
  std::vector<Pending> storage;
  storage.reserve(4 * size_t(config.registers));
  pending_ = decltype(pending_)(std::greater<Pending>(), std::move(storage));
  for (std::vector<RingSleep>& bucket : ring_) bucket.reserve(16);
}

TricCore::Entry& TricCore::entry(uint32_t reg) {
  if (reg >= entries_.size())
    throw std::out_of_range("TRIC: register entry " + std::to_string(reg) + " beyond the " +
                            std::to_string(entries_.size()) + " entries of the file");
  return entries_[reg];
}

void TricCore::push(uint64_t cycle, uint32_t reg, RegPower from, RegPower to, bool is_sleep) {
  pending_.push(Pending{cycle, order_++, reg, entries_[reg].generation, from, to, is_sleep});
}

void TricCore::emit(uint64_t cycle, uint32_t reg, RegPower from, RegPower to) {
  // Without look-ahead every change not dated in the future is dated now, nothing
  // pending is earlier and the committed books agree with the entry's state: no
  // queueing needed (the common case). Only sleeps wait, as they can be cancelled.
  if (config_.lookahead == 0)
    sink_.transition(from, to, cycle);
  else
    push(cycle, reg, from, to, false);
}

void TricCore::advance(uint64_t cycle) {
  if (cycle < last_cycle_)
    throw std::logic_error("TRIC: cycle " + std::to_string(cycle) + " after cycle " +
                           std::to_string(last_cycle_));
  last_cycle_ = cycle;
  // A look-ahead wake may be dated `lookahead` cycles back: hold transitions that long.
  if (cycle > config_.lookahead) commit(cycle - config_.lookahead - 1);
}

void TricCore::apply_sleep(uint32_t reg, uint32_t generation, uint64_t cycle) {
  Entry& e = entries_[reg];
  if (generation != e.generation) return;  // cancelled: the entry was woken again
  ++counters_.sleeps;
  if (e.phase == RegPower::On && e.sleep_at == cycle) {
    e.phase = RegPower::Drowsy;
    e.drowsy_since = cycle;
    e.sleep_at = kNone;
  }
  sink_.transition(RegPower::On, RegPower::Drowsy, cycle);
}

void TricCore::drain_queue(uint64_t last) {
  while (!pending_.empty() && pending_.top().cycle <= last) {
    const Pending p = pending_.top();
    pending_.pop();
    if (p.is_sleep)
      apply_sleep(p.reg, p.generation, p.cycle);
    else
      sink_.transition(p.from, p.to, p.cycle);
  }
}

void TricCore::commit(uint64_t last) {
  // Sleeps in the ring, cycle by cycle; queued changes of the same or earlier cycles
  // first. Sleeps of one cycle commute (each only moves an entry out of ON).
  for (uint64_t c = ring_next_; c <= last && ring_size_ > 0; ++c) {
    drain_queue(c);
    std::vector<RingSleep>& bucket = ring_[c % kRing];
    for (const RingSleep& s : bucket) apply_sleep(s.reg, s.generation, c);
    ring_size_ -= bucket.size();
    bucket.clear();
  }
  if (last >= ring_next_) ring_next_ = last + 1;
  drain_queue(last);
}

void TricCore::launch(uint32_t first, uint32_t count, uint64_t cycle) {
  advance(cycle);
  for (uint32_t reg = first; reg < first + count; ++reg) {
    Entry& e = entry(reg);
    if (e.phase != RegPower::Off) continue;  // already allocated
    emit(cycle, reg, RegPower::Off, RegPower::Drowsy);
    const uint32_t generation = e.generation;  // keeps cancelled sleeps cancelled
    e = Entry{};
    e.generation = generation;
    e.phase = RegPower::Drowsy;
    e.drowsy_since = cycle;
    ++counters_.launches;
    counters_.peak_allocated = std::max(counters_.peak_allocated, ++counters_.allocated);
  }
}

void TricCore::retire(uint32_t first, uint32_t count, uint64_t cycle) {
  advance(cycle);
  for (uint32_t reg = first; reg < first + count; ++reg) {
    Entry& e = entry(reg);
    if (e.phase == RegPower::Off) continue;
    if (e.phase == RegPower::On && (e.held > 0 || e.sleep_at == kNone || e.sleep_at >= cycle)) {
      ++e.generation;  // no pending sleep any more
      emit(cycle, reg, RegPower::On, RegPower::Off);
    } else {
      // DROWSY, or ON with a sleep still pending before this cycle.
      emit(cycle, reg, RegPower::Drowsy, RegPower::Off);
    }
    e.phase = RegPower::Off;
    e.held = 0;
    e.sleep_at = kNone;
    ++counters_.retirements;
    --counters_.allocated;
  }
}

uint64_t TricCore::wake(uint32_t reg, uint64_t cycle, bool destination) {
  advance(cycle);
  Entry& e = entry(reg);
  if (e.phase == RegPower::Off) {
    ++counters_.off_violations;
    return cycle;
  }
  uint64_t sent = cycle >= config_.lookahead ? cycle - config_.lookahead : 0;
  if (e.phase == RegPower::On && (e.sleep_at == kNone || e.sleep_at >= sent)) {
    if (e.sleep_at != kNone) {
      ++e.generation;  // cancels the pending sleep: the entry stays ON
      e.sleep_at = kNone;
    }
    ++counters_.stay_on;
  } else {
    // DROWSY at `sent` (or since a sleep that is still pending): wake it.
    const uint64_t since = e.phase == RegPower::On ? e.sleep_at : e.drowsy_since;
    sent = std::max(sent, since);
    emit(sent, reg, RegPower::Drowsy, RegPower::On);
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
  if (e.sleep_at != kNone) {
    if (e.sleep_at >= done) return;  // another access keeps it ON longer
    ++e.generation;
  }
  if (config_.lookahead == 0 && done >= ring_next_ && done - ring_next_ < kRing) {
    ring_[done % kRing].push_back(RingSleep{reg, e.generation});
    ++ring_size_;
  } else {
    push(done, reg, RegPower::On, RegPower::Drowsy, true);
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

#pragma once
// A priority queue of timed events for a simulator's hot loop: events come out by cycle,
// and events of one cycle in the order they were pushed, exactly as a binary heap
// ordered by (cycle, push order) would give them, but in O(1) per event for the near
// future. A ring of per-cycle buckets covers the cycles [base, base + window) from the
// cycle of the last event taken; events beyond it wait in a heap and move into the ring
// as it advances (before any later push can reach their cycle, so a bucket stays in push
// order); events pushed for a cycle before the ring's (none in a forward-moving
// simulator) wait in a second heap and come out first. Plain C++, no SystemC.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace warpreg {

/// T: a copyable event with a `uint64_t cycle` member.
template <typename T>
class CalendarQueue {
 public:
  /// `window_log2`: the ring covers 2^window_log2 cycles (at least 64).
  explicit CalendarQueue(unsigned window_log2 = 10)
      : window_(uint64_t{1} << (window_log2 < 6 ? 6 : window_log2)),
        buckets_(window_),
        heads_(window_, 0),
        nonempty_(window_ / 64, 0) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push(const T& event) {
    ++size_;
    const uint64_t sequence = pushed_++;
    if (event.cycle < base_) {
      early_.push({event, sequence});
    } else if (event.cycle - base_ >= window_) {
      later_.push({event, sequence});
    } else {
      put_in_ring(event);
    }
  }

  /// The next event: the earliest cycle, the first pushed among that cycle's. Not empty().
  const T& top() const {
    if (!early_.empty()) return early_.top().event;
    if (in_ring_ == 0) return later_.top().event;
    const uint64_t slot = ring_first_ & (window_ - 1);
    return buckets_[slot][heads_[slot]];
  }

  /// Removes top(). Not empty().
  void pop() {
    --size_;
    if (!early_.empty()) {
      early_.pop();
      return;
    }
    if (in_ring_ == 0) {
      // Nothing within the window: jump the ring to the next event's cycle.
      const uint64_t cycle = later_.top().event.cycle;
      later_.pop();
      advance_to(cycle);
      return;
    }
    const uint64_t cycle = ring_first_;
    const uint64_t slot = cycle & (window_ - 1);
    std::vector<T>& bucket = buckets_[slot];
    const bool emptied = ++heads_[slot] == bucket.size();
    if (emptied) {
      bucket.clear();
      heads_[slot] = 0;
      nonempty_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
    }
    --in_ring_;
    advance_to(cycle);
    if (emptied && in_ring_ > 0) ring_first_ = base_ + ((first_bucket() - slot) & (window_ - 1));
  }

 private:
  struct Waiting {
    T event;
    uint64_t sequence;
    bool operator>(const Waiting& o) const {
      return event.cycle != o.event.cycle ? event.cycle > o.event.cycle : sequence > o.sequence;
    }
  };
  using Heap = std::priority_queue<Waiting, std::vector<Waiting>, std::greater<Waiting>>;

  void put_in_ring(const T& event) {
    const uint64_t slot = event.cycle & (window_ - 1);
    buckets_[slot].push_back(event);
    nonempty_[slot / 64] |= uint64_t{1} << (slot % 64);
    ring_first_ = in_ring_++ == 0 ? event.cycle : std::min(ring_first_, event.cycle);
  }

  /// The ring's window starts at `cycle` (never moves back); the waiting events it now
  /// covers move in, earliest first, before anything else is pushed.
  void advance_to(uint64_t cycle) {
    if (cycle <= base_) return;
    base_ = cycle;
    while (!later_.empty() && later_.top().event.cycle - base_ < window_) {
      put_in_ring(later_.top().event);
      later_.pop();
    }
  }

  /// The ring slot of the earliest cycle with an event (in_ring_ > 0): the first
  /// non-empty bucket from base_'s slot on, wrapping around. Only when a bucket empties:
  /// ring_first_ answers top() and pop().
  uint64_t first_bucket() const {
    const uint64_t start = base_ & (window_ - 1);
    const size_t words = nonempty_.size();
    size_t word = start / 64;
    uint64_t bits = nonempty_[word] & (~uint64_t{0} << (start % 64));
    for (size_t visited = 0; bits == 0; ++visited) {
      word = word + 1 == words ? 0 : word + 1;
      bits = nonempty_[word];
      // Back at the start word: the slots before `start` in it.
      if (visited + 1 == words) bits &= ~(~uint64_t{0} << (start % 64));
    }
    return word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
  }

  uint64_t window_;
  std::vector<std::vector<T>> buckets_;  ///< per cycle mod window: its events in push order
  std::vector<size_t> heads_;            ///< per bucket: its first event not taken yet
  std::vector<uint64_t> nonempty_;       ///< bit per bucket: holds an event not taken
  uint64_t base_ = 0;                    ///< the ring holds the cycles [base_, base_ + window_)
  size_t in_ring_ = 0;
  uint64_t ring_first_ = 0;  ///< the earliest cycle in the ring (in_ring_ > 0)
  size_t size_ = 0;
  uint64_t pushed_ = 0;
  Heap later_;  ///< cycles from base_ + window_ on
  Heap early_;  ///< cycles before base_
};

}  // namespace warpreg

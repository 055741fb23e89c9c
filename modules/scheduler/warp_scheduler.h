#pragma once
// Warp scheduling policies of one scheduler: greedy-then-oldest (GTO), loose
// round-robin (LRR) and two-level (an active ready queue refilled from a
// pending pool; warps leave it on long-latency operations and barriers).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/bits.h"

namespace warpreg {

enum class SchedulerPolicy : uint8_t { Gto, Lrr, TwoLevel };

class WarpScheduler {
 public:
  WarpScheduler(SchedulerPolicy policy, uint32_t ready_queue_size);

  /// A warp launched; `age` orders warps for GTO (smaller = older).
  void add_warp(uint32_t slot, uint64_t age);
  /// A warp exited.
  void remove_warp(uint32_t slot);

  /// The first warp, in policy order, for which `can_issue(slot)` holds; -1 if none.
  template <typename CanIssue>
  int pick(CanIssue&& can_issue) {
    switch (policy_) {
      case SchedulerPolicy::Gto:
        if (greedy_ >= 0 && can_issue(uint32_t(greedy_))) return greedy_;
        for (const Warp& w : warps_)
          if (int(w.slot) != greedy_ && can_issue(w.slot)) return int(w.slot);
        return -1;
      case SchedulerPolicy::Lrr:
        return pick_round_robin(warps_, can_issue);
      case SchedulerPolicy::TwoLevel:
        return pick_round_robin(active_, can_issue);
    }
    return -1;
  }

  // ------------------------------------------------------------ classified LRR scan
  /// Warp classes for pick_classified: the caller files every warp slot under one of
  /// kClasses classes (0 = nothing to do, the initial class), and the scan looks at the
  /// warps by class instead of one by one. Slots 0..63 (sm.max_warps <= 64).
  static constexpr unsigned kClasses = 8;
  using ClassMasks = std::array<uint64_t, kClasses>;  ///< per class: its warps' positions
  static constexpr uint32_t kMaxSlots = 64;
  /// Files `slot` under `cls`; a slot not (yet) scheduled keeps it for when it is added.
  void set_class(uint32_t slot, uint8_t cls) {
    const uint8_t old = class_of_[slot];
    if (old == cls) return;
    class_of_[slot] = cls;
    const uint8_t pos = pos_of_[slot];
    if (pos == kNoPosition) return;
    class_masks_[old] &= ~(uint64_t{1} << pos);
    class_masks_[cls] |= uint64_t{1} << pos;
  }
  uint8_t class_of(uint32_t slot) const { return class_of_[slot]; }

  /// What a Rule makes of the class masks: the positions to call can_issue for, and
  /// those that only add one to a count each (the rest do nothing).
  struct Selection {
    uint64_t ask = 0;
    uint64_t counted = 0;
  };
  /// LRR's pick, by class: the same warp as pick(can_issue) when `rule` tells apart the
  /// warps for which can_issue would do nothing, would only be counted, or must be asked.
  /// Rule: `Selection select(const ClassMasks&)`, `void count(unsigned n)`,
  /// `bool can_issue(uint32_t slot)`. The masks are selected from again after every call
  /// of can_issue (it may refile warps). LRR only.
  template <typename Rule>
  int pick_classified(Rule& rule) {
    const std::size_t n = warps_.size();
    if (n == 0) return -1;
    const std::size_t start = next_ < n ? next_ : next_ % n;
    const int slot = scan_classified(rule, start, n);
    return slot >= 0 || start == 0 ? slot : scan_classified(rule, 0, start);
  }

  /// `slot` issued; a long-latency instruction (a load) moves it out of the
  /// two-level scheduler's active queue.
  void issued(uint32_t slot, bool long_latency);
  /// The warp waits for something slow (a barrier): two-level moves it to pending.
  void demote(uint32_t slot);

  SchedulerPolicy policy() const { return policy_; }
  std::size_t warps() const { return warps_.size(); }
  /// Two-level: the active queue in order (for tests and reports).
  std::vector<uint32_t> active_queue() const;

 private:
  struct Warp {
    uint32_t slot;
    uint64_t age;
  };
  template <typename CanIssue>
  int pick_round_robin(const std::vector<Warp>& order, CanIssue& can_issue) {
    const std::size_t n = order.size();
    if (n == 0) return -1;
    std::size_t at = next_ < n ? next_ : next_ % n;  // (next_ + i) mod n, without a division each
    for (std::size_t i = 0; i < n; ++i) {
      if (can_issue(order[at].slot)) {
        picked_ = at;
        return int(order[at].slot);
      }
      if (++at == n) at = 0;
    }
    return -1;
  }
  /// pick_classified over the positions [from, to) in order.
  template <typename Rule>
  int scan_classified(Rule& rule, std::size_t from, std::size_t to) {
    const uint64_t below_to = to == 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1;
    std::size_t at = from;
    while (at < to) {
      const uint64_t range = below_to & (~uint64_t{0} << at);
      const Selection selected = rule.select(class_masks_);
      const uint64_t ask = selected.ask & range;
      const std::size_t next = ask ? std::size_t(__builtin_ctzll(ask)) : to;
      const uint64_t skipped = next == 64 ? range : range & ((uint64_t{1} << next) - 1);
      if (const uint64_t counted = selected.counted & skipped) rule.count(popcount64(counted));
      if (next >= to) return -1;
      const uint32_t slot = warps_[next].slot;
      if (rule.can_issue(slot)) {
        picked_ = next;
        return int(slot);
      }
      at = next + 1;
    }
    return -1;
  }
  /// warps_ changed from position `from` on: their positions and class masks again.
  void reposition(std::size_t from);

  /// Where a round-robin search starts after `slot` issued: the position after it in
  /// `order` (found at picked_ when pick chose it), or next_ when it is not there.
  std::size_t after(const std::vector<Warp>& order, uint32_t slot) const;
  void refill_active();
  static void erase_slot(std::vector<Warp>& v, uint32_t slot);

  SchedulerPolicy policy_;
  uint32_t ready_queue_size_;
  std::vector<Warp> warps_;    ///< all warps, oldest first
  std::vector<Warp> active_;   ///< two-level: the ready queue
  std::vector<Warp> pending_;  ///< two-level: FIFO of waiting warps from pending_head_ on
  std::size_t pending_head_ = 0;
  int greedy_ = -1;         ///< GTO: the warp that issued last
  std::size_t next_ = 0;    ///< LRR / two-level: where the next search starts
  std::size_t picked_ = 0;  ///< LRR / two-level: where the last pick found its warp
  static constexpr uint8_t kNoPosition = 0xff;
  std::array<uint8_t, kMaxSlots> class_of_{};  ///< per slot: its class (set_class)
  std::array<uint8_t, kMaxSlots> pos_of_;      ///< per slot: its position in warps_
  ClassMasks class_masks_{};                   ///< per class: positions in warps_
};

}  // namespace warpreg

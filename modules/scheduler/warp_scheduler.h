#pragma once
// Warp scheduling policies of one scheduler: greedy-then-oldest (GTO), loose
// round-robin (LRR) and two-level (an active ready queue refilled from a
// pending pool; warps leave it on long-latency operations and barriers).
#include <cstddef>
#include <cstdint>
#include <vector>

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
};

}  // namespace warpreg

#include "modules/scheduler/warp_scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

WarpScheduler::WarpScheduler(SchedulerPolicy policy, uint32_t ready_queue_size)
    : policy_(policy), ready_queue_size_(ready_queue_size) {
  if (ready_queue_size_ == 0) throw std::invalid_argument("sm.ready_queue must be at least 1");
}

void WarpScheduler::erase_slot(std::vector<Warp>& v, uint32_t slot) {
  v.erase(std::remove_if(v.begin(), v.end(), [slot](const Warp& w) { return w.slot == slot; }),
          v.end());
}

void WarpScheduler::add_warp(uint32_t slot, uint64_t age) {
  const Warp w{slot, age};
  auto at = std::upper_bound(warps_.begin(), warps_.end(), age,
                             [](uint64_t a, const Warp& x) { return a < x.age; });
  warps_.insert(at, w);
  if (policy_ == SchedulerPolicy::TwoLevel) {
    pending_.push_back(w);
    refill_active();
  }
}

void WarpScheduler::remove_warp(uint32_t slot) {
  erase_slot(warps_, slot);
  if (greedy_ == int(slot)) greedy_ = -1;
  if (policy_ == SchedulerPolicy::TwoLevel) {
    erase_slot(active_, slot);
    pending_.erase(std::remove_if(pending_.begin() + long(pending_head_), pending_.end(),
                                  [slot](const Warp& w) { return w.slot == slot; }),
                   pending_.end());
    refill_active();
  }
}

void WarpScheduler::refill_active() {
  while (active_.size() < ready_queue_size_ && pending_head_ < pending_.size())
    active_.push_back(pending_[pending_head_++]);
  // Taken entries are dropped in bulk, not one erase from the front per warp.
  if (pending_head_ == pending_.size()) {
    pending_.clear();
    pending_head_ = 0;
  } else if (pending_head_ > 64 && pending_head_ * 2 > pending_.size()) {
    pending_.erase(pending_.begin(), pending_.begin() + long(pending_head_));
    pending_head_ = 0;
  }
}

void WarpScheduler::issued(uint32_t slot, bool long_latency) {
  switch (policy_) {
    case SchedulerPolicy::Gto:
      greedy_ = int(slot);
      break;
    case SchedulerPolicy::Lrr:
      next_ = after(warps_, slot);
      break;
    case SchedulerPolicy::TwoLevel:
      next_ = after(active_, slot);
      if (long_latency) demote(slot);
      break;
  }
}

std::size_t WarpScheduler::after(const std::vector<Warp>& order, uint32_t slot) const {
  // A slot is in an order at most once.
  if (picked_ < order.size() && order[picked_].slot == slot) return picked_ + 1;
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i].slot == slot) return i + 1;
  return next_;
}

void WarpScheduler::demote(uint32_t slot) {
  if (policy_ != SchedulerPolicy::TwoLevel) return;
  for (size_t i = 0; i < active_.size(); ++i) {
    if (active_[i].slot != slot) continue;
    pending_.push_back(active_[i]);
    active_.erase(active_.begin() + long(i));
    if (next_ > i) --next_;
    refill_active();
    return;
  }
}

std::vector<uint32_t> WarpScheduler::active_queue() const {
  std::vector<uint32_t> out;
  for (const Warp& w : active_) out.push_back(w.slot);
  return out;
}

}  // namespace warpreg

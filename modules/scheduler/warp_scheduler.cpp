#include "modules/scheduler/warp_scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace warpreg {

WarpScheduler::WarpScheduler(SchedulerPolicy policy, uint32_t ready_queue_size)
    : policy_(policy), ready_queue_size_(ready_queue_size) {
  if (ready_queue_size_ == 0) throw std::invalid_argument("sm.ready_queue must be at least 1");
  pos_of_.fill(kNoPosition);
}

void WarpScheduler::reposition(std::size_t from) {
  const uint64_t kept = from >= 64 ? ~uint64_t{0} : (uint64_t{1} << from) - 1;
  for (uint64_t& mask : class_masks_) mask &= kept;
  for (std::size_t i = from; i < warps_.size(); ++i) {
    const uint32_t slot = warps_[i].slot;
    pos_of_[slot] = static_cast<uint8_t>(i);
    class_masks_[class_of_[slot]] |= uint64_t{1} << i;
  }
}

void WarpScheduler::erase_slot(std::vector<Warp>& v, uint32_t slot) {
  v.erase(std::remove_if(v.begin(), v.end(), [slot](const Warp& w) { return w.slot == slot; }),
          v.end());
}

void WarpScheduler::add_warp(uint32_t slot, uint64_t age) {
  if (slot >= kMaxSlots || warps_.size() >= kMaxSlots)
    throw std::invalid_argument("a warp scheduler takes warp slots 0..63");
  const Warp w{slot, age};
  auto at = std::upper_bound(warps_.begin(), warps_.end(), age,
                             [](uint64_t a, const Warp& x) { return a < x.age; });
  const std::size_t position = std::size_t(at - warps_.begin());
  warps_.insert(at, w);
  reposition(position);
  if (policy_ == SchedulerPolicy::TwoLevel) {
    pending_.push_back(w);
    refill_active();
  }
}

void WarpScheduler::remove_warp(uint32_t slot) {
  const uint8_t position = pos_of_[slot];
  if (position != kNoPosition) {
    warps_.erase(warps_.begin() + position);
    pos_of_[slot] = kNoPosition;
    reposition(position);
  }
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

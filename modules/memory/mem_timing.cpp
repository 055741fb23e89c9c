#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

uint64_t Timeline::reserve(uint64_t cycle, uint64_t length) {
  if (length == 0) return cycle;
  // The first interval that ends after `cycle` (ends are increasing).
  size_t lo = first_, hi = busy_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (busy_[mid].end <= cycle) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  uint64_t t = cycle;
  size_t i = lo;
  while (i < busy_.size() && busy_[i].begin < t + length) {
    t = std::max(t, busy_[i].end);
    ++i;
  }
  busy_cycles_ += length;
  // Insert [t, t + length) before interval i, merging with the neighbours it touches.
  const bool joins_previous = i > first_ && busy_[i - 1].end == t;
  const bool joins_next = i < busy_.size() && busy_[i].begin == t + length;
  if (joins_previous && joins_next) {
    busy_[i - 1].end = busy_[i].end;
    busy_.erase(busy_.begin() + static_cast<std::ptrdiff_t>(i));
  } else if (joins_previous) {
    busy_[i - 1].end = t + length;
  } else if (joins_next) {
    busy_[i].begin = t;
  } else {
    busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(i), Interval{t, t + length});
  }
  return t;
}

void Timeline::forget_before(uint64_t cycle) {
  while (first_ < busy_.size() && busy_[first_].end <= cycle) ++first_;
  if (first_ > 32 && first_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

}  // namespace warpreg::memory

#pragma once
// A pool of identical pipelined units (Warped-Compression's compressors or
// decompressors, seed 001 §5.1), without SystemC: each unit accepts one operation
// per cycle; an operation takes the unit free earliest ("next free cycle").
#include <cstdint>
#include <vector>

namespace warpreg::bdi {

class UnitPool {
 public:
  explicit UnitPool(uint32_t units = 1) : next_free_(units, 0) {}
  uint32_t units() const { return static_cast<uint32_t>(next_free_.size()); }
  /// Reserves the unit free earliest at or after `cycle`; returns the start cycle.
  uint64_t acquire(uint64_t cycle) {
    // The first unit free earliest, picked without a branch per unit (a select).
    uint32_t best = 0;
    uint64_t earliest = next_free_[0];
    for (uint32_t u = 1; u < next_free_.size(); ++u) {
      const bool earlier = next_free_[u] < earliest;
      earliest = earlier ? next_free_[u] : earliest;
      best = earlier ? u : best;
    }
    const uint64_t start = earliest > cycle ? earliest : cycle;
    next_free_[best] = start + 1;
    ++activations_;
    if (start != cycle) {
      ++contended_;
      wait_cycles_ += start - cycle;
    }
    return start;
  }
  uint64_t activations() const { return activations_; }
  uint64_t contended() const { return contended_; }  ///< operations that waited for a unit
  uint64_t wait_cycles() const { return wait_cycles_; }

 private:
  std::vector<uint64_t> next_free_;
  uint64_t activations_ = 0, contended_ = 0, wait_cycles_ = 0;
};

}  // namespace warpreg::bdi

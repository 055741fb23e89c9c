#pragma once
// Instruction PCs to small values (an index, flags) for the designs' per-issue lookups.
// Kernels place instructions every 8 or 16 bytes, so once the map is sealed a lookup is
// an array index; irregular or sparse PCs keep the hash map. Plain C++.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace warpreg {

class PcIndex {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;  ///< no value; not a value itself

  /// The value of `pc`, created as 0 (for read-modify-write while building).
  uint32_t& operator[](uint64_t pc) {
    table_.clear();
    return map_[pc];
  }
  /// Sets `pc`'s value unless it has one (the first stands).
  void insert(uint64_t pc, uint32_t value) {
    table_.clear();
    map_.emplace(pc, value);
  }
  /// Builds the array when the PCs are dense enough; call after the last change (a change
  /// after it drops the array, and lookups go back to the hash map).
  void seal() {
    table_.clear();
    if (map_.empty()) return;
    uint64_t first = ~uint64_t(0), last = 0, spacing = 0;
    for (const auto& [pc, value] : map_) first = std::min(first, pc), last = std::max(last, pc);
    for (const auto& [pc, value] : map_) spacing = std::gcd(spacing, pc - first);
    shift_ = spacing == 0 ? 0u : static_cast<unsigned>(__builtin_ctzll(spacing));
    const uint64_t slots = ((last - first) >> shift_) + 1;
    if (slots > 4 * map_.size() + 1024) return;
    base_ = first;
    table_.assign(slots, kNone);
    for (const auto& [pc, value] : map_) table_[(pc - first) >> shift_] = value;
  }
  /// The value of `pc`, or kNone.
  uint32_t find(uint64_t pc) const {
    if (!table_.empty()) {
      const uint64_t offset = pc - base_;
      if (offset & ((uint64_t{1} << shift_) - 1)) return kNone;
      const uint64_t slot = offset >> shift_;
      return slot < table_.size() ? table_[slot] : kNone;
    }
    const auto it = map_.find(pc);
    return it == map_.end() ? kNone : it->second;
  }

 private:
  std::unordered_map<uint64_t, uint32_t> map_;
  std::vector<uint32_t> table_;  ///< sealed: value per (pc - base_) >> shift_
  uint64_t base_ = 0;
  unsigned shift_ = 0;
};

}  // namespace warpreg

#pragma once
// A set of architected registers (R0..R255), one bit each: liveness, working sets,
// release sets. Plain data shared by compiler passes and the blocks that consume them.
#include <bitset>
#include <cstdint>

namespace warpreg {

using RegisterSet = std::bitset<256>;

/// Calls `visit(reg)` for each register of `set` below `limit`, in increasing order,
/// skipping the empty words (the scan runs on the hot path of the designs).
template <typename Visit>
void for_each_register(const RegisterSet& set, uint32_t limit, Visit&& visit) {
  for (size_t r = set._Find_first(); r < limit && r < set.size(); r = set._Find_next(r))
    visit(static_cast<uint16_t>(r));
}

}  // namespace warpreg

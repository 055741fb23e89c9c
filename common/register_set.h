#pragma once
// A set of architected registers (R0..R255), one bit each: liveness, working sets,
// release sets. Plain data shared by compiler passes and the blocks that consume them.
#include <bitset>

namespace warpreg {

using RegisterSet = std::bitset<256>;

}  // namespace warpreg

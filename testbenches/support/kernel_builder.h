#pragma once
// Helpers the compiler-pass test benches share: hand-made kernels from SASS text,
// register sets from lists, and paths of the real nvdisasm CFGs.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "stimuli/compiler/liveness.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg::testing {

/// A kernel whose block i holds the SASS lines blocks[i], with the given edges.
inline Kernel make_kernel(const std::vector<std::vector<std::string>>& blocks,
                          const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  Kernel k;
  uint64_t pc = 0;
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    BasicBlock b;
    b.id = i;
    b.name = "B" + std::to_string(i);
    for (const std::string& line : blocks[i]) {
      b.insts.push_back(parse_sass(line, pc));
      pc += 8;
    }
    k.blocks.push_back(b);
  }
  for (auto [from, to] : edges) k.add_edge(from, to);
  return k;
}

inline RegisterSet regs(std::initializer_list<size_t> registers) {
  RegisterSet s;
  for (size_t r : registers) s.set(r);
  return s;
}

/// A real CFG in ../shared/data/nvdisasm-cfg.
inline std::string shared_cfg(const std::string& file) {
  return std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/" + file;
}

}  // namespace warpreg::testing

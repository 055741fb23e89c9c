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

/// B0 -> {B1 then, B2 else} -> B3. R5 is read only on the else path; R2 is written on
/// both paths and read at the reconvergence point B3.
inline Kernel diamond_kernel() {
  return make_kernel({{"MOV R5, c[0x0][0x20]", "MOV R0, c[0x0][0x24]",
                       "ISETP.GE.AND P0, PT, R0, 0x1, PT", "@P0 BRA `(.L_else)"},
                      {"IADD R2, R0, 0x1", "BRA `(.L_join)"},
                      {"IADD R2, R5, 0x2"},
                      {"STS [R0], R2", "EXIT"}},
                     {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
}

/// B0 -> B1 (header) -> {B2 body, B3 exit}; B2 -> B1. R0 (index) and R1 (sum) are
/// loop-carried, R8 (bound) is invariant, R4 is local to the body.
inline Kernel loop_kernel() {
  return make_kernel({{"MOV R0, RZ", "MOV R1, RZ", "MOV R8, c[0x0][0x20]"},
                      {"ISETP.GE.AND P0, PT, R0, R8, PT", "@P0 BRA `(.L_exit)"},
                      {"LDS R4, [R0]", "IADD R1, R1, R4", "IADD R0, R0, 0x4", "BRA `(.L_head)"},
                      {"STS [RZ], R1", "EXIT"}},
                     {{0, 1}, {1, 2}, {1, 3}, {2, 1}});
}

/// A real CFG in ../shared/data/nvdisasm-cfg.
inline std::string shared_cfg(const std::string& file) {
  return std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/" + file;
}

}  // namespace warpreg::testing

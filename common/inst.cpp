#include "common/inst.h"

namespace warpreg {

namespace {
constexpr std::array<std::string_view, kInstClassCount> kClassNames = {
    "alu", "sfu", "load", "store", "branch", "barrier", "exit"};
}

std::string_view to_string(InstClass c) { return kClassNames[static_cast<unsigned>(c)]; }

bool parse_inst_class(std::string_view text, InstClass& out) {
  for (unsigned i = 0; i < kInstClassCount; ++i) {
    if (kClassNames[i] == text) {
      out = static_cast<InstClass>(i);
      return true;
    }
  }
  return false;
}

std::string_view to_string(MemorySpace space) {
  switch (space) {
    case MemorySpace::Global:
      return "global";
    case MemorySpace::Local:
      return "local";
    case MemorySpace::Shared:
      return "shared";
    case MemorySpace::Constant:
      return "constant";
    case MemorySpace::None:
      break;
  }
  return "none";
}

}  // namespace warpreg

// Parameters of RegMutex (modules/regmutex, seed 003).
#include "common/params.h"

namespace warpreg {

void declare_regmutex_params(std::vector<ParamSpec>& out) {
  out.push_back(choice_param(
      "regmutex.mode", "shared", {"shared", "paired", "owf"},
      "Register time-sharing (design regmutex): shared = RegMutex, extended sets from a shared "
      "register "
      "pool any warp may take (SRP bitmask + LUT); paired = the paired-warps specialisation "
      "(2|B_s| + |E_s| per pair of warps); owf = Jatala et al.'s resource sharing with "
      "owner-warp-first, one acquire per lifetime, the Figure 9 comparison.",
      "seed 003 §III-B (SRP allocator), §III-C (paired warps), §IV-C (OWF [7])"));
  out.push_back(int_param("regmutex.extended_regs", 0, 0, 254, "registers",
                          "|E_s| per thread; 0: the compiler's sizing pass chooses it (§III-A2). "
                          "A forced value that breaks a deadlock rule is a configuration error.",
                          "seed 003 §IV-D: |E_s| set by hand to 2..12 for Figures 10-11"));
}

}  // namespace warpreg

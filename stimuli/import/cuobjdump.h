#pragma once
// Reads `cuobjdump -sass` listings (sm_1x and sm_20, the line style of GPGPU-Sim's
// _cuobjdump_*.sass and _cuobjdump_complete_output* files) into the static kernel IR:
// every function of every architecture in the file, each with its control-flow graph
// (branches, SSY/.S reconvergence, PBK/BRK, PCNT/CONT, CAL/RET inlined, EXIT and the
// sm_1x end-of-program bit). Reading rules: docs/kernel-ir.md.
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// What the ELF part of a complete listing says about a function's resources
/// (".text.NAME ... bar = B reg = R lmem=L smem=S"); absent from .sass files.
struct CuobjdumpResources {
  bool known = false;
  uint32_t registers = 0;     ///< reg: registers per thread the compiler allocated
  uint32_t barriers = 0;      ///< bar
  uint32_t local_bytes = 0;   ///< lmem, per thread
  uint32_t shared_bytes = 0;  ///< smem, per CTA (sm_1x includes the kernel parameters)
  uint64_t line = 0;          ///< the "bar = ..." line
};

/// One kernel listing: a function compiled for one architecture.
struct CuobjdumpFunction {
  std::string arch;                ///< "sm_10", "sm_13", "sm_20"
  std::string name;                ///< the mangled name after "Function :"
  uint64_t line = 0;               ///< the "Function :" line
  size_t listed_instructions = 0;  ///< instruction lines in the listing
  CuobjdumpResources resources;
  /// The control-flow graph: reachable instructions only, subroutines inlined at each
  /// CAL (copies after the first at PCs above the listing's), kernel.arch = arch.
  Kernel kernel;
};

struct CuobjdumpListing {
  std::string path;
  std::vector<CuobjdumpFunction> functions;  ///< in file order
};

/// True when the file's first non-blank line is "code for sm_NN" or a cuobjdump
/// "Fatbin elf code:" / "Fatbin ptx code:" header, whatever its name.
bool is_cuobjdump_listing(const std::string& path);

/// Reads every function of the listing. Throws WorkloadError("FILE:LINE:COLUMN: ...")
/// on malformed input, on control flow it cannot follow, or when the file has no SASS.
CuobjdumpListing read_cuobjdump(const std::string& path);
CuobjdumpListing read_cuobjdump(std::istream& in, const std::string& name);

/// The function a selector names: "" (the first in the file), "FUNCTION" (its first
/// architecture in the file), "sm_NN" (that architecture's first function) or
/// "sm_NN:FUNCTION". Throws WorkloadError listing what the file has.
const CuobjdumpFunction& select_cuobjdump_function(const CuobjdumpListing& listing,
                                                   const std::string& selector);

/// "sm_20:_Z6KernelP4NodePiPbS2_S1_S2_i": the selector that names exactly `function`.
std::string cuobjdump_selector(const CuobjdumpFunction& function);

}  // namespace warpreg

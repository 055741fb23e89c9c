#pragma once
// How a workload or compile argument names a file: "FILE" or "FILE:SELECTOR", where
// FILE is the longest prefix that exists (so a folder named "a.dot:b/" is just a
// folder), and what format the file holds (by its name, then by its content).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

enum class InputFormat {
  NvdisasmDot,    ///< FILE.dot
  AccelSimTrace,  ///< FILE.traceg, FILE.traceg.gz
  KernelsList,    ///< Accel-Sim kernelslist.g (an application's launches)
  Cuobjdump,      ///< a cuobjdump -sass listing, recognised by its content
  Profile,        ///< FILE.json
  WarpregTrace,   ///< anything else: a warpreg text trace (its reader judges)
};

struct InputName {
  std::string path;      ///< an existing path
  std::string selector;  ///< what follows "FILE:", "" when nothing does
};

/// The whole name when it exists, else the longest prefix before a ':' that exists,
/// with the rest as the selector; nullopt when no prefix exists.
std::optional<InputName> split_input_name(const std::string& name);

/// "nvdisasm CFG", "Accel-Sim trace", ... for messages.
std::string input_format_name(InputFormat format);

/// The format of an existing file (docs/stimuli.md, "Naming a workload").
InputFormat detect_input_format(const std::string& path);

/// One static kernel of a file, for `warpreg compile` and the corpus measurements.
struct StaticKernelEntry {
  Kernel kernel;
  std::string selector;  ///< what names it after "FILE:" (the function, "sm_20:NAME")
  /// Launch facts the file carries (0 when it has none: .dot and cuobjdump listings).
  uint32_t threads_per_cta = 0;
  uint32_t shared_mem_per_cta = 0;
  /// The compiler's registers per thread when the file says (cuobjdump ELF "reg = N").
  std::optional<uint32_t> compiler_registers;
};

/// The static kernels of an nvdisasm .dot, an Accel-Sim .traceg (its rebuilt CFG; `seed`
/// only seeds values nobody reads here), a cuobjdump listing or a kernelslist.g (each
/// launch's trace), all of them or those the selector names. Throws WorkloadError.
std::vector<StaticKernelEntry> read_static_kernels(const std::string& path,
                                                   const std::string& selector, uint64_t seed);

}  // namespace warpreg

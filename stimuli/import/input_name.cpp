#include "stimuli/import/input_name.h"

#include <filesystem>

#include "modules/interfaces/workload.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/import/application.h"
#include "stimuli/import/cuobjdump.h"
#include "stimuli/import/nvdisasm_dot.h"

namespace warpreg {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

}  // namespace

std::optional<InputName> split_input_name(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (exists(name)) return InputName{name, ""};
  for (size_t colon = name.rfind(':'); colon != std::string::npos && colon > 0;
       colon = name.rfind(':', colon - 1)) {
    const std::string prefix = name.substr(0, colon);
    if (exists(prefix)) return InputName{prefix, name.substr(colon + 1)};
  }
  return std::nullopt;
}

std::string input_format_name(InputFormat format) {
  switch (format) {
    case InputFormat::NvdisasmDot:
      return "nvdisasm CFG";
    case InputFormat::AccelSimTrace:
      return "Accel-Sim trace";
    case InputFormat::KernelsList:
      return "kernelslist";
    case InputFormat::Cuobjdump:
      return "cuobjdump listing";
    case InputFormat::Profile:
      return "profile";
    case InputFormat::WarpregTrace:
      break;
  }
  return "trace file";
}

InputFormat detect_input_format(const std::string& path) {
  if (ends_with(path, ".dot")) return InputFormat::NvdisasmDot;
  if (ends_with(path, ".traceg") || ends_with(path, ".traceg.gz"))
    return InputFormat::AccelSimTrace;
  if (is_kernels_list_name(path)) return InputFormat::KernelsList;
  if (ends_with(path, ".json")) return InputFormat::Profile;
  if (is_cuobjdump_listing(path)) return InputFormat::Cuobjdump;
  return InputFormat::WarpregTrace;
}

std::vector<StaticKernelEntry> read_static_kernels(const std::string& path,
                                                   const std::string& selector, uint64_t seed) {
  std::vector<StaticKernelEntry> out;
  switch (detect_input_format(path)) {
    case InputFormat::NvdisasmDot: {
      for (Kernel& k : read_nvdisasm_dot_functions(path)) {
        if (!selector.empty() && k.name != selector) continue;
        StaticKernelEntry e;
        e.selector = k.name;
        e.kernel = std::move(k);
        out.push_back(std::move(e));
      }
      if (out.empty()) {
        std::string names;
        for (const Kernel& k : read_nvdisasm_dot_functions(path))
          names += (names.empty() ? "" : ", ") + k.name;
        throw WorkloadError(path + ": no function '" + selector + "' (the file has: " + names +
                            ")");
      }
      return out;
    }
    case InputFormat::AccelSimTrace: {
      if (!selector.empty()) throw WorkloadError(path + ": a .traceg takes no ':' selector");
      AccelSimTraceWorkload trace(path, seed);
      StaticKernelEntry e;
      e.kernel = trace.static_kernel();
      e.threads_per_cta = trace.shape().threads_per_cta;
      e.shared_mem_per_cta = trace.shape().shared_mem_per_cta;
      out.push_back(std::move(e));
      return out;
    }
    case InputFormat::KernelsList: {
      if (!selector.empty()) throw WorkloadError(path + ": a kernelslist.g takes no ':' selector");
      for (const ApplicationLaunch& launch : read_kernels_list(path).launches) {
        std::vector<StaticKernelEntry> one = read_static_kernels(launch.workload, "", seed);
        for (StaticKernelEntry& e : one) {
          e.selector = launch.kernel;
          out.push_back(std::move(e));
        }
      }
      return out;
    }
    case InputFormat::Cuobjdump: {
      const CuobjdumpListing listing = read_cuobjdump(path);
      auto add = [&](const CuobjdumpFunction& f) {
        StaticKernelEntry e;
        e.kernel = f.kernel;
        e.selector = cuobjdump_selector(f);
        if (f.resources.known) e.compiler_registers = f.resources.registers;
        out.push_back(std::move(e));
      };
      const bool arch_only =
          selector.rfind("sm_", 0) == 0 && selector.find(':') == std::string::npos;
      if (!selector.empty() && !arch_only) {
        add(select_cuobjdump_function(listing, selector));
        return out;
      }
      if (arch_only) select_cuobjdump_function(listing, selector);  // names what exists
      for (const CuobjdumpFunction& f : listing.functions)
        if (!arch_only || f.arch == selector) add(f);
      return out;
    }
    case InputFormat::Profile:
    case InputFormat::WarpregTrace:
      break;
  }
  throw WorkloadError(path +
                      ": not a static kernel (an nvdisasm .dot, an Accel-Sim .traceg, a "
                      "kernelslist.g or a cuobjdump listing)");
}

}  // namespace warpreg

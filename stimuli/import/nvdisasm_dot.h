#pragma once
// Reads the control-flow graphs nvdisasm prints with -cfg (Graphviz .dot) into the
// static kernel IR. Reading rules: docs/kernel-ir.md.
#include <istream>
#include <string>
#include <vector>

#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// Every function of the file (one per `subgraph "cluster_NAME"`), in file order.
/// Throws WorkloadError "FILE:LINE: message" on malformed input.
std::vector<Kernel> read_nvdisasm_dot_functions(std::istream& in, const std::string& name);
std::vector<Kernel> read_nvdisasm_dot_functions(const std::string& path);

/// The first function of the file (the kernel nvdisasm printed first).
Kernel read_nvdisasm_dot(std::istream& in, const std::string& name);
Kernel read_nvdisasm_dot(const std::string& path);

}  // namespace warpreg

#pragma once
// Opening a workload by name: the stimulus layer's entry point.
#include <memory>
#include <string>

#include "modules/interfaces/workload.h"

namespace warpreg {

class Params;

/// Opens a workload by name: "synthetic" (the built-in generator, configured by
/// the synth.* parameters), a shipped profile name or a profile .json, an nvdisasm
/// FILE.dot[:FUNCTION], an Accel-Sim .traceg, or a warpreg text trace
/// (docs/stimuli-driver.md). Throws WorkloadError naming the file.
std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params);

}  // namespace warpreg

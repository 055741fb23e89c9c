#pragma once
// A workload read from an Accel-Sim SASS trace (`kernel-N.traceg`, NVBit tracer
// versions 4 and 5; docs/accelsim-import.md). The whole trace is parsed and checked
// up front and every warp stream is kept in memory. Accel-Sim traces carry no
// register values, so destination values come from a seeded value model.
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "stimuli/compiler/pass_registry.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

class Params;

/// True for a workload name open_workload() hands to this importer: a path ending in ".traceg".
bool is_accelsim_trace_name(const std::string& name);
/// The trace at `path`, its values seeded by sim.seed.
std::unique_ptr<Workload> open_accelsim_trace(const std::string& path, const Params& params);

class AccelSimTraceWorkload : public Workload {
 public:
  /// Reads the trace at `path`; `seed` (sim.seed) drives the destination values.
  /// Throws WorkloadError("PATH:LINE: ...") on any malformed or incomplete input.
  AccelSimTraceWorkload(const std::string& path, uint64_t seed);
  /// Reads a trace from `in`; `source_name` stands for the file in messages.
  AccelSimTraceWorkload(std::istream& in, std::string source_name, uint64_t seed);

  const KernelShape& shape() const override { return shape_; }
  /// The stored stream, played in the slot. Throws WorkloadError for a (cta, warp)
  /// outside the kernel's shape.
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;

  /// Dynamic warp instructions in the whole trace.
  uint64_t total_instructions() const { return total_instructions_; }
  /// The static CFG reconstructed from the PCs every warp executed (docs/accelsim-import.md):
  /// the input of the compiler passes. Only paths some warp took are in it.
  const Kernel& static_kernel() const { return static_kernel_; }
  const Kernel* static_code() const override { return &static_kernel_; }
  MetadataSource& metadata() override { return metadata_; }
  /// The header's -nregs, or 0 when the header has none.
  uint32_t header_nregs() const { return header_nregs_; }
  /// Inconsistencies that do not stop the import ("FILE:LINE: ..."); each one is
  /// also printed once to stderr when the trace is read.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void parse(std::istream& in);

  std::string source_name_;
  uint64_t seed_;
  KernelShape shape_;
  std::vector<WarpTrace> streams_;
  StoredStreamSlots slots_;
  /// streams_ index of warp w of CTA c at c * warps_per_cta + w.
  std::vector<uint32_t> stream_of_warp_;
  uint64_t total_instructions_ = 0;
  uint32_t header_nregs_ = 0;
  std::vector<std::string> warnings_;
  Kernel static_kernel_;
  KernelMetadataSource metadata_{&static_kernel_};  ///< compiler passes over the static code

  friend class AccelSimParser;
};

}  // namespace warpreg

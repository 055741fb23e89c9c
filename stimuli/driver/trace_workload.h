#pragma once
// A workload read from a warpreg text trace (docs/trace-format.md). The whole
// trace is parsed and checked up front and every warp stream is kept in memory.
#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "modules/interfaces/workload.h"

namespace warpreg {

class TraceWorkload : public Workload {
 public:
  /// Reads the trace at `path`. Throws WorkloadError("PATH:LINE: ...") on any
  /// malformed or incomplete input, and names the path when it cannot be opened.
  explicit TraceWorkload(const std::string& path);
  /// Reads a trace from `in`; `source_name` stands for the file in messages.
  TraceWorkload(std::istream& in, std::string source_name);

  const KernelShape& shape() const override { return shape_; }
  /// The stored stream, played in the slot. Throws WorkloadError for a (cta, warp)
  /// outside the kernel's shape.
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override { return "trace " + source_name_; }

  /// Dynamic warp instructions in the whole trace.
  uint64_t total_instructions() const { return total_instructions_; }

 private:
  void parse(std::istream& in);

  std::string source_name_;
  KernelShape shape_;
  std::vector<WarpTrace> streams_;
  StoredStreamSlots slots_;
  /// streams_ index of warp w of CTA c at c * warps_per_cta + w.
  std::vector<uint32_t> stream_of_warp_;
  uint64_t total_instructions_ = 0;
};

/// Writes every warp of `workload` as a version-1 trace, warps in (cta, warp)
/// order and each value in its shortest form (const:, affine: or 32 words), so
/// a synthetic workload can be replayed by an RTL testbench or edited by hand.
void write_trace(Workload& workload, std::ostream& out);

}  // namespace warpreg

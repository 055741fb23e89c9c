#pragma once
// The warp-trace driver's interface to the SM: a kernel's launch shape and, per
// warp, its stream of dynamic warp instructions with destination values.
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/inst.h"
#include "common/warp_register.h"

namespace warpreg {

class MetadataSource;
struct Kernel;

/// What a kernel launch asks of an SM.
struct KernelShape {
  std::string name;
  uint32_t ctas = 1;  ///< CTAs in the grid
  uint32_t threads_per_cta = 32;
  uint32_t regs_per_thread = 16;    ///< architected registers per thread
  uint32_t shared_mem_per_cta = 0;  ///< bytes
  uint32_t warps_per_cta() const { return (threads_per_cta + 31) / 32; }
};

/// One warp's dynamic instructions, ending with an Exit instruction.
struct WarpStream {
  std::vector<WarpInst> insts;
  /// Destination values; WarpInst::value_index points here.
  std::vector<WarpRegister> values;
  void clear() {
    insts.clear();
    values.clear();
  }
};

/// Where a memory instruction executes in the grid, for address models.
struct GridSite {
  uint64_t warp = 0;        ///< the warp's index in the grid (CTA x warps per CTA + warp)
  uint64_t grid_warps = 1;  ///< warps in the grid
};

/// Bad stimulus input: the message names the file and line (or option).
class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const KernelShape& shape() const = 0;
  /// The instruction stream of warp `warp` of CTA `cta`, loaded into hardware warp
  /// slot `slot`. The reference stays valid until the same slot is loaded again,
  /// so a generator may reuse one buffer per slot.
  virtual const WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) = 0;
  /// A line for reports: "trace FILE" or "synthetic PROFILE seed S".
  virtual std::string describe() const = 0;
  /// The static kernel the streams execute (WarpInst::pc is a StaticInst's pc and
  /// source k is its src[k]), for the stimulus layer's compiler passes; nullptr when
  /// the workload has none. Opaque to the platform and the designs.
  virtual const Kernel* static_code() const { return nullptr; }
  /// The compiler metadata of this kernel (kernel_metadata.h): the stimulus layer's
  /// passes over static_code(), or none.
  virtual MetadataSource& metadata();
  /// The lane addresses of a global, shared or constant load or store that carries none
  /// (WarpInst::mem not traced), from the workload's address model of its PC
  /// (docs/memory.md, "Address models"); inactive lanes are left alone. False when the
  /// workload has no model, so the SM uses its default. Local accesses never ask: their
  /// addresses follow from WarpInst::mem_tag and the hardware thread.
  virtual bool lane_addresses(const WarpInst& inst, const GridSite& site,
                              std::array<uint64_t, kWarpSize>& out) const {
    (void)inst, (void)site, (void)out;
    return false;
  }
};

}  // namespace warpreg

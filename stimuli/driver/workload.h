#pragma once
// The warp-trace driver's interface to the SM: a kernel's launch shape and, per
// warp, its stream of dynamic warp instructions with destination values.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "modules/common/inst.h"
#include "modules/common/warp_register.h"

namespace warpreg {

class Params;
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
  /// source k is its src[k]), for designs that need compiler metadata (release
  /// flags, register-intervals, |E_s|); nullptr when the workload has none.
  virtual const Kernel* static_code() const { return nullptr; }
};

/// Opens a workload by name: "synthetic" (the built-in generator, configured by
/// the synth.* parameters), a shipped profile name or a profile .json, an nvdisasm
/// FILE.dot[:FUNCTION], an Accel-Sim .traceg, or a warpreg text trace
/// (docs/stimuli-driver.md). Throws WorkloadError naming the file.
std::unique_ptr<Workload> open_workload(const std::string& name, const Params& params);

/// Reference copy of every warp register, written at writeback; every operand the
/// platform delivers is compared against it.
class ShadowRegisterFile {
 public:
  struct Mismatch {
    uint32_t warp_slot = 0;
    uint16_t reg = 0;
    uint64_t pc = 0;
    uint32_t lane = 0;
    uint32_t expected = 0;
    uint32_t got = 0;
  };

  ShadowRegisterFile(uint32_t warp_slots, uint32_t regs_per_warp_max);
  /// Forgets a slot's values (CTA launch): unwritten lanes are never compared.
  void reset_warp(uint32_t slot);
  void write(uint32_t slot, uint16_t reg, LaneMask mask, const WarpRegister& value);
  /// Compares the lanes in `mask` that have been written; counts the check and returns
  /// false on a mismatch (the first one is kept).
  bool check(uint32_t slot, uint16_t reg, uint64_t pc, LaneMask mask, const WarpRegister& got);

  uint64_t checked_reads() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  bool has_mismatch() const { return mismatches_ != 0; }
  const Mismatch& first_mismatch() const { return first_; }

 private:
  uint32_t regs_;
  std::vector<WarpRegister> values_;
  std::vector<LaneMask> written_;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  Mismatch first_;
};

}  // namespace warpreg

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

/// A warp's whole dynamic stream held in memory, ending with an Exit instruction: what
/// a trace file stores and what a test writes by hand (played by StoredWarpStream).
struct WarpTrace {
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
  /// Which execution of the instruction by this warp it is (WarpInst::mem_tag for an
  /// instruction that declares its space, else its index in the warp's stream).
  uint64_t instance = 0;
};

/// One warp's dynamic instructions, ending with an Exit instruction, produced on demand
/// so that memory follows the instructions in flight, not the stream's length. The
/// consumer asks for instructions in any order within the window it has not retired,
/// and retires each when it is done with it (in any order).
class WarpStream {
 public:
  virtual ~WarpStream() = default;
  WarpStream() = default;
  WarpStream(const WarpStream&) = delete;
  WarpStream& operator=(const WarpStream&) = delete;

  /// Instruction `index` (0 is the first): produced on the first request. The index must
  /// not be retired nor lie past the Exit. The reference stays valid until the next call
  /// of at() with an index not produced yet.
  const WarpInst& at(uint32_t index) {
    if (index - first_ >= produced_ - first_) produce_through(index);
    return insts_[index & inst_mask_];
  }
  /// Destination value `k` of `inst`, an instruction at() returned and not yet retired.
  const WarpRegister& value(const WarpInst& inst, unsigned k) const {
    return values_[(inst.value_index + k) & value_mask_];
  }
  /// The consumer is done with instruction `index` (produced, not retired before).
  void retire(uint32_t index);
  /// Instructions produced and not yet reclaimed: what the stream holds.
  uint32_t held() const { return produced_ - first_; }

 protected:
  /// Produces at least one more instruction with emit(); the last one of the warp is an
  /// Exit. Never called after the Exit was produced.
  virtual void generate() = 0;
  /// Forgets every instruction: the stream starts again at index 0 (a new warp).
  void restart();
  /// The value_index the next emitted instruction takes for its first destination.
  uint32_t next_value_index() const { return values_end_; }
  /// Appends a destination value (the next instruction's, in destination order).
  WarpRegister& emit_value();
  /// Appends an instruction; its value_index must be next_value_index() before its values.
  void emit(const WarpInst& inst);

 private:
  void produce_through(uint32_t index);

  std::vector<WarpInst> insts_;  ///< ring: instruction i at i & inst_mask_
  std::vector<uint8_t> retired_;
  std::vector<WarpRegister> values_;  ///< ring: value v at v & value_mask_
  uint32_t inst_mask_ = ~0u;          ///< capacity - 1 (a power of two); the empty ring grows first
  uint32_t value_mask_ = ~0u;
  uint32_t first_ = 0;     ///< oldest instruction held (every earlier one retired)
  uint32_t produced_ = 0;  ///< instructions produced
  uint32_t values_first_ = 0, values_end_ = 0;
  bool exit_produced_ = false;
};

/// Plays a WarpTrace held elsewhere (a trace file's warp, a test's stream).
class StoredWarpStream : public WarpStream {
 public:
  /// Starts playing `trace`, which must outlive the playing and end with an Exit.
  void play(const WarpTrace& trace);

 private:
  void generate() override;
  const WarpTrace* trace_ = nullptr;
  size_t next_ = 0;
};

/// One StoredWarpStream per hardware slot: how a workload of stored traces (a trace
/// file, a test's hand-written warps) hands them out.
class StoredStreamSlots {
 public:
  /// Plays `trace` in `slot`; the slot's previous warp is over.
  WarpStream& play(uint32_t slot, const WarpTrace& trace);

 private:
  std::vector<std::unique_ptr<StoredWarpStream>>
      slots_;  ///< held by pointer: the SM keeps references
};

/// Calls visit(inst, index) for every instruction of `stream` from index 0 to its Exit,
/// retiring each after its visit (stream.value(inst, k) gives its values meanwhile).
template <typename Visit>
void visit_stream(WarpStream& stream, Visit&& visit) {
  for (uint32_t i = 0;; ++i) {
    const WarpInst& inst = stream.at(i);
    const bool exit = inst.cls == InstClass::Exit;
    visit(inst, i);
    stream.retire(i);
    if (exit) return;
  }
}

/// Every instruction of `stream` from index 0 to its Exit, with values, retiring each:
/// for tests and tools that want a warp whole (memory grows with the stream's length).
WarpTrace record(WarpStream& stream);

/// Bad stimulus input: the message names the file and line (or option).
class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a workload noticed while producing its streams that a run's report must show.
struct WorkloadNotes {
  /// Warps an instruction cap cut short (they end with an exit where the cap fell).
  uint64_t capped_warps = 0;
  /// Register operands of static instructions beyond the kMaxDst destinations or kMaxSrc
  /// sources a WarpInst carries: not sent to the register file.
  uint64_t dropped_operands = 0;
  /// Set when capped warps make the run fail (the user did not accept them): the error.
  std::string capped_failure;
  /// Set when operands were dropped: where and what, for a warning.
  std::string dropped_warning;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const KernelShape& shape() const = 0;
  /// The instruction stream of warp `warp` of CTA `cta`, loaded into hardware warp
  /// slot `slot`, from its first instruction. The reference stays valid until the same
  /// slot is loaded again, so a generator keeps one stream per slot.
  virtual WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) = 0;
  /// A line for reports: "trace FILE" or "synthetic PROFILE seed S".
  virtual std::string describe() const = 0;
  /// The static kernel the streams execute (WarpInst::pc is a StaticInst's pc and
  /// source k is its src[k]), for the stimulus layer's compiler passes; nullptr when
  /// the workload has none. Opaque to the platform and the designs.
  virtual const Kernel* static_code() const { return nullptr; }
  /// What the streams produced so far call for in the report (see WorkloadNotes).
  virtual WorkloadNotes notes() const { return {}; }
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

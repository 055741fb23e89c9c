#pragma once
// Executes a static kernel (stimuli/kernel/kernel_ir.h) warp by warp with a SIMT
// stack: active masks, divergence at branches, reconvergence at the immediate
// post-dominator, loops with trip counts, predicated instructions and EXIT.
// Branch outcomes and register values come from a seeded model, so a warp's
// stream depends only on (seed, cta, warp). Execution model: docs/stimuli-driver.md.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/pc_index.h"
#include "modules/interfaces/workload.h"
#include "modules/memory/address_model.h"
#include "stimuli/compiler/pass_registry.h"
#include "stimuli/driver/value_model.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

/// How a kernel is launched and how its data-dependent decisions fall.
struct KernelRunConfig {
  uint64_t seed = 1;
  /// Launch shape; regs_per_thread must cover every register the kernel names.
  KernelShape shape;
  /// Times a lane takes a loop's back edge each time it enters the loop, for
  /// loops not listed in trip_counts.
  uint32_t default_trip_count = 4;
  /// Back edges taken per entry, by loop header block id.
  std::map<uint32_t, uint32_t> trip_counts;
  /// Per-lane spread of trip counts: on each entry a lane takes the back edge
  /// T + u times, u uniform in [0, round(T x trip_spread)], so lanes leave a loop
  /// at different iterations (data-dependent loops such as a graph node's edges).
  double trip_spread = 0;
  /// Probability that a data-dependent branch (or predicate) splits the active
  /// lanes rather than sending them all one way.
  double divergence = 0.2;
  /// Probability that a data-dependent branch that does not split is taken.
  double taken = 0.5;
  /// Probability that a guarded EXIT retires some lanes (a suffix of the warp,
  /// as a bounds check on the thread index does).
  double early_exit = 0.05;
  /// Value model of every destination, drawn once per static destination.
  ValueMix values;
  /// Share of static destinations that take their register's model instead of
  /// their own: compiled code keeps one variable in a register across several
  /// writes (a loop counter, an address), so old and new lanes look alike.
  double register_values = 0.65;
  /// The benchmark's address models (kernel.address_mix), for the memory system; none:
  /// instructions keep the space their opcode names and the SM's default models.
  std::optional<memory::AddressMix> address_mix;
  /// Dynamic instructions per warp at most, the final exit included (>= 1); a warp
  /// that reaches it ends there with an exit, and the run fails unless allow_capped.
  uint64_t max_insts_per_warp = 100000;
  /// Accept warps the cap cut short (kernel.allow_capped): the run still ends "ok".
  bool allow_capped = false;
};

/// The execution model of a static kernel from a file (nvdisasm .dot, cuobjdump): the
/// dot.* parameters, sim.seed and kernel.max_insts_per_warp, with `shape` as the launch.
KernelRunConfig static_kernel_run_config(const Params& params, KernelShape shape);

class KernelWorkload : public Workload {
 public:
  /// Analyses the kernel (loops, post-dominators, operands). `description` is the
  /// report line's subject ("kernel FILE:FUNCTION"). Throws WorkloadError naming
  /// the kernel for an empty kernel or a shape that does not fit it.
  KernelWorkload(Kernel kernel, KernelRunConfig config, std::string description);

  const KernelShape& shape() const override { return config_.shape; }
  /// The warp's stream, executed block by block as the SM asks for instructions.
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;

  const Kernel& kernel() const { return kernel_; }
  const Kernel* static_code() const override { return &kernel_; }
  MetadataSource& metadata() override { return metadata_; }
  const KernelRunConfig& config() const { return config_; }
  /// Loop headers (block ids) found by the analysis, in increasing order.
  std::vector<uint32_t> loop_headers() const;
  /// The blocks of the loop whose header is loop_headers()[l], by block id.
  const std::vector<bool>& loop_body(size_t l) const { return loops_.at(l).body; }
  /// Register operands the WarpInst format could not carry (beyond kMaxDst
  /// destinations or kMaxSrc sources of one static instruction): dropped.
  uint64_t dropped_operands() const { return dropped_operands_; }
  /// Warps (of those executed to their end so far) whose stream the instruction cap cut short.
  uint64_t capped_warps() const { return capped_warps_; }
  WorkloadNotes notes() const override;
  /// Addresses of a memory instruction from the address mix's model of its PC.
  bool lane_addresses(const WarpInst& inst, const GridSite& site,
                      std::array<uint64_t, kWarpSize>& out) const override;

 private:
  /// One static instruction, decoded once into what execution needs.
  struct Op {
    WarpInst proto;     ///< pc, class, operands; active and value_index set per execution
    int8_t guard = -1;  ///< guard predicate, -1 none
    bool guard_negated = false;
    bool exits = false;        ///< EXIT or RET: the executing lanes retire
    uint8_t pred_writes = 0;   ///< bit p: writes predicate P(p)
    uint32_t value_specs = 0;  ///< index of dst[0]'s entry in value_specs_
    /// A memory instruction whose space is known: mem_tag counts its executions per warp.
    bool counts_executions = false;
  };
  /// Where each outgoing edge of a block leads, for the per-lane decision.
  struct Edge {
    uint32_t to = 0;
    int32_t back_edge_of = -1;     ///< loop whose back edge this is, -1 if none
    std::vector<uint32_t> leaves;  ///< loops the edge leaves (their counters reset)
  };
  struct BlockInfo {
    uint32_t first_op = 0, end_op = 0;
    std::vector<Edge> edges;
    int32_t taken_edge = -1;        ///< the branch target's edge, -1 if unknown
    int32_t fallthrough_edge = -1;  ///< the next block's edge, -1 if none
    /// The innermost loop this block may leave or repeat, -1 if none: lanes stay
    /// while their back-edge count is below the loop's trip count.
    int32_t deciding_loop = -1;
    uint32_t reconvergence = 0;  ///< ipdom, or kNever
  };
  struct Loop {
    uint32_t header = 0;
    uint32_t trip_count = 0;
    std::vector<bool> body;  ///< by block id
  };
  struct StackEntry {
    uint32_t block;
    uint32_t reconvergence;
    LaneMask mask;
  };
  static constexpr uint32_t kNever = 0xFFFFFFFFu;

  /// One hardware slot's warp under execution: the SIMT stack and the per-lane loop
  /// state, resumed where the last batch of instructions stopped.
  class Execution : public WarpStream {
   public:
    explicit Execution(KernelWorkload& owner);
    void start(uint32_t cta, uint32_t warp);

   private:
    void generate() override;
    LaneMask split_or_uniform(LaneMask active);
    LaneMask guard_lanes(const Op& op, LaneMask active, bool exit_reader);
    /// Per-lane successor choice at the end of a block; fills lanes_per_edge_.
    void choose_edges(uint32_t block, LaneMask active);
    /// Follows the edges chosen for the lanes of the block just executed.
    void leave_block();
    void emit_op(const Op& op, LaneMask active, InstClass cls);
    /// Ends the warp with an exit unless it issued one; `capped` when the cap cut it.
    void finish(bool capped);
    /// A lane's back-edge count for its next entry into loop `l`.
    uint32_t draw_trip(uint32_t l);

    KernelWorkload& owner_;
    Rng rng_{0};
    std::vector<StackEntry> stack_;
    std::vector<std::array<uint32_t, kWarpSize>> back_edges_taken_;  ///< per loop, per lane
    std::vector<std::array<uint32_t, kWarpSize>> trip_limit_;        ///< per loop, per lane
    std::array<LaneMask, 8> predicate_{};
    uint8_t predicate_known_ = 0;
    uint32_t first_thread_ = 0;  ///< global thread index of lane 0
    LaneMask alive_ = 0;         ///< lanes that have not exited
    LaneMask last_mask_ = 0;     ///< the mask of the last instruction issued
    uint64_t block_visits_ = 0;
    uint64_t emitted_ = 0;
    bool exited_ = false;  ///< the last instruction emitted was an Exit
    // Where the block under execution stands: its next op and the lanes running it.
    bool in_block_ = false;
    uint32_t block_ = 0;
    uint32_t op_ = 0;
    LaneMask lanes_ = 0;
    std::vector<LaneMask> lanes_per_edge_;
    std::vector<int32_t> stay_edges_, leave_edges_;
    std::vector<uint32_t> executions_;  ///< per op: times this warp executed it
  };

  void analyse();
  void find_loops();
  /// The memory space, access size and address model of a load or store (docs/memory.md,
  /// "Address models"); nothing for other instructions.
  void assign_memory(Op& op, const StaticInst& inst);

  Kernel kernel_;
  KernelMetadataSource metadata_{&kernel_};  ///< compiler passes over the static code
  KernelRunConfig config_;
  std::string description_;
  std::vector<Op> ops_;
  std::vector<BlockInfo> blocks_;
  std::vector<Loop> loops_;
  std::vector<LaneValueSpec> value_specs_;
  std::vector<memory::AddressModel> address_models_;
  PcIndex address_model_of_pc_;  ///< index into address_models_
  uint64_t exit_pc_ = 0;
  uint64_t dropped_operands_ = 0;
  uint64_t first_dropped_pc_ = 0;
  uint64_t capped_warps_ = 0;
  std::vector<std::unique_ptr<Execution>> slots_;
};

}  // namespace warpreg

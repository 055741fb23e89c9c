#pragma once
// The built-in workload: a random straight-line kernel whose shape, instruction
// mix, dependence distance, divergence and value similarity follow the synth.*
// parameters. Deterministic for a given seed, and a warp's stream depends only on
// (seed, cta, warp), never on the order warps are loaded.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "modules/interfaces/workload.h"
#include "stimuli/driver/value_model.h"

namespace warpreg {

class Params;

enum class ValueModel : uint8_t {
  Similar,  ///< lanes relate like real GPU registers (seed 001 §3, Fig. 2)
  Uniform,  ///< every lane an independent random word
  Mixed     ///< each static instruction is Similar or Uniform with equal odds
};

struct SyntheticConfig {
  uint64_t seed = 1;
  uint32_t ctas = 120;
  uint32_t threads_per_cta = 256;
  uint32_t regs_per_thread = 21;
  uint32_t shared_mem_per_cta = 0;
  uint32_t insts_per_warp = 400;  ///< including the final exit
  double frac_sfu = 0.05;
  double frac_load = 0.15;
  double frac_store = 0.05;
  double frac_branch = 0.05;
  double divergence = 0.1;   ///< long-run fraction of instructions with a partial mask
  double divergent_run = 8;  ///< mean length of a run of divergent instructions
  double dep_distance = 4;   ///< mean distance in instructions back to a source's producer
  ValueModel value_model = ValueModel::Similar;
  uint32_t barrier_every = 0;  ///< every N-th instruction is a barrier; 0: none

  /// Reads the synth.* parameters and sim.seed.
  static SyntheticConfig from_params(const Params& params);
};

class SyntheticWorkload : public Workload {
 public:
  /// The first instructions of the kernel's static code are generated once and shared
  /// by every warp (at most this many: memory stays bounded for any program length);
  /// each warp generates the rest itself, continuing the same static generator.
  static constexpr uint32_t kSharedStaticInsts = 8192;

  /// Builds the kernel's static code. Throws WorkloadError naming the synth.*
  /// option for an inconsistent configuration (e.g. fractions summing above 1).
  /// `shared_static_insts`: how many static instructions are kept for all warps (tests
  /// compare smaller caches; the streams do not depend on it).
  explicit SyntheticWorkload(const SyntheticConfig& config,
                             uint32_t shared_static_insts = kSharedStaticInsts);

  const KernelShape& shape() const override { return shape_; }
  /// The warp's stream, generated as the SM asks for it.
  WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;
  const SyntheticConfig& config() const { return config_; }

  /// How the lanes of one destination value relate (one per static destination).
  enum class LanePattern : uint8_t { Same, Affine, Delta128, Delta32K, Random };

 private:
  struct ValueShape {
    LanePattern pattern = LanePattern::Random;
    uint32_t stride = 0;  ///< lane step of an Affine value
  };
  /// One instruction of the kernel's static code: the same in every warp.
  struct StaticInst {
    WarpInst inst;  ///< without the warp's active mask and value index
    ValueShape shape;
  };
  /// Instructions back a source may find its producer in a long program; a farther
  /// pick reads a random register, as a pick before the first instruction does.
  static constexpr size_t kMaxProducerHistory = size_t{1} << 16;

  /// Generates the static code instruction by instruction: the same draws of the same
  /// generator for every warp, so the same PC is the same instruction everywhere.
  class StaticGenerator {
   public:
    explicit StaticGenerator(const SyntheticConfig& config);
    /// The next static instruction (index() before the call).
    void next(const SyntheticConfig& config, StaticInst& out);
    uint32_t index() const { return index_; }

   private:
    uint16_t pick_source(const SyntheticConfig& config);

    Rng rng_;
    uint32_t index_ = 0;  ///< next instruction to generate
    /// Ring of the latest producer at or before each recent instruction.
    std::vector<uint16_t> latest_producer_;
  };

  /// Static instruction `index` (< shared_static_insts_), generated on first request.
  const StaticInst& shared_static(uint32_t index);

  /// One hardware slot's warp: the kernel's straight-line code generated instruction by
  /// instruction (the same for every warp) together with the warp's masks and values,
  /// so memory does not grow with synth.insts_per_warp.
  class Stream : public WarpStream {
   public:
    explicit Stream(SyntheticWorkload& owner);
    void start(uint32_t cta, uint32_t warp);

   private:
    void generate() override;

    SyntheticWorkload& owner_;
    /// The static code past the shared instructions: the owner's generator as it stood
    /// after them, continued by this warp (set when the warp gets there).
    std::unique_ptr<StaticGenerator> own_code_;
    bool own_code_started_ = false;  ///< own_code_ holds this warp's generator
    StaticInst own_inst_;            ///< the last instruction own_code_ generated
    Rng rng_{0};                     ///< this warp's masks and values
    uint32_t index_ = 0;             ///< next instruction to generate
    bool divergent_ = false;
    LaneMask divergent_mask_ = kFullMask;
  };

  SyntheticConfig config_;
  KernelShape shape_;
  /// Probability that a converged instruction starts a divergent run, and that a
  /// divergent one ends it; chosen so the long-run divergent fraction is config_.divergence.
  double divergence_start_ = 0;
  double divergence_end_ = 1;
  uint32_t shared_static_insts_;
  std::vector<StaticInst> shared_code_;  ///< the first static instructions, for every warp
  StaticGenerator code_generator_;       ///< stands after shared_code_'s last instruction
  std::vector<std::unique_ptr<Stream>> slots_;
};

std::string_view to_string(ValueModel model);

}  // namespace warpreg

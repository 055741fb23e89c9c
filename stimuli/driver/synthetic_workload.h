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
  /// Builds the kernel's static code. Throws WorkloadError naming the synth.*
  /// option for an inconsistent configuration (e.g. fractions summing above 1).
  explicit SyntheticWorkload(const SyntheticConfig& config);

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
  /// Instructions back a source may find its producer in a long program; a farther
  /// pick reads a random register, as a pick before the first instruction does.
  static constexpr size_t kMaxProducerHistory = size_t{1} << 16;

  /// One hardware slot's warp: the kernel's straight-line code generated instruction by
  /// instruction (the same for every warp) together with the warp's masks and values,
  /// so memory does not grow with synth.insts_per_warp.
  class Stream : public WarpStream {
   public:
    explicit Stream(const SyntheticWorkload& owner);
    void start(uint32_t cta, uint32_t warp);

   private:
    void generate() override;
    uint16_t pick_source();

    const SyntheticWorkload& owner_;
    Rng static_rng_{0};   ///< the kernel's code: seeded alike for every warp
    Rng rng_{0};          ///< this warp's masks and values
    uint32_t index_ = 0;  ///< next instruction to generate
    /// Ring of the latest producer at or before each recent instruction.
    std::vector<uint16_t> latest_producer_;
    bool divergent_ = false;
    LaneMask divergent_mask_ = kFullMask;
  };

  SyntheticConfig config_;
  KernelShape shape_;
  /// Probability that a converged instruction starts a divergent run, and that a
  /// divergent one ends it; chosen so the long-run divergent fraction is config_.divergence.
  double divergence_start_ = 0;
  double divergence_end_ = 1;
  std::vector<std::unique_ptr<Stream>> slots_;
};

std::string_view to_string(ValueModel model);

}  // namespace warpreg

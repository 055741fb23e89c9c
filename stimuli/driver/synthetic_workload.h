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
  /// Generates the warp's stream into the slot's reusable buffer.
  const WarpStream& load_warp(uint32_t slot, uint32_t cta, uint32_t warp) override;
  std::string describe() const override;
  const SyntheticConfig& config() const { return config_; }

  /// How the lanes of one destination value relate (one per static destination).
  enum class LanePattern : uint8_t { Same, Affine, Delta128, Delta32K, Random };

 private:
  struct ValueShape {
    LanePattern pattern = LanePattern::Random;
    uint32_t stride = 0;  ///< lane step of an Affine value
  };

  void build_program();

  SyntheticConfig config_;
  KernelShape shape_;
  /// The kernel's straight-line code, shared by every warp: the same PC is the
  /// same static instruction in every warp, as on a SIMT machine.
  std::vector<WarpInst> program_;
  /// value_shapes_[WarpInst::value_index + k]: the pattern of the k-th destination.
  std::vector<ValueShape> value_shapes_;
  /// Probability that a converged instruction starts a divergent run, and that a
  /// divergent one ends it; chosen so the long-run divergent fraction is config_.divergence.
  double divergence_start_ = 0;
  double divergence_end_ = 1;
  /// One buffer per hardware slot, held by pointer so references survive growth.
  std::vector<std::unique_ptr<WarpStream>> slots_;
};

std::string_view to_string(ValueModel model);

}  // namespace warpreg

#pragma once
// Per-lane register values for generated workloads, and the value-similarity
// bins of Warped-Compression (seed 001 §3, Figure 2) to measure them with.
// Plain C++; docs/stimuli-driver.md describes the models and the bins.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/warp_register.h"

namespace warpreg {

class Workload;

// ---------------------------------------------------------------- random numbers

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Independent random streams per (seed, cta, warp); static code generation uses
/// cta = warp = all ones, which no launch can name.
inline uint64_t stream_seed(uint64_t seed, uint32_t cta, uint32_t warp) {
  return splitmix64(splitmix64(splitmix64(seed) ^ cta) ^ (uint64_t{warp} << 32));
}

/// xoshiro256** (Blackman and Vigna): a few cycles per 64 random bits.
class Rng {
 public:
  explicit Rng(uint64_t seed) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (uint64_t& word : state_) {
      seed = splitmix64(seed);
      word = seed;
    }
  }
  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  uint32_t next32() { return static_cast<uint32_t>(next() >> 32); }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double probability) { return uniform() < probability; }
  /// Uniform in [0, n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>((uint64_t{next32()} * n) >> 32); }
  /// Geometric on {1, 2, ...} with the given mean (>= 1).
  uint32_t geometric(double mean) {
    if (mean <= 1) return 1;
    // Callers draw many times with one mean: its logarithm is kept, not recomputed.
    if (mean != geometric_mean_) {
      geometric_mean_ = mean;
      geometric_log_ = std::log1p(-1 / mean);
    }
    double draw = std::floor(std::log1p(-uniform()) / geometric_log_);
    return 1 + static_cast<uint32_t>(std::min(draw, 1e9));
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
  double geometric_mean_ = 0;  ///< the last mean geometric() drew with, and its log1p(-1/mean)
  double geometric_log_ = 0;
};

// ---------------------------------------------------------------- value models

/// How the 32 lanes of one written warp register relate.
enum class LaneValueKind : uint8_t {
  Uniform,  ///< the same word in every lane (block ids, loop bounds, kernel arguments)
  Affine,   ///< base + stride x lane (thread-indexed addresses and indices)
  Narrow,   ///< each lane independently in [0, range) (pathfinder's 0-9 inputs)
  Random    ///< every lane an independent 32-bit word (floating-point data, hashes)
};
std::string_view to_string(LaneValueKind kind);

/// The value model of one static destination operand.
struct LaneValueSpec {
  LaneValueKind kind = LaneValueKind::Random;
  uint32_t param = 0;  ///< Affine: the stride; Narrow: the range
  /// Uniform: 0 for a full 32-bit word (pointer, float), else the bound of a small
  /// integer (sizes, counters). Affine: the array base the thread index is added to.
  uint32_t base = 0;
};

/// A workload's mix of value models; the shares need not sum to 1 (they are
/// normalised). Each static destination draws one model from the mix.
struct ValueMix {
  double uniform = 0.35;
  double affine = 0.25;
  double narrow = 0.15;
  double random = 0.25;
  /// Affine strides, drawn with equal odds: 1 and 4 (element indices, word
  /// addresses) stay within the 128 bin, 1024 (row addresses) within the 32K bin.
  std::vector<uint32_t> affine_strides = {1, 4, 1024};
  uint32_t narrow_range = 10;  ///< pathfinder's 0..9 (seed 001 §3, Fig. 4)

  /// Throws WorkloadError("`where`: ...") when a share is negative or all are zero,
  /// a stride list is empty or the range is 0.
  void validate(const std::string& where) const;
  LaneValueSpec draw(Rng& rng) const;
};

/// Fills all 32 lanes of `value` with a fresh value of the model; `first_thread`
/// is the global thread index of lane 0 (affine values follow the thread index,
/// so the same static instruction writes nearby values in every iteration).
void fill_lanes(Rng& rng, const LaneValueSpec& spec, uint32_t first_thread, WarpRegister& value);

// ---------------------------------------------------------------- similarity bins

/// Warped-Compression's four bins for the arithmetic distance between two
/// successive thread registers (seed 001 §3): identical; |d| <= 128; |d| <= 2^15;
/// larger ("random").
enum class SimilarityBin : uint8_t { Zero, Within128, Within32K, Random };
constexpr unsigned kSimilarityBinCount = 4;
std::string_view to_string(SimilarityBin bin);

/// The bin of one distance, the difference taken modulo 2^32 as a signed 32-bit
/// number (what a base-delta compressor stores).
SimilarityBin distance_bin(uint32_t a, uint32_t b);

/// The bin of a written warp register: the bin of the largest distance between
/// successive thread registers (lanes in `lanes`, normally the warp's threads;
/// lanes outside it are skipped), i.e. the tightest bin that holds all of them: a
/// register is "zero" only if all its thread registers are identical.
SimilarityBin classify_register(const WarpRegister& value, LaneMask lanes = kFullMask);

/// Counts of register writes per bin, for non-divergent (full active mask) and
/// divergent writes separately, as Figure 2's two bars per benchmark.
struct SimilarityHistogram {
  std::array<uint64_t, kSimilarityBinCount> converged{};
  std::array<uint64_t, kSimilarityBinCount> divergent{};

  /// Counts one write; `stored` is the register as it holds after the write (the
  /// written lanes new, the others as before), `lanes` the warp's threads.
  void add(const WarpRegister& stored, bool divergent_write, LaneMask lanes = kFullMask);
  uint64_t converged_total() const;
  uint64_t divergent_total() const;
  /// Share of bin `bin` among converged (or divergent) writes; 0 when there are none.
  double converged_share(SimilarityBin bin) const;
  double divergent_share(SimilarityBin bin) const;
  SimilarityHistogram& operator+=(const SimilarityHistogram& other);
};

/// Runs through every warp of `workload` in (cta, warp) order, keeping each
/// warp's registers (zero before their first write, as in GPGPU-Sim), and bins
/// every destination register as it is stored after the write.
SimilarityHistogram measure_similarity(Workload& workload);

}  // namespace warpreg

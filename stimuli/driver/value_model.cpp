#include "stimuli/driver/value_model.h"

#include <algorithm>
#include <cstdlib>

#include "modules/interfaces/workload.h"

namespace warpreg {

std::string_view to_string(LaneValueKind kind) {
  switch (kind) {
    case LaneValueKind::Uniform:
      return "uniform";
    case LaneValueKind::Affine:
      return "affine";
    case LaneValueKind::Narrow:
      return "narrow";
    case LaneValueKind::Random:
      return "random";
  }
  return "?";
}

void ValueMix::validate(const std::string& where) const {
  for (double share : {uniform, affine, narrow, random})
    if (!(share >= 0)) throw WorkloadError(where + ": value shares must not be negative");
  if (uniform + affine + narrow + random <= 0)
    throw WorkloadError(where + ": at least one value share must be positive");
  if (affine > 0 && affine_strides.empty())
    throw WorkloadError(where + ": affine values need at least one stride");
  if (narrow > 0 && narrow_range == 0)
    throw WorkloadError(where + ": narrow_range must be at least 1");
}

LaneValueSpec ValueMix::draw(Rng& rng) const {
  const double total = uniform + affine + narrow + random;
  const double pick = rng.uniform() * total;
  // Half the uniform values are small integers, half full words; half the
  // affine bases are small (indices), half anywhere (byte addresses).
  if (pick < uniform) return {LaneValueKind::Uniform, 0, rng.chance(0.5) ? 4096u : 0u};
  if (pick < uniform + affine) {
    const uint32_t stride = affine_strides[rng.below(static_cast<uint32_t>(affine_strides.size()))];
    return {LaneValueKind::Affine, stride, rng.chance(0.5) ? rng.below(1u << 16) : rng.next32()};
  }
  if (pick < uniform + affine + narrow) return {LaneValueKind::Narrow, narrow_range, 0};
  return {LaneValueKind::Random, 0, 0};
}

void fill_lanes(Rng& rng, const LaneValueSpec& spec, uint32_t first_thread, WarpRegister& value) {
  switch (spec.kind) {
    case LaneValueKind::Uniform:
      value.lane.fill(spec.base != 0 ? rng.below(spec.base) : rng.next32());
      return;
    case LaneValueKind::Affine: {
      // A loop walks the array: each dynamic write moves by a few elements.
      uint32_t lane_value = spec.base + (first_thread + rng.below(64)) * spec.param;
      for (unsigned lane = 0; lane < kWarpSize; ++lane, lane_value += spec.param)
        value.lane[lane] = lane_value;
      return;
    }
    case LaneValueKind::Narrow:
      for (unsigned lane = 0; lane < kWarpSize; ++lane) value.lane[lane] = rng.below(spec.param);
      return;
    case LaneValueKind::Random:
      for (unsigned lane = 0; lane < kWarpSize; lane += 2) {
        const uint64_t bits = rng.next();
        value.lane[lane] = static_cast<uint32_t>(bits);
        value.lane[lane + 1] = static_cast<uint32_t>(bits >> 32);
      }
      return;
  }
}

std::string_view to_string(SimilarityBin bin) {
  switch (bin) {
    case SimilarityBin::Zero:
      return "zero";
    case SimilarityBin::Within128:
      return "128";
    case SimilarityBin::Within32K:
      return "32K";
    case SimilarityBin::Random:
      return "random";
  }
  return "?";
}

SimilarityBin distance_bin(uint32_t a, uint32_t b) {
  const int64_t distance = std::llabs(static_cast<int64_t>(static_cast<int32_t>(b - a)));
  if (distance == 0) return SimilarityBin::Zero;
  if (distance <= 128) return SimilarityBin::Within128;
  if (distance <= (int64_t{1} << 15)) return SimilarityBin::Within32K;
  return SimilarityBin::Random;
}

SimilarityBin classify_register(const WarpRegister& value, LaneMask lanes) {
  SimilarityBin worst = SimilarityBin::Zero;
  int previous = -1;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(lanes & (1u << lane))) continue;
    const int before = previous;
    previous = static_cast<int>(lane);
    if (before < 0) continue;
    const SimilarityBin bin = distance_bin(value.lane[before], value.lane[lane]);
    if (bin > worst) worst = bin;
    if (worst == SimilarityBin::Random) break;
  }
  return worst;
}

void SimilarityHistogram::add(const WarpRegister& stored, bool divergent_write, LaneMask lanes) {
  auto& counts = divergent_write ? divergent : converged;
  ++counts[static_cast<unsigned>(classify_register(stored, lanes))];
}

namespace {
uint64_t sum(const std::array<uint64_t, kSimilarityBinCount>& counts) {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  return total;
}
double share(const std::array<uint64_t, kSimilarityBinCount>& counts, SimilarityBin bin) {
  const uint64_t total = sum(counts);
  return total == 0
             ? 0.0
             : static_cast<double>(counts[static_cast<unsigned>(bin)]) / static_cast<double>(total);
}
}  // namespace

uint64_t SimilarityHistogram::converged_total() const { return sum(converged); }
uint64_t SimilarityHistogram::divergent_total() const { return sum(divergent); }
double SimilarityHistogram::converged_share(SimilarityBin bin) const {
  return share(converged, bin);
}
double SimilarityHistogram::divergent_share(SimilarityBin bin) const {
  return share(divergent, bin);
}

SimilarityHistogram& SimilarityHistogram::operator+=(const SimilarityHistogram& other) {
  for (unsigned b = 0; b < kSimilarityBinCount; ++b) {
    converged[b] += other.converged[b];
    divergent[b] += other.divergent[b];
  }
  return *this;
}

SimilarityHistogram measure_similarity(Workload& workload) {
  SimilarityHistogram histogram;
  const KernelShape& shape = workload.shape();
  std::vector<WarpRegister> registers(kMaxArchRegisters);
  for (uint32_t cta = 0; cta < shape.ctas; ++cta) {
    for (uint32_t warp = 0; warp < shape.warps_per_cta(); ++warp) {
      for (WarpRegister& reg : registers) reg.lane.fill(0);
      const uint32_t threads = std::min(kWarpSize, shape.threads_per_cta - warp * kWarpSize);
      const LaneMask warp_mask = threads >= kWarpSize ? kFullMask : (LaneMask{1} << threads) - 1;
      WarpStream& stream = workload.load_warp(0, cta, warp);
      visit_stream(stream, [&](const WarpInst& inst, uint32_t) {
        for (unsigned k = 0; k < inst.num_dst; ++k) {
          if (inst.dst[k] >= kMaxArchRegisters) continue;
          WarpRegister& reg = registers[inst.dst[k]];
          reg.merge(stream.value(inst, k), inst.active);
          histogram.add(reg, inst.active != warp_mask, warp_mask);
        }
      });
    }
  }
  return histogram;
}

}  // namespace warpreg

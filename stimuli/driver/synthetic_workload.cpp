#include "stimuli/driver/synthetic_workload.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "common/params.h"
#include "stimuli/driver/value_model.h"

namespace warpreg {

namespace {

/// PCs advance by one 16-byte instruction, as in the SASS of Accel-Sim traces.
constexpr uint64_t kInstructionBytes = 16;
/// Share of sources that read RZ (SASS uses the zero register freely).
constexpr double kZeroSourceFraction = 0.03;

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

[[noreturn]] void bad_config(const std::string& message) {
  throw WorkloadError("synthetic workload: " + message);
}

void require_fraction(double value, const char* name) {
  if (!(value >= 0 && value <= 1))
    bad_config(std::string(name) + "=" + number(value) + " must lie in [0, 1]");
}

/// A partial mask: a prefix of lanes (a bounds check on the thread index) or a
/// data-dependent subset; never empty, never full.
LaneMask partial_mask(Rng& rng) {
  if (rng.chance(0.5)) return (LaneMask{1} << (1 + rng.below(kWarpSize - 1))) - 1;
  LaneMask mask;
  do {
    mask = rng.next32();
  } while (mask == 0 || mask == kFullMask);
  return mask;
}

/// Fills the lanes of one destination value.
void fill_value(Rng& rng, SyntheticWorkload::LanePattern pattern, uint32_t stride,
                WarpRegister& value) {
  using LanePattern = SyntheticWorkload::LanePattern;
  uint32_t lane_value = rng.next32();
  switch (pattern) {
    case LanePattern::Same:
      value.lane.fill(lane_value);
      return;
    case LanePattern::Affine:
      for (unsigned lane = 0; lane < kWarpSize; ++lane, lane_value += stride)
        value.lane[lane] = lane_value;
      return;
    case LanePattern::Delta128:
      // Successive lanes differ by at most 128: one random byte per lane.
      for (unsigned lane = 0; lane < kWarpSize; lane += 8) {
        uint64_t bits = rng.next();
        for (unsigned k = 0; k < 8; ++k, bits >>= 8) {
          value.lane[lane + k] = lane_value;
          lane_value +=
              static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(bits & 0xff)));
        }
      }
      return;
    case LanePattern::Delta32K:
      for (unsigned lane = 0; lane < kWarpSize; lane += 4) {
        uint64_t bits = rng.next();
        for (unsigned k = 0; k < 4; ++k, bits >>= 16) {
          value.lane[lane + k] = lane_value;
          lane_value +=
              static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(bits & 0xffff)));
        }
      }
      return;
    case LanePattern::Random:
      for (unsigned lane = 0; lane < kWarpSize; lane += 2) {
        uint64_t bits = rng.next();
        value.lane[lane] = static_cast<uint32_t>(bits);
        value.lane[lane + 1] = static_cast<uint32_t>(bits >> 32);
      }
      return;
  }
}

struct SourceRange {
  unsigned min;
  unsigned max;
};

/// Register sources per class: address (+ index) for loads, address + data for
/// stores, an optional condition register for branches.
SourceRange source_range(InstClass cls) {
  switch (cls) {
    case InstClass::Alu:
      return {1, 3};
    case InstClass::Sfu:
      return {1, 2};
    case InstClass::Load:
      return {1, 2};
    case InstClass::Store:
      return {2, 3};
    case InstClass::Branch:
      return {0, 1};
    case InstClass::Barrier:
    case InstClass::Exit:
      break;
  }
  return {0, 0};
}

ValueModel parse_value_model(const std::string& text) {
  if (text == "similar") return ValueModel::Similar;
  if (text == "uniform") return ValueModel::Uniform;
  if (text == "mixed") return ValueModel::Mixed;
  bad_config("synth.value_model '" + text + "' is not similar, uniform or mixed");
}

uint32_t to_u32(const Params& params, const char* name) {
  int64_t value = params.integer(name);
  if (value < 0 || value > std::numeric_limits<uint32_t>::max())
    bad_config(std::string(name) + "=" + std::to_string(value) + " does not fit 32 bits");
  return static_cast<uint32_t>(value);
}

}  // namespace

std::string_view to_string(ValueModel model) {
  switch (model) {
    case ValueModel::Similar:
      return "similar";
    case ValueModel::Uniform:
      return "uniform";
    case ValueModel::Mixed:
      return "mixed";
  }
  return "?";
}

SyntheticConfig SyntheticConfig::from_params(const Params& params) {
  SyntheticConfig config;
  config.seed = static_cast<uint64_t>(params.integer("sim.seed"));
  config.ctas = to_u32(params, "synth.ctas");
  config.threads_per_cta = to_u32(params, "synth.threads_per_cta");
  config.regs_per_thread = to_u32(params, "synth.regs_per_thread");
  config.shared_mem_per_cta = to_u32(params, "synth.shared_mem_per_cta");
  config.insts_per_warp = to_u32(params, "synth.insts_per_warp");
  config.frac_sfu = params.real("synth.frac_sfu");
  config.frac_load = params.real("synth.frac_load");
  config.frac_store = params.real("synth.frac_store");
  config.frac_branch = params.real("synth.frac_branch");
  config.divergence = params.real("synth.divergence");
  config.divergent_run = params.real("synth.divergent_run");
  config.dep_distance = params.real("synth.dep_distance");
  config.value_model = parse_value_model(params.text("synth.value_model"));
  config.barrier_every = to_u32(params, "synth.barrier_every");
  return config;
}

SyntheticWorkload::SyntheticWorkload(const SyntheticConfig& config, uint32_t shared_static_insts)
    : config_(config), shared_static_insts_(shared_static_insts), code_generator_(config) {
  if (config_.ctas == 0) bad_config("synth.ctas must be at least 1");
  if (config_.threads_per_cta == 0) bad_config("synth.threads_per_cta must be at least 1");
  if (config_.regs_per_thread == 0 || config_.regs_per_thread > kMaxArchRegisters)
    bad_config("synth.regs_per_thread=" + std::to_string(config_.regs_per_thread) +
               " must lie in [1, " + std::to_string(kMaxArchRegisters) + "]");
  if (config_.insts_per_warp == 0) bad_config("synth.insts_per_warp must be at least 1 (the exit)");
  require_fraction(config_.frac_sfu, "synth.frac_sfu");
  require_fraction(config_.frac_load, "synth.frac_load");
  require_fraction(config_.frac_store, "synth.frac_store");
  require_fraction(config_.frac_branch, "synth.frac_branch");
  require_fraction(config_.divergence, "synth.divergence");
  double sum = config_.frac_sfu + config_.frac_load + config_.frac_store + config_.frac_branch;
  if (sum > 1 + 1e-9)
    bad_config("synth.frac_sfu + synth.frac_load + synth.frac_store + synth.frac_branch = " +
               number(sum) + " exceeds 1 (the rest is ALU)");
  if (!(config_.dep_distance >= 1)) bad_config("synth.dep_distance must be at least 1");
  if (!(config_.divergent_run >= 1)) bad_config("synth.divergent_run must be at least 1");

  shape_.name = "synthetic";
  shape_.ctas = config_.ctas;
  shape_.threads_per_cta = config_.threads_per_cta;
  shape_.regs_per_thread = config_.regs_per_thread;
  shape_.shared_mem_per_cta = config_.shared_mem_per_cta;

  // Runs of mean length L started with probability s from converged code spend a
  // fraction L / (L + (1 - s) / s) of the time divergent; solve that for s.
  const double f = config_.divergence;
  const double run = config_.divergent_run;
  divergence_start_ = f >= 1 ? 1 : f / (run * (1 - f) + f);
  divergence_end_ = 1 / run;
}

SyntheticWorkload::StaticGenerator::StaticGenerator(const SyntheticConfig& config)
    : rng_(stream_seed(config.seed, ~0u, ~0u)) {
  // The producer history covers the whole program when it is short (every pick exact)
  // and the last kMaxProducerHistory instructions otherwise.
  size_t history = 1;
  while (history < config.insts_per_warp && history < kMaxProducerHistory) history *= 2;
  latest_producer_.assign(history, kZeroRegister);
}

uint16_t SyntheticWorkload::StaticGenerator::pick_source(const SyntheticConfig& c) {
  if (rng_.chance(kZeroSourceFraction)) return kZeroRegister;
  const uint32_t distance = rng_.geometric(c.dep_distance);
  const auto history = static_cast<uint32_t>(latest_producer_.size());
  if (distance <= index_ && distance < history) {
    const uint16_t producer = latest_producer_[(index_ - distance) & (history - 1)];
    if (producer != kZeroRegister) return producer;
  }
  return static_cast<uint16_t>(rng_.below(c.regs_per_thread));  // read it anyway
}

void SyntheticWorkload::StaticGenerator::next(const SyntheticConfig& c, StaticInst& out) {
  const double cumulative_sfu = c.frac_sfu;
  const double cumulative_load = cumulative_sfu + c.frac_load;
  const double cumulative_store = cumulative_load + c.frac_store;
  const double cumulative_branch = cumulative_store + c.frac_branch;
  const uint32_t history_mask = static_cast<uint32_t>(latest_producer_.size()) - 1;
  const uint32_t i = index_;
  WarpInst& inst = out.inst;
  inst = WarpInst{};
  inst.pc = uint64_t{i} * kInstructionBytes;
  // latest_producer_[i]: the register written by the last instruction at or before i
  // that writes one, or kZeroRegister when none has yet.
  uint16_t& latest = latest_producer_[i & history_mask];
  latest = i > 0 ? latest_producer_[(i - 1) & history_mask] : kZeroRegister;
  if (i + 1 == c.insts_per_warp) {
    inst.cls = InstClass::Exit;
  } else if (c.barrier_every != 0 && (i + 1) % c.barrier_every == 0) {
    inst.cls = InstClass::Barrier;
  } else {
    const double draw = rng_.uniform();
    inst.cls = draw < cumulative_sfu      ? InstClass::Sfu
               : draw < cumulative_load   ? InstClass::Load
               : draw < cumulative_store  ? InstClass::Store
               : draw < cumulative_branch ? InstClass::Branch
                                          : InstClass::Alu;
  }
  const SourceRange sources = source_range(inst.cls);
  inst.num_src = static_cast<uint8_t>(sources.min + rng_.below(sources.max - sources.min + 1));
  for (unsigned s = 0; s < inst.num_src; ++s) inst.src[s] = pick_source(c);
  ValueShape& shape = out.shape;
  shape = ValueShape{};
  if (inst.cls == InstClass::Alu || inst.cls == InstClass::Sfu || inst.cls == InstClass::Load) {
    inst.num_dst = 1;
    inst.dst[0] = static_cast<uint16_t>(rng_.below(c.regs_per_thread));
    latest = inst.dst[0];
    const bool similar = c.value_model == ValueModel::Similar ||
                         (c.value_model == ValueModel::Mixed && rng_.chance(0.5));
    // Successive-lane distance bins of seed 001 §3 (non-divergent writes): 79 %
    // are not random; the split of that 79 % among zero/128/32K is ours.
    const double bin = rng_.uniform();
    if (!similar || bin >= 0.79) {
      shape.pattern = LanePattern::Random;
    } else if (bin < 0.35) {
      shape.pattern = LanePattern::Same;
    } else if (bin < 0.50) {
      static constexpr uint32_t kStrides[] = {1, 4, 8, 16};  // thread-indexed elements
      shape.pattern = LanePattern::Affine;
      shape.stride = kStrides[rng_.below(4)];
    } else if (bin < 0.65) {
      shape.pattern = LanePattern::Delta128;
    } else {
      shape.pattern = LanePattern::Delta32K;
    }
  }
  ++index_;
}

const SyntheticWorkload::StaticInst& SyntheticWorkload::shared_static(uint32_t index) {
  while (shared_code_.size() <= index) {
    shared_code_.emplace_back();
    code_generator_.next(config_, shared_code_.back());
  }
  return shared_code_[index];
}

SyntheticWorkload::Stream::Stream(SyntheticWorkload& owner) : owner_(owner) {}

void SyntheticWorkload::Stream::start(uint32_t cta, uint32_t warp) {
  restart();
  own_code_started_ = false;
  rng_.reseed(stream_seed(owner_.config_.seed, cta, warp));
  index_ = 0;
  divergent_ = false;
  divergent_mask_ = kFullMask;
}

void SyntheticWorkload::Stream::generate() {
  const SyntheticConfig& c = owner_.config_;
  for (unsigned batch = 0; batch < 32 && index_ < c.insts_per_warp; ++batch, ++index_) {
    // The static instruction: shared by every warp while it is among the first ones,
    // else continued from where the shared ones end.
    const StaticInst* code;
    if (index_ < owner_.shared_static_insts_) {
      code = &owner_.shared_static(index_);
    } else {
      if (!own_code_started_) {
        if (owner_.shared_static_insts_ > 0) owner_.shared_static(owner_.shared_static_insts_ - 1);
        if (own_code_)
          *own_code_ = owner_.code_generator_;  // keeps the ring's allocation
        else
          own_code_ = std::make_unique<StaticGenerator>(owner_.code_generator_);
        own_code_started_ = true;
      }
      own_code_->next(c, own_inst_);
      code = &own_inst_;
    }
    WarpInst inst = code->inst;
    inst.value_index = next_value_index();

    // This warp's execution of it: active lanes and destination values.
    if (inst.cls == InstClass::Barrier || inst.cls == InstClass::Exit) {
      divergent_ = false;  // the warp reconverges before a barrier and at exit
    } else {
      if (divergent_ && rng_.chance(owner_.divergence_end_)) divergent_ = false;
      if (!divergent_ && owner_.divergence_start_ > 0 && rng_.chance(owner_.divergence_start_)) {
        divergent_ = true;
        divergent_mask_ = partial_mask(rng_);
      }
    }
    inst.active = divergent_ ? divergent_mask_ : kFullMask;
    for (unsigned k = 0; k < inst.num_dst; ++k)
      fill_value(rng_, code->shape.pattern, code->shape.stride, emit_value());
    emit(inst);
  }
}

WarpStream& SyntheticWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  if (cta >= shape_.ctas || warp >= shape_.warps_per_cta())
    throw WorkloadError("synthetic workload: no warp " + std::to_string(cta) + " " +
                        std::to_string(warp) + " in a kernel of " + std::to_string(shape_.ctas) +
                        " CTAs x " + std::to_string(shape_.warps_per_cta()) + " warps");
  if (slot >= slots_.size()) slots_.resize(size_t{slot} + 1);
  if (!slots_[slot]) slots_[slot] = std::make_unique<Stream>(*this);
  slots_[slot]->start(cta, warp);
  return *slots_[slot];
}

std::string SyntheticWorkload::describe() const {
  return "synthetic " + std::string(to_string(config_.value_model)) + " seed " +
         std::to_string(config_.seed) + " (" + std::to_string(shape_.ctas) + " CTAs x " +
         std::to_string(shape_.warps_per_cta()) + " warps x " +
         std::to_string(config_.insts_per_warp) + " instructions)";
}

}  // namespace warpreg

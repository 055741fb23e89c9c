#include "platforms/gpu/gpu_platform.h"

#include <algorithm>
#include <string>
#include <vector>

#include "designs/design_registry.h"
#include "modules/memory/memory_system.h"
#include "platforms/gpu/cta_distributor.h"
#include "platforms/gpu/gpu_params.h"
#include "platforms/sm/memory_params.h"
#include "platforms/sm/sm_node.h"
#include "platforms/sm/sm_params.h"
#include "power/power_params.h"

namespace warpreg {

WARPREG_REGISTER_PARAMS(GpuParams);

namespace {

/// One SM of the GPU: an "smN" module whose SmNode's blocks are its children.
class SmCluster : public sc_core::sc_module {
 public:
  SmCluster(sc_core::sc_module_name name, const Params& params,
            const std::vector<const DesignSpec*>& designs, Workload& workload,
            const power::TechTable& tech, const CycleClock& clock, uint32_t sm, uint32_t sms)
      : sc_core::sc_module(name),
        node(params, designs, workload, tech, clock, sm, sms, {}, this->name()) {}
  SmNode node;
};

class SmPlatformAdapter final : public Platform {
 public:
  SmPlatformAdapter(const Params& params, std::unique_ptr<Workload> workload, RunSettings settings)
      : platform_(params, std::move(workload), std::move(settings)) {}
  nlohmann::json run() override { return platform_.run(); }
  nlohmann::json describe() const override { return platform_.describe(); }
  const StatSet* block_statistics(const std::string& block) const override {
    return platform_.block_statistics(block);
  }

 private:
  SmPlatform platform_;
};

using Combine = StatSet::Combine;

/// A key no StatSet declares (the energy accounts, the memory blocks' reports): its
/// name says whether it is a mean or a share; anything else is a count or an energy.
Combine combine_by_name(const std::string& key) {
  auto ends_with = [&](const char* suffix) {
    const std::string s(suffix);
    return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with("_mean") || ends_with("utilisation") || ends_with("_rate") || ends_with("_share") ||
      ends_with("_fraction") || ends_with("ratio"))
    return Combine::Mean;
  return Combine::Sum;
}

/// The SMs' values of one statistic combined: numbers by `combine` (a mean of equal
/// values keeps the value as it is), objects key by key, numeric lists of one length
/// element by element; text, flags and other lists are the first SM's.
nlohmann::json combine_values(const std::vector<const nlohmann::json*>& values, Combine combine,
                              bool by_name) {
  const nlohmann::json& first = *values.front();
  if (first.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const nlohmann::json* v : values) {
      for (auto it = v->begin(); it != v->end(); ++it) {
        if (out.contains(it.key())) continue;
        std::vector<const nlohmann::json*> sub;
        for (const nlohmann::json* w : values)
          if (w->is_object() && w->contains(it.key())) sub.push_back(&(*w)[it.key()]);
        out[it.key()] = combine_values(sub, by_name ? combine_by_name(it.key()) : combine, by_name);
      }
    }
    return out;
  }
  if (first.is_array()) {
    for (const nlohmann::json* v : values)
      if (!v->is_array() || v->size() != first.size()) return first;
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < first.size(); ++i) {
      if (!first[i].is_number()) return first;
      std::vector<const nlohmann::json*> column;
      for (const nlohmann::json* v : values) column.push_back(&(*v)[i]);
      out.push_back(combine_values(column, combine, false));
    }
    return out;
  }
  if (!first.is_number()) return first;
  bool all_unsigned = true, all_equal = true;
  for (const nlohmann::json* v : values) {
    if (!v->is_number()) return first;
    all_unsigned = all_unsigned && v->is_number_unsigned();
    all_equal = all_equal && *v == first;
  }
  switch (combine) {
    case Combine::Sum: {
      if (all_unsigned) {
        uint64_t sum = 0;
        for (const nlohmann::json* v : values) sum += v->get<uint64_t>();
        return sum;
      }
      double sum = 0.0;
      for (const nlohmann::json* v : values) sum += v->get<double>();
      return sum;
    }
    case Combine::Max: {
      const nlohmann::json* best = values.front();
      for (const nlohmann::json* v : values)
        if (v->get<double>() > best->get<double>()) best = v;
      return *best;
    }
    case Combine::Mean: {
      if (all_equal) return first;
      double sum = 0.0;
      for (const nlohmann::json* v : values) sum += v->get<double>();
      return sum / double(values.size());
    }
  }
  return first;
}

/// Totals of one group of the SMs' reports (`rf`, `memory.l1_total` ...): each key by
/// its name's rule.
nlohmann::json combine_group(const std::vector<const nlohmann::json*>& values) {
  return combine_values(values, Combine::Sum, /*by_name=*/true);
}

}  // namespace

std::unique_ptr<Platform> make_platform(const Params& params, std::unique_ptr<Workload> workload,
                                        RunSettings settings) {
  if (GpuParams(&params).sms > 1)
    return std::make_unique<GpuPlatform>(params, std::move(workload), std::move(settings));
  return std::make_unique<SmPlatformAdapter>(params, std::move(workload), std::move(settings));
}

class GpuPlatformImpl {
 public:
  GpuPlatformImpl(const Params& params, std::unique_ptr<Workload> workload, RunSettings settings)
      : params_(params),
        designs_(DesignRegistry::instance().resolve(params.designs())),
        workload_(std::move(workload)),
        tech_(power::TechTable::load(PowerParams(&params).tech)),
        clock_(SimParams(&params).clock_mhz),
        sms_(GpuParams(&params).sms) {
    if (!settings.vcd_path.empty())
      throw ConfigError("gpu.sms = " + std::to_string(sms_) +
                        ": a waveform (--vcd) needs the single-SM platform (gpu.sms = 1)");
    if (!settings.samples_path.empty())
      throw ConfigError("gpu.sms = " + std::to_string(sms_) +
                        ": time series (--sample) need the single-SM platform (gpu.sms = 1)");
    if (settings.extra_stages)
      throw ConfigError("gpu.sms = " + std::to_string(sms_) +
                        ": extra operand-path stages need the single-SM platform (gpu.sms = 1)");
    for (uint32_t s = 0; s < sms_; ++s)
      clusters_.push_back(std::make_unique<SmCluster>(("sm" + std::to_string(s)).c_str(), params,
                                                      designs_, *workload_, tech_, clock_, s,
                                                      sms_));
    const SmCore& first = clusters_.front()->node.sm().core();
    distributor_ =
        std::make_unique<CtaDistributor>(first.kernel().ctas, sms_, first.occupancy().ctas);
    for (uint32_t s = 0; s < sms_; ++s)
      clusters_[s]->node.sm().core().attach_cta_source(&distributor_->source(s));
    if (clusters_.front()->node.l1()) {
      memory_config_ = memory_system_config(params_, sms_, memory_tech(tech_));
      memory_ = std::make_unique<memory::MemorySystem>("memory", memory_config_);
      // Binding order is the SM's interconnect port.
      for (auto& c : clusters_) c->node.memory_port()->out.bind(memory_->sm_side);
    }
  }

  nlohmann::json run() {
    sc_core::sc_start();
    uint64_t cycles = 0;
    for (auto& c : clusters_) cycles = std::max(cycles, c->node.sm().end_cycle());
    nlohmann::json per_sm = nlohmann::json::array();
    nlohmann::json totals = {{"memory", nlohmann::json::object()}};
    for (uint32_t s = 0; s < sms_; ++s) {
      SmNode& node = clusters_[s]->node;
      // Every SM's energy and IPC over the whole kernel: an SM that ran out of CTAs
      // still leaks until the last one finishes.
      nlohmann::json j = node.stats(cycles);
      j["sm"] = s;
      j["active_cycles"] = node.sm().end_cycle();
      j["ctas"] = distributor_->issued_to(s);
      for (const char* key :
           {"loads", "load_hits", "stores", "local_loads", "local_hits", "local_stores"})
        totals["memory"][key] =
            totals["memory"].value(key, uint64_t{0}) + j["memory"][key].get<uint64_t>();
      for (const char* key : {"warp_instructions", "thread_instructions", "metadata_instructions",
                              "issue_hook_waits"})
        totals[key] = totals.value(key, uint64_t{0}) + j[key].get<uint64_t>();
      if (j["status"] != "ok" && !totals.contains("status")) {
        totals["status"] = j["status"];
        totals["error"] = "SM " + std::to_string(s) + ": " + j["error"].get<std::string>();
      }
      per_sm.push_back(std::move(j));
    }
    auto group = [&](std::initializer_list<const char*> path) {
      std::vector<const nlohmann::json*> values;
      for (const nlohmann::json& j : per_sm) {
        const nlohmann::json* v = &j;
        for (const char* key : path) {
          v = v->contains(key) ? &(*v)[key] : nullptr;
          if (v == nullptr) break;
        }
        if (v == nullptr) break;
        values.push_back(v);
      }
      return values;
    };
    for (const char* key : {"integrity", "rf", "energy_pj", "instructions_by_class"})
      totals[key] = combine_group(group({key}));
    if (per_sm.front()["memory"].contains("load_store_unit")) {
      totals["memory"]["load_store_unit"] = combine_group(group({"memory", "load_store_unit"}));
      totals["memory"]["l1_total"] = combine_group(group({"memory", "blocks", "l1"}));
      totals["memory"]["l1c_total"] = combine_group(group({"memory", "blocks", "l1c"}));
    }
    totals["blocks"] = combine_blocks(per_sm);
    nlohmann::json stats = std::move(totals);
    const nlohmann::json& first = per_sm.front();
    if (!stats.contains("status")) stats["status"] = "ok";
    stats["schema_version"] = 1;
    stats["preset"] = params_.preset();
    stats["designs"] = params_.designs();
    stats["workload"] = workload_->describe();
    stats["kernel"] = first["kernel"];
    stats["occupancy"] = first["occupancy"];
    stats["cycles"] = cycles;
    stats["ipc"] =
        cycles ? double(stats["warp_instructions"].get<uint64_t>()) / double(cycles) : 0.0;
    stats["technology"] = tech_.name();
    nlohmann::json gpu = {{"sms", sms_}};
    if (memory_) {
      stats["memory"]["model"] = "memory_system";
      const nlohmann::json shared = memory_->stats_at(clock_.cycles(cycles));
      stats["memory"]["blocks"] = shared;
      const double l1_energy = energy_of_blocks(
          {{"l1", stats["memory"]["l1_total"]}, {"l1c", stats["memory"]["l1c_total"]}});
      stats["energy_pj"]["memory_system"] = energy_of_blocks(shared) + l1_energy;
      gpu["dram"] = dram_summary(shared, cycles);
    }
    add_stimulus_notes(stats, workload_->notes());
    add_average_power(stats, double(cycles) * clock_.ns_per_cycle());
    stats["gpu"] = std::move(gpu);
    stats["sms"] = std::move(per_sm);
    stats["params"] = params_.to_json();
    return stats;
  }

  nlohmann::json describe() const {
    nlohmann::json blocks = clusters_.front()->node.describe_blocks();
    if (memory_) blocks.update(memory_->describe());
    return {{"preset", params_.preset()},
            {"designs", params_.designs()},
            {"technology", tech_.name()},
            {"clock_mhz", SimParams(&params_).clock_mhz.get()},
            {"sms", sms_},
            {"operand_path", clusters_.front()->node.operand_path()},
            {"blocks_per_sm", std::move(blocks)},
            {"params", params_.to_json()}};
  }

  /// `blocks` over the SMs: each statistic a block declares as its StatSet says
  /// (counters sum, ratios and per-kernel facts are the mean, peaks the maximum); the
  /// rest (energy accounts, storage) by name.
  nlohmann::json combine_blocks(const nlohmann::json& per_sm) const {
    nlohmann::json out = nlohmann::json::object();
    for (auto block = per_sm.front()["blocks"].begin(); block != per_sm.front()["blocks"].end();
         ++block) {
      const StatSet* set = block_statistics(block.key());
      nlohmann::json& into = out[block.key()] = nlohmann::json::object();
      for (auto stat = block->begin(); stat != block->end(); ++stat) {
        std::vector<const nlohmann::json*> values;
        for (const nlohmann::json& j : per_sm) {
          const nlohmann::json& b = j["blocks"];
          if (b.contains(block.key()) && b[block.key()].contains(stat.key()))
            values.push_back(&b[block.key()][stat.key()]);
        }
        const StatSet::Spec* spec = nullptr;
        if (set)
          for (const StatSet::Spec& s : set->specs())
            if (s.name == stat.key()) spec = &s;
        into[stat.key()] = spec ? combine_values(values, spec->combine, false)
                                : combine_values(values, combine_by_name(stat.key()), true);
      }
    }
    return out;
  }

  const StatSet* block_statistics(const std::string& name) const {
    return clusters_.front()->node.block_statistics(name);
  }

 private:
  /// DRAM traffic and bandwidth over the kernel, against the channels' peak.
  nlohmann::json dram_summary(const nlohmann::json& shared, uint64_t cycles) const {
    uint64_t read = 0, written = 0;
    for (auto it = shared.begin(); it != shared.end(); ++it) {
      read += it->value("bytes_read", uint64_t{0});
      written += it->value("bytes_written", uint64_t{0});
    }
    const memory::DramConfig& d = memory_config_.dram;
    const double seconds = double(cycles) * clock_.ns_per_cycle() * 1e-9;
    const double peak =
        d.peak_bytes_per_cycle() * d.clock_mhz * 1e6 * memory_config_.address_map.channels / 1e9;
    const double achieved = seconds > 0 ? double(read + written) / seconds / 1e9 : 0.0;
    return {{"bytes_read", read},
            {"bytes_written", written},
            {"bandwidth_gbps", achieved},
            {"peak_gbps", peak},
            {"utilisation", peak > 0 ? achieved / peak : 0.0}};
  }

  Params params_;
  std::vector<const DesignSpec*> designs_;
  std::unique_ptr<Workload> workload_;
  power::TechTable tech_;
  CycleClock clock_;
  uint32_t sms_;
  std::vector<std::unique_ptr<SmCluster>> clusters_;
  std::unique_ptr<CtaDistributor> distributor_;
  memory::MemorySystemConfig memory_config_;
  std::unique_ptr<memory::MemorySystem> memory_;
};

GpuPlatform::GpuPlatform(const Params& params, std::unique_ptr<Workload> workload,
                         RunSettings settings)
    : impl_(std::make_unique<GpuPlatformImpl>(params, std::move(workload), std::move(settings))) {}

GpuPlatform::~GpuPlatform() = default;

nlohmann::json GpuPlatform::run() { return impl_->run(); }

nlohmann::json GpuPlatform::describe() const { return impl_->describe(); }

const StatSet* GpuPlatform::block_statistics(const std::string& block) const {
  return impl_->block_statistics(block);
}

}  // namespace warpreg

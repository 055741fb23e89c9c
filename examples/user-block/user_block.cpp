// A user-written block on a shipped SM platform: MyStage sits on the operand path right
// after a named stage (mystage.place), delays every register read by
// mystage.extra_cycles and counts what passes. Its parameters join warpreg's catalogue
// (so a preset and --set accept them, and a typo is refused), its counters appear in
// stats.json under blocks.mystage.
//   user_block [PRESET] [--set KEY=VALUE ...] [--out stats.json]
// PRESET is a shipped preset's name or a .json file (default: my_platform.json beside
// this source). Exit status 0 when the run ends ok and the checks hold.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "common/errors.h"
#include "common/param_set.h"
#include "common/params.h"
#include "common/stat_set.h"
#include "designs/design_registry.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

namespace mine {

using namespace warpreg;

/// The block's parameters, "mystage.*": declared once, here.
struct MyStageParams : ParamSet {
  explicit MyStageParams(const Params* values = nullptr) : ParamSet("mystage", values) {}
  Param<uint32_t> extra_cycles{this,
                               "extra_cycles",
                               0,
                               {0, 16},
                               "cycles",
                               "Cycles added to every register read.",
                               "examples/user-block"};
  Param<std::string> place{this, "place", "before regfile",
                           "Where the block sits on the operand path: 'before NAME' or "
                           "'after NAME' of a stage (crossbar, tric, coma, rfv, wc ...).",
                           "examples/user-block"};
};
// Static registration: the catalogue knows mystage.* before sc_main reads a preset.
WARPREG_REGISTER_PARAMS(MyStageParams);

/// The block's counters, "mystage.*" in stats.json's blocks.mystage.
struct MyStageStats : StatSet {
  MyStageStats() : StatSet("mystage") {}
  Counter reads{this, "reads", "accesses", "Register reads that passed the block."};
  Counter writes{this, "writes", "accesses", "Register writes that passed the block."};
  Counter added_cycles{this, "added_cycles", "cycles", "Cycles the block added to reads."};
};
WARPREG_REGISTER_STATS(MyStageStats);

class MyStage : public OperandStage, public ReportingBlock {
 public:
  MyStage(sc_core::sc_module_name name, const DesignContext& context)
      : OperandStage(name), params_(&context.params), clock_(context.clock) {}

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t) override {
    nlohmann::json j = nlohmann::json::object();
    stats_.write(j);
    return j;
  }
  nlohmann::json describe() const override {
    return {{"storage_bits", {{"total", 0}}}, {"parameters", params_.to_json()}};
  }

 protected:
  // Called with the payload's RfAccess checked: a payload without one, or malformed, got
  // the TLM error response and a warning before it reached this stage.
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override {
    if (a.kind == RfAccessKind::Read) {
      ++stats_.reads;
      stats_.added_cycles += params_.extra_cycles;
      delay += clock_.cycles(params_.extra_cycles);
    } else if (a.kind == RfAccessKind::Write) {
      ++stats_.writes;
    }
    forward(payload, a, delay);
  }

 private:
  MyStageParams params_;
  CycleClock clock_;
  MyStageStats stats_;
};

}  // namespace mine

int sc_main(int argc, char* argv[]) {
  using namespace warpreg;
  std::string preset = EXAMPLE_DIR "/my_platform.json", out;
  std::vector<std::string> sets;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc)
      sets.push_back(argv[++i]);
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc)
      out = argv[++i];
    else
      preset = argv[i];
  }
  try {
    const Params params = Params::load(preset, sets);
    const mine::MyStageParams mine_params(&params);
    RunSettings settings;
    settings.extra_placement = Placement::parse(mine_params.place, "mystage.place");
    settings.extra_stages = [](const DesignContext& context) {
      OperandStages stages;
      stages.push_back(std::make_unique<mine::MyStage>("mystage", context));
      return stages;
    };
    // One platform per process: SystemC elaborates once.
    SmPlatform platform(params, open_workload("synthetic", params), std::move(settings));
    const nlohmann::json path = platform.describe()["operand_path"];
    const nlohmann::json stats = platform.run();
    if (!out.empty()) std::ofstream(out) << stats.dump(2) << '\n';

    const nlohmann::json& mine = stats["blocks"]["mystage"];
    std::printf(
        "status %s, %llu cycles, operand path %s\n", stats["status"].get<std::string>().c_str(),
        static_cast<unsigned long long>(stats["cycles"].get<uint64_t>()), path.dump().c_str());
    std::printf("mystage: %s\n", mine.dump().c_str());
    const bool ok = stats["status"] == "ok" && mine["reads"].get<uint64_t>() > 0 &&
                    mine["writes"].get<uint64_t>() > 0 &&
                    mine["added_cycles"].get<uint64_t>() ==
                        mine["reads"].get<uint64_t>() * mine_params.extra_cycles;
    std::printf("%s\n", ok ? "all checks passed" : "checks failed");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    // ParamError / ConfigError name the file, option or stage.
    std::fprintf(stderr, "user_block: error: %s\n", e.what());
    return 2;
  }
}

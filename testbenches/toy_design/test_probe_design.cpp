// A design added from its own folder is a first-class design: found by name, its
// parameters in the catalogue, its stage on the path, its statistics in stats.json,
// refused with a clear error when misnamed.
#include <catch2/catch.hpp>
#include <fstream>

#include "common/params.h"
#include "designs/design_registry.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "testbenches/toy_design/probe_design.h"

using namespace warpreg;

namespace {

nlohmann::json run(const std::vector<std::string>& sets, const std::vector<std::string>& designs) {
  const Params params = Params::load("baseline", sets, designs);
  SmPlatform platform(params, open_workload(WARPREG_TESTDATA_DIR "/tiny.trace", params));
  return platform.run();
}

}  // namespace

TEST_CASE("toy design: a design from its own folder is registered with its parameters",
          "[designs][toy]") {
  REQUIRE(DesignRegistry::instance().find("probe") != nullptr);
  CHECK(find_param("probe.extra_cycles") != nullptr);
}

TEST_CASE("toy design: --design probe puts its stage on the path and reports it",
          "[designs][toy]") {
  // One platform per process: the run without the probe is the baseline golden file.
  std::ifstream golden(WARPREG_TESTDATA_DIR "/golden/baseline_tiny_trace.json");
  REQUIRE(golden);
  const nlohmann::json plain = nlohmann::json::parse(golden);
  const nlohmann::json probed = run({"probe.extra_cycles=3"}, {"probe"});
  CHECK(probed["status"] == "ok");
  CHECK(probed["designs"] == nlohmann::json::array({"probe"}));
  REQUIRE(probed["blocks"].contains("probe"));
  CHECK(probed["blocks"]["probe"]["reads"] == plain["rf"]["reads"]);
  CHECK(probed["blocks"]["probe"]["writes"] == plain["rf"]["writes"]);
  // Three more cycles on every read cost time.
  CHECK(probed["cycles"].get<uint64_t>() > plain["cycles"].get<uint64_t>());
  CHECK(probed["integrity"]["mismatches"] == 0);
}

TEST_CASE("toy design: an unknown design is refused before elaboration", "[designs][toy]") {
  const Params params = Params::load("baseline", {}, {"prob"});
  CHECK_THROWS_WITH(SmPlatform(params, open_workload("synthetic", params)),
                    Catch::Contains("unknown design 'prob'"));
}

namespace {

/// The operand path of preset `preset` with one probe stage placed at `where`.
nlohmann::json path_with_probe(const std::string& preset, const Placement& where) {
  const Params params = Params::load(preset, {});
  RunSettings settings;
  settings.extra_placement = where;
  settings.extra_stages = [](const DesignContext& context) {
    OperandStages stages;
    stages.push_back(std::make_unique<testing::ProbeStage>("probe", context));
    return stages;
  };
  SmPlatform platform(params, open_workload("synthetic", params), std::move(settings));
  return platform.describe()["operand_path"];
}

}  // namespace

TEST_CASE("toy design: a user stage goes right after a named stage", "[designs][toy][placement]") {
  CHECK(path_with_probe("wrf", Placement::after("tric")) ==
        nlohmann::json({"sm.collectors", "crossbar", "tric", "probe", "coma", "regfile"}));
}

TEST_CASE("toy design: a user stage goes right before a named stage", "[designs][toy][placement]") {
  CHECK(path_with_probe("wrf", Placement::before("tric")) ==
        nlohmann::json({"sm.collectors", "crossbar", "probe", "tric", "coma", "regfile"}));
}

TEST_CASE("toy design: a user stage goes first after the crossbar or last before the banks",
          "[designs][toy][placement]") {
  CHECK(path_with_probe("wrf", Placement::after("crossbar")) ==
        nlohmann::json({"sm.collectors", "crossbar", "probe", "tric", "coma", "regfile"}));
}

TEST_CASE("toy design: a placement naming no stage on the path is refused naming it",
          "[designs][toy][placement][bad-input]") {
  CHECK_THROWS_WITH(path_with_probe("wrf", Placement::after("wc")),
                    Catch::Contains("stage 'probe'") && Catch::Contains("after wc") &&
                        Catch::Contains("no stage 'wc' is on the operand path (crossbar, tric, "
                                        "coma, probe, regfile)"));
}

TEST_CASE("placement: parsed from text, refused with the option named", "[designs][placement]") {
  CHECK(Placement::parse("after rfv", "mine.place").text() == "after rfv");
  CHECK(Placement::parse("before wc", "mine.place").is_before());
  CHECK(Placement::parse("codec", "mine.place").slot() == PathSlot::Codec);
  CHECK_THROWS_WITH(Placement::parse("beside tric", "mine.place"),
                    Catch::Contains("mine.place = 'beside tric'"));
  CHECK_THROWS_WITH(Placement::parse("after", "mine.place"), Catch::Contains("expected"));
}

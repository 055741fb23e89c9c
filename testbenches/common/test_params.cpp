// Unit tests of the parameter system: value parsing per type, error messages,
// presets (by name, by path, inheritance) and the catalogue itself.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include "common/params.h"

using namespace warpreg;
namespace fs = std::filesystem;

namespace {

// A scratch folder per test case and process, so parallel ctest runs do not collide.
class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(fs::temp_directory_path() /
              ("warpreg_test_params_" + std::to_string(::getpid()) + "_" + tag)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    std::ofstream(file) << text;
    return file.string();
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// Sets (or unsets, with nullopt) WARPREG_PRESETS for one scope.
class PresetsEnv {
 public:
  explicit PresetsEnv(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("WARPREG_PRESETS")) old_ = old;
    apply(value);
  }
  ~PresetsEnv() { apply(old_); }
  PresetsEnv(const PresetsEnv&) = delete;
  PresetsEnv& operator=(const PresetsEnv&) = delete;

 private:
  static void apply(const std::optional<std::string>& value) {
    if (value) {
      ::setenv("WARPREG_PRESETS", value->c_str(), 1);
    } else {
      ::unsetenv("WARPREG_PRESETS");
    }
  }
  std::optional<std::string> old_;
};

// The message of the ParamError `f` throws; fails the test when it throws none.
std::string param_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParamError& e) {
    return e.what();
  }
  FAIL("expected a ParamError");
  return {};
}

std::string set_error(const std::string& override_text) {
  return param_error([&] { Params::load("", {override_text}); });
}

ParamSpec local_spec(const char* name, ParamType type) {
  ParamSpec spec;
  spec.name = name;
  spec.type = type;
  spec.description = "A parameter of the tests only.";
  return spec;
}

using Catch::Matchers::Contains;

}  // namespace

TEST_CASE("params: defaults parse and are the catalogue defaults", "[params]") {
  const Params p;
  CHECK(p.preset() == "defaults");
  CHECK(p.integer("rf.banks") == 16);
  CHECK(p.integer("sm.max_warps") == 48);
  CHECK(p.real("mem.hit_rate") == 0.75);
  CHECK(p.text("sm.scheduler") == "gto");
  CHECK(p.origin("rf.banks") == "default");
  CHECK(Params::load("").to_json() == p.to_json());
  CHECK(Params::load("defaults").to_json() == p.to_json());
  CHECK(Params::load("defaults").preset() == "defaults");
}

TEST_CASE("params: Int values", "[params]") {
  Params p;
  p.set("rf.banks", "32", "test");
  CHECK(p.integer("rf.banks") == 32);
  CHECK(p.origin("rf.banks") == "test");
  p.set("rf.banks", "0x10", "test");
  CHECK(p.integer("rf.banks") == 16);
  p.set("rf.banks", " 8 ", "test");
  CHECK(p.integer("rf.banks") == 8);
  // The widest ranges in the catalogue: cycle counts and 32-bit seeds.
  p.set("sim.max_cycles", "999999999999999", "test");
  CHECK(p.integer("sim.max_cycles") == 999999999999999LL);
  p.set("sim.seed", "4294967295", "test");
  CHECK(p.integer("sim.seed") == 4294967295LL);
  CHECK(Params::load("", {"sim.max_cycles=0"}).integer("sim.max_cycles") == 0);

  const std::string low = set_error("rf.banks=0");
  CHECK_THAT(low, Contains("--set rf.banks=0") && Contains("out of range [1, 256]") &&
                      Contains("(rf.banks: "));
  CHECK_THAT(set_error("rf.banks=257"), Contains("rf.banks") && Contains("out of range"));
  CHECK_THAT(set_error("rf.banks=-3"), Contains("rf.banks") && Contains("out of range"));
  CHECK_THAT(set_error("rf.banks=99999999999999999999"),
             Contains("rf.banks") && Contains("out of range"));
  CHECK_THAT(set_error("rf.banks=abc"),
             Contains("--set") && Contains("rf.banks") && Contains("not an integer"));
  CHECK_THAT(set_error("rf.banks=16.5"), Contains("rf.banks") && Contains("not an integer"));
  CHECK_THAT(set_error("rf.banks="), Contains("rf.banks") && Contains("not an integer"));
  CHECK_THAT(set_error("rf.banks=0x"), Contains("rf.banks") && Contains("not an integer"));
  CHECK_THAT(param_error([&] { p.set("rf.banks", "12abc", "preset x (x.json)"); }),
             Contains("preset x (x.json) rf.banks=12abc") && Contains("not an integer"));
}

TEST_CASE("params: Real values", "[params]") {
  Params p;
  p.set("mem.hit_rate", "0.5", "test");
  CHECK(p.real("mem.hit_rate") == 0.5);
  p.set("mem.hit_rate", "25e-2", "test");
  CHECK(p.real("mem.hit_rate") == 0.25);
  p.set("mem.hit_rate", "1", "test");
  CHECK(p.real("mem.hit_rate") == 1.0);

  CHECK_THAT(set_error("mem.hit_rate=1.5"),
             Contains("--set mem.hit_rate=1.5") && Contains("out of range [0, 1]"));
  CHECK_THAT(set_error("mem.hit_rate=-0.1"), Contains("mem.hit_rate") && Contains("out of range"));
  CHECK_THAT(set_error("mem.hit_rate=high"),
             Contains("--set") && Contains("mem.hit_rate") && Contains("not a number"));
  CHECK_THAT(set_error("mem.hit_rate=0.5x"), Contains("mem.hit_rate") && Contains("not a number"));
  CHECK_THAT(set_error("mem.hit_rate="), Contains("mem.hit_rate") && Contains("not a number"));
  CHECK_THAT(set_error("mem.hit_rate=nan"), Contains("mem.hit_rate") && Contains("not finite"));
  CHECK_THAT(set_error("sim.clock_mhz=inf"), Contains("sim.clock_mhz") && Contains("not finite"));
}

TEST_CASE("params: Bool values", "[params]") {
  // The catalogue may hold no Bool parameter, so a local spec exercises the parser.
  const ParamSpec spec = local_spec("test.flag", ParamType::Bool);
  for (const char* yes : {"true", "1", "yes", "on", "TRUE", "On", " yes "}) {
    CHECK(parse_param_value(spec, yes, "test") == "true");
  }
  for (const char* no : {"false", "0", "no", "off", "False", "OFF"}) {
    CHECK(parse_param_value(spec, no, "test") == "false");
  }
  for (const char* bad : {"maybe", "2", "", "y"}) {
    CHECK_THAT(param_error([&] { parse_param_value(spec, bad, "--set"); }),
               Contains("--set test.flag=" + std::string(bad)) && Contains("not a boolean"));
  }
}

TEST_CASE("params: Choice values", "[params]") {
  Params p;
  for (const char* policy : {"lrr", "two_level", "gto"}) {
    p.set("sm.scheduler", policy, "test");
    CHECK(p.text("sm.scheduler") == policy);
  }
  CHECK_THAT(set_error("sm.scheduler=fifo"),
             Contains("--set sm.scheduler=fifo") && Contains("not one of: gto, lrr, two_level"));
  // Choices are exact: a wrong case is an error, not a silent match.
  CHECK_THAT(set_error("sm.scheduler=GTO"), Contains("sm.scheduler") && Contains("not one of"));
}

TEST_CASE("params: Text values", "[params]") {
  const ParamSpec spec = local_spec("test.text", ParamType::Text);
  for (const char* any : {"any thing/at all.json", "", "a=b", "0x", "-1e999"}) {
    CHECK(parse_param_value(spec, any, "test") == any);
  }
  // An override splits at its first '=', so a value may contain '='.
  CHECK_THAT(set_error("sm.scheduler=lrr=x"),
             Contains("sm.scheduler=lrr=x") && Contains("'lrr=x' is not one of"));
}

TEST_CASE("params: parse_param_value canonicalises Int", "[params]") {
  ParamSpec spec = local_spec("test.int", ParamType::Int);
  CHECK(parse_param_value(spec, "0x10", "test") == "16");
  CHECK(parse_param_value(spec, "+7", "test") == "7");
  CHECK(parse_param_value(spec, "-0X1f", "test") == "-31");
  CHECK(parse_param_value(spec, "9223372036854775807", "test") == "9223372036854775807");
  CHECK(parse_param_value(spec, "-9223372036854775808", "test") == "-9223372036854775808");
  CHECK_THAT(param_error([&] { parse_param_value(spec, "9223372036854775808", "test"); }),
             Contains("test.int") && Contains("out of range"));
  spec.min = -10;
  spec.max = 10;
  CHECK(parse_param_value(spec, "-10", "test") == "-10");
  CHECK_THAT(param_error([&] { parse_param_value(spec, "-11", "test"); }),
             Contains("out of range [-10, 10]"));
  CHECK_THAT(param_error([&] { parse_param_value(spec, "--1", "test"); }),
             Contains("not an integer"));
}

TEST_CASE("params: unknown keys and malformed overrides", "[params]") {
  const std::string typo = set_error("rf.bnks=4");
  CHECK_THAT(typo, Contains("unknown parameter 'rf.bnks'") && Contains("--set") &&
                       Contains("did you mean 'rf.banks'?"));
  const std::string far = set_error("zzzz.qqqq=1");
  CHECK_THAT(far, Contains("unknown parameter 'zzzz.qqqq'") && Contains("--set"));
  CHECK_THAT(far, !Contains("did you mean"));
  CHECK_THAT(param_error([] { Params().set("rf.bnks", "4", "preset p (p.json)"); }),
             Contains("'rf.bnks'") && Contains("preset p (p.json)"));

  CHECK_THAT(set_error("rf.banks"), Contains("--set rf.banks") && Contains("key=value"));
  CHECK_THAT(set_error("rf.banks 16"), Contains("--set rf.banks 16") && Contains("key=value"));
}

TEST_CASE("params: overrides apply in order, after the preset", "[params]") {
  const Params p = Params::load("", {"rf.banks=8", "sm.scheduler=lrr", "rf.banks=32"});
  CHECK(p.integer("rf.banks") == 32);
  CHECK(p.text("sm.scheduler") == "lrr");
  CHECK(p.origin("rf.banks") == "--set");
  CHECK(p.origin("sm.max_warps") == "default");

  const Params q = Params::load("wrf-baseline", {"sm.scheduler=lrr"});
  CHECK(q.text("sm.scheduler") == "lrr");
  CHECK(q.origin("sm.scheduler") == "--set");
  CHECK(q.integer("rf.banks") == 16);
  CHECK(q.origin("rf.banks") == "preset wrf-baseline");
}

TEST_CASE("params: shipped presets by name", "[params][presets]") {
  const PresetsEnv env(std::nullopt);
  CHECK(presets_dir() == std::string(WARPREG_SOURCE_DIR) + "/platforms/presets");

  const Params wc = Params::load("wc-baseline");
  CHECK(wc.preset() == "wc-baseline");
  CHECK_FALSE(wc.preset_description().empty());
  CHECK(wc.integer("rf.banks") == 4);
  CHECK(wc.integer("rf.lane_slices") == 8);
  CHECK(wc.text("sm.scheduler") == "gto");
  CHECK(wc.origin("rf.lane_slices") == "preset wc-baseline");
  CHECK(wc.origin("exec.alu_latency") == "default");

  const Params wrf = Params::load("wrf-baseline");
  CHECK(wrf.integer("rf.banks") == 16);
  CHECK(wrf.integer("rf.lane_slices") == 1);
  CHECK(wrf.text("sm.scheduler") == "two_level");

  const Params rfv = Params::load("rfv-baseline");
  CHECK(rfv.integer("rf.banks") == 4);
  CHECK(rfv.text("sm.scheduler") == "two_level");
  CHECK(rfv.integer("sm.ready_queue") == 6);

  const std::string unknown = param_error([] { Params::load("no-such-preset"); });
  CHECK_THAT(unknown, Contains("unknown preset 'no-such-preset'") && Contains("baseline") &&
                          Contains("wc-baseline") && Contains("wrf-baseline") &&
                          Contains("rfv-baseline"));
}

TEST_CASE("params: every shipped preset loads", "[params][presets]") {
  const PresetsEnv env(std::nullopt);
  const auto names = preset_names();
  for (const char* expected : {"baseline", "rfv-baseline", "wc-baseline", "wrf-baseline"}) {
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  }
  for (const auto& name : names) {
    INFO("preset " << name);
    const Params p = Params::load(name);
    CHECK(p.preset() == name);
    CHECK_FALSE(p.preset_description().empty());
    // The file's own "name" must match the name it is loaded by.
    std::ifstream in(presets_dir() + "/" + name + ".json");
    const auto j = nlohmann::json::parse(in);
    CHECK(j.at("name") == name);
    CHECK(j.at("source").is_string());
  }
}

TEST_CASE("params: presets by path, with typed JSON values", "[params][presets]") {
  const TempDir dir("by_path");
  const std::string file = dir.write("custom.json", R"({
    "name": "custom", "description": "a test machine",
    "params": {"rf.banks": 8, "mem.hit_rate": 0.5, "sim.clock_mhz": 700,
               "sm.scheduler": "lrr", "sm.max_warps": "32"}
  })");
  const Params p = Params::load(file, {"rf.banks=2"});
  CHECK(p.preset() == file);
  CHECK(p.preset_description() == "a test machine");
  CHECK(p.integer("rf.banks") == 2);
  CHECK(p.real("mem.hit_rate") == 0.5);
  CHECK(p.real("sim.clock_mhz") == 700.0);
  CHECK(p.text("sm.scheduler") == "lrr");
  CHECK(p.integer("sm.max_warps") == 32);
  CHECK(p.origin("mem.hit_rate") == "preset custom");

  // A name ending in .json is a path even without a '/'.
  CHECK_THAT(param_error([] { Params::load("surely-absent-preset.json"); }),
             Contains("surely-absent-preset.json: cannot open preset file"));
}

TEST_CASE("params: bad presets name the file and the key", "[params][presets]") {
  const TempDir dir("bad");
  const auto error_of = [&](const std::string& name, const std::string& text) {
    const std::string file = dir.write(name, text);
    const std::string msg = param_error([&] { Params::load(file); });
    CHECK_THAT(msg, Contains(file));
    return msg;
  };
  CHECK_THAT(error_of("typo.json", R"({"name": "typo", "params": {"rf.bnks": 16}})"),
             Contains("unknown parameter 'rf.bnks'") && Contains("preset typo") &&
                 Contains("did you mean 'rf.banks'?"));
  CHECK_THAT(error_of("range.json", R"({"params": {"rf.banks": 0}})"),
             Contains("rf.banks=0") && Contains("out of range"));
  CHECK_THAT(error_of("float_int.json", R"({"params": {"rf.banks": 16.5}})"),
             Contains("rf.banks") && Contains("not an integer"));
  CHECK_THAT(error_of("choice.json", R"({"params": {"sm.scheduler": "fifo"}})"),
             Contains("sm.scheduler=fifo"));
  CHECK_THAT(error_of("bool_int.json", R"({"params": {"rf.banks": true}})"),
             Contains("rf.banks=true") && Contains("not an integer"));
  CHECK_THAT(error_of("array.json", R"({"params": {"rf.banks": [16]}})"),
             Contains("rf.banks") && Contains("number, string or boolean"));
  CHECK_THAT(error_of("top.json", R"({"name": "top", "parameters": {}})"),
             Contains("parameters: unknown key \"parameters\""));
  CHECK_THAT(error_of("params_type.json", R"({"params": [1, 2]})"),
             Contains("params: must be an object"));
  CHECK_THAT(error_of("not_object.json", "[1, 2, 3]"), Contains("expected a JSON object"));
  CHECK_THAT(error_of("malformed.json", R"({"params": {"rf.banks": 16,}})"),
             Contains("malformed JSON"));
  CHECK_THAT(error_of("empty.json", ""), Contains("malformed JSON"));
}

TEST_CASE("params: preset inheritance and cycles", "[params][presets]") {
  const TempDir dir("inherit");
  dir.write("parent.json", R"({"name": "parent", "description": "parent machine",
    "params": {"rf.banks": 8, "sm.scheduler": "lrr"}})");
  dir.write("child.json", R"({"name": "child", "description": "child machine",
    "inherits": "parent", "params": {"rf.banks": 32}})");
  dir.write("grandchild.json", R"({"inherits": "child", "params": {"sm.max_warps": 24}})");
  dir.write("loop_a.json", R"({"inherits": "loop_b"})");
  dir.write("loop_b.json", R"({"inherits": "loop_a"})");
  dir.write("self.json", R"({"inherits": "self"})");
  dir.write("orphan.json", R"({"inherits": "nobody"})");
  const PresetsEnv env(dir.str());

  CHECK(presets_dir() == dir.str());
  CHECK(preset_names() == std::vector<std::string>{"child", "grandchild", "loop_a", "loop_b",
                                                   "orphan", "parent", "self"});

  const Params child = Params::load("child");
  CHECK(child.integer("rf.banks") == 32);
  CHECK(child.origin("rf.banks") == "preset child");
  CHECK(child.text("sm.scheduler") == "lrr");
  CHECK(child.origin("sm.scheduler") == "preset parent");
  CHECK(child.preset_description() == "child machine");

  const Params grandchild = Params::load("grandchild");
  CHECK(grandchild.integer("rf.banks") == 32);
  CHECK(grandchild.text("sm.scheduler") == "lrr");
  CHECK(grandchild.integer("sm.max_warps") == 24);
  // Without a "name" field the file stem names the preset.
  CHECK(grandchild.origin("sm.max_warps") == "preset grandchild");

  CHECK_THAT(param_error([] { Params::load("loop_a"); }),
             Contains("cycle") && Contains("loop_a.json") && Contains("loop_b.json"));
  CHECK_THAT(param_error([] { Params::load("self"); }), Contains("cycle"));
  CHECK_THAT(param_error([] { Params::load("orphan"); }),
             Contains("unknown preset 'nobody'") && Contains("parent"));
}

TEST_CASE("params: to_json has typed values", "[params]") {
  const Params p = Params::load("", {"rf.banks=12", "mem.hit_rate=0.25"});
  const nlohmann::json j = p.to_json();
  REQUIRE(j.is_object());
  CHECK(j.size() == param_catalogue().size());
  CHECK(j.at("rf.banks").is_number_integer());
  CHECK(j.at("rf.banks") == 12);
  CHECK(j.at("mem.hit_rate").is_number_float());
  CHECK(j.at("mem.hit_rate") == 0.25);
  CHECK(j.at("sm.scheduler").is_string());
  CHECK(j.at("sm.scheduler") == "gto");
  for (const auto& spec : param_catalogue()) {
    INFO(spec.name);
    const auto& v = j.at(spec.name);
    switch (spec.type) {
      case ParamType::Int:
        CHECK(v.is_number_integer());
        break;
      case ParamType::Real:
        CHECK(v.is_number_float());
        break;
      case ParamType::Bool:
        CHECK(v.is_boolean());
        break;
      case ParamType::Choice:
      case ParamType::Text:
        CHECK(v.is_string());
        break;
    }
  }
}

TEST_CASE("params: typed getters reject the wrong type and unknown names", "[params]") {
  const Params p;
  CHECK_THROWS_AS(p.integer("sm.scheduler"), std::logic_error);
  CHECK_THROWS_AS(p.integer("mem.hit_rate"), std::logic_error);
  CHECK_THROWS_AS(p.real("rf.banks"), std::logic_error);
  CHECK_THROWS_AS(p.flag("rf.banks"), std::logic_error);
  CHECK_THROWS_AS(p.text("rf.banks"), std::logic_error);
  CHECK_THROWS_AS(p.integer("no.such"), std::logic_error);
  CHECK_THROWS_AS(p.origin("no.such"), std::logic_error);
  // A programming error must not look like a user error.
  try {
    p.integer("sm.scheduler");
  } catch (const ParamError&) {
    FAIL("a wrong-type getter threw ParamError");
  } catch (const std::logic_error& e) {
    CHECK_THAT(e.what(), Contains("sm.scheduler"));
  }
}

TEST_CASE("params: every catalogue entry is documented and its default is valid", "[params]") {
  const auto& all = param_catalogue();
  REQUIRE_FALSE(all.empty());
  const Params defaults;
  for (size_t i = 0; i < all.size(); ++i) {
    const ParamSpec& spec = all[i];
    INFO("parameter " << spec.name);
    if (i > 0) CHECK(all[i - 1].name < spec.name);  // sorted and unique
    CHECK(find_param(spec.name) == &spec);
    CHECK_FALSE(spec.description.empty());
    CHECK(spec.min <= spec.max);
    CHECK_NOTHROW(parse_param_value(spec, spec.default_value, "default"));
    // The default must survive a round trip through --set.
    const Params p = Params::load("", {spec.name + "=" + spec.default_value});
    CHECK(p.to_json().at(spec.name) == defaults.to_json().at(spec.name));
    switch (spec.type) {
      case ParamType::Int:
        CHECK(defaults.integer(spec.name) >= spec.min);
        CHECK(defaults.integer(spec.name) <= spec.max);
        break;
      case ParamType::Real:
        CHECK(defaults.real(spec.name) >= spec.min);
        CHECK(defaults.real(spec.name) <= spec.max);
        break;
      case ParamType::Choice:
        CHECK(std::find(spec.choices.begin(), spec.choices.end(), defaults.text(spec.name)) !=
              spec.choices.end());
        break;
      case ParamType::Bool:
      case ParamType::Text:
        break;
    }
  }
  CHECK(find_param("no.such.param") == nullptr);
  CHECK(find_param("") == nullptr);
}

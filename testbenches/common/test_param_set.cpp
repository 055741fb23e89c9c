// Parameters and statistics declared once, in the block: typed members that declare
// themselves and hold their values.
#include <catch2/catch.hpp>

#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/regfile/regfile_module.h"

using namespace warpreg;

namespace {

enum class Flavour { Plain, Fancy };

struct ToyParams : ParamSet {
  explicit ToyParams(const Params* values = nullptr) : ParamSet("toy", values) {}
  Param<uint32_t> units{this, "units", 2, {1, 8}, "units", "Toy units.", "test"};
  Param<double> scale{this, "scale", 0.75, {0, 1}, "factor", "A toy scale.", "test"};
  Param<bool> fast{this, "fast", false, "A toy flag.", "test"};
  Choice<Flavour> flavour{this,
                          "flavour",
                          Flavour::Plain,
                          {{"plain", Flavour::Plain}, {"fancy", Flavour::Fancy}},
                          "A toy choice.",
                          "test"};
};
WARPREG_REGISTER_PARAMS(ToyParams);

struct ToyStats : StatSet {
  ToyStats() : StatSet("toy") {}
  Counter hits{this, "hits", "accesses", "Toy hits."};
  Statistic<double> ratio{this, "ratio", "fraction", "A toy ratio."};
};
WARPREG_REGISTER_STATS(ToyStats);

}  // namespace

TEST_CASE("param set: members declare themselves with their defaults", "[params][set]") {
  const ToyParams defaults;
  REQUIRE(defaults.specs().size() == 4);
  CHECK(defaults.specs()[0].name == "toy.units");
  CHECK(defaults.specs()[0].default_value == "2");
  CHECK(defaults.specs()[1].default_value == "0.75");
  CHECK(defaults.specs()[3].choices == std::vector<std::string>{"plain", "fancy"});
  CHECK(defaults.units == 2u);
  CHECK(defaults.flavour.get() == Flavour::Plain);
  CHECK(find_param("toy.scale") != nullptr);  // registered in the catalogue
}

TEST_CASE("param set: members hold a run's values, with ranges checked on load", "[params][set]") {
  const Params p = Params::load("baseline", {"toy.units=5", "toy.fast=true", "toy.flavour=fancy"});
  const ToyParams toy(&p);
  CHECK(toy.units == 5u);
  CHECK(toy.fast.get());
  CHECK(toy.flavour.get() == Flavour::Fancy);
  CHECK(std::string(toy.flavour.text()) == "fancy");
  CHECK(toy.units.origin() == "--set");
  CHECK(toy.to_json() ==
        nlohmann::json{{"units", 5}, {"scale", 0.75}, {"fast", true}, {"flavour", "fancy"}});
  CHECK_THROWS_WITH(Params::load("baseline", {"toy.units=9"}), Catch::Contains("out of range"));
}

TEST_CASE("param set: the register file's own parameters are typed members", "[params][set]") {
  const Params p = Params::load("wc-baseline");
  const RegFileParams rf(&p);
  CHECK(rf.banks == 4u);
  CHECK(rf.lane_slices == 8u);
  CHECK(rf.bank_mapping.get() == BankMapping::Gpgpusim);
}

TEST_CASE("stat set: counters and statistics report under their declared names", "[stats][set]") {
  ToyStats s;
  ++s.hits;
  s.hits += 2;
  s.ratio.set(0.5);
  nlohmann::json j = nlohmann::json::object();
  s.write(j);
  CHECK(j == nlohmann::json{{"hits", 3}, {"ratio", 0.5}});
  CHECK(s.declares("hits"));
  CHECK_FALSE(s.declares("misses"));
  bool registered = false;
  for (const auto& set : StatRegistry::instance().instances())
    if (set->block() == "toy") registered = set->specs().size() == 2;
  CHECK(registered);
}

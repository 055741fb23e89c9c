// Energy accounts (event energy, lazily integrated residency) and the shipped
// technology tables.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "common/params.h"
#include "power/energy.h"

using namespace warpreg::power;
using Catch::Matchers::Contains;

namespace {

const double kBankMw[kPowerStateCount] = {2.0, 0.2, 0.0, 0.0};  // on, drowsy, off, gated

// A scratch folder removed at the end of the test; random so that parallel ctest
// processes do not share it.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("warpreg_energy_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

// Sets an environment variable for the scope of a test and restores it after.
struct EnvGuard {
  std::string name;
  std::string old;
  bool had;
  EnvGuard(const char* n, const std::string& value) : name(n) {
    const char* v = std::getenv(n);
    had = v != nullptr;
    if (had) old = v;
    setenv(n, value.c_str(), 1);
  }
  ~EnvGuard() {
    if (had) {
      setenv(name.c_str(), old.c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
};

const char* kGoodValue = R"("v": {"value": 1.5, "unit": "pJ", "source": "test"})";

std::string table_text(const std::string& values) {
  return R"({"name": "t", "description": "test", "technology_nm": 7, "values": {)" + values + "}}";
}

}  // namespace

TEST_CASE("event energy is the sum of count times pJ", "[power]") {
  EnergyAccount acc("rf", 1.0);
  auto read = acc.add_event("bank_read", "one 16-byte bank read", 7.0);
  auto write = acc.add_event("bank_write", "one 16-byte bank write", 4.5);
  auto idle = acc.add_event("idle", "never happens", 100.0);
  acc.count(read);
  acc.count(read, 9);
  acc.count(write, 3);
  CHECK(acc.events(read) == 10);
  CHECK(acc.events(write) == 3);
  CHECK(acc.events(idle) == 0);
  CHECK(acc.dynamic_pj() == Approx(10 * 7.0 + 3 * 4.5));
  CHECK(acc.leakage_pj() == 0);

  auto j = acc.to_json();
  CHECK(j["events"]["bank_read"] == 10);
  CHECK(j["events"]["bank_write"] == 3);
  CHECK(j["events"]["idle"] == 0);
  CHECK(j["dynamic_pj"].get<double>() == Approx(83.5));
  CHECK_FALSE(j.contains("residency"));

  auto d = acc.describe();
  REQUIRE(d["events"].size() == 3);
  CHECK(d["events"][0]["name"] == "bank_read");
  CHECK(d["events"][0]["description"] == "one 16-byte bank read");
  CHECK(d["events"][0]["pj_per_event"].get<double>() == 7.0);
  CHECK(d["residency"].empty());
}

TEST_CASE("events and groups must be declared once with sane values", "[power]") {
  EnergyAccount acc("rf", 1.0);
  acc.add_event("read", "", 1.0);
  CHECK_THROWS_AS(acc.add_event("read", "", 2.0), std::logic_error);
  CHECK_THROWS_AS(acc.add_event("neg", "", -1.0), std::invalid_argument);
  acc.add_residency("banks", "", 4, PowerState::On, kBankMw);
  CHECK_THROWS_AS(acc.add_residency("banks", "", 4, PowerState::On, kBankMw), std::logic_error);
  CHECK_THROWS_AS(EnergyAccount("rf", 0.0), std::invalid_argument);
}

TEST_CASE("residency is integrated across state changes", "[power]") {
  // 4 units at 2 mW with 1 ns cycles; 2 go gated (0 mW) at 100 and come back at 300.
  EnergyAccount acc("rf", 1.0);
  auto banks = acc.add_residency("banks", "16 B banks", 4, PowerState::On, kBankMw);
  CHECK(acc.units_in(banks, PowerState::On) == 4);
  acc.transition(banks, PowerState::On, PowerState::Gated, 100, 2);
  CHECK(acc.units_in(banks, PowerState::On) == 2);
  CHECK(acc.units_in(banks, PowerState::Gated) == 2);
  acc.transition(banks, PowerState::Gated, PowerState::On, 300, 2);
  acc.finish(1000);

  // On: 4 x 100 + 2 x 200 + 4 x 700 = 3600 unit-cycles; gated: 2 x 200 = 400.
  CHECK(acc.unit_cycles(banks, PowerState::On, 1000) == 3600);
  CHECK(acc.unit_cycles(banks, PowerState::Gated, 1000) == 400);
  CHECK(acc.unit_cycles(banks, PowerState::Drowsy, 1000) == 0);
  CHECK(acc.leakage_pj() == Approx(3600 * 2.0 * 1.0));  // 7200 pJ

  auto j = acc.to_json();
  CHECK(j["residency"]["banks"]["on"] == 3600);
  CHECK(j["residency"]["banks"]["gated"] == 400);
  CHECK(j["residency"]["banks"]["drowsy"] == 0);
  CHECK(j["leakage_pj"].get<double>() == Approx(7200));

  auto d = acc.describe();
  REQUIRE(d["residency"].size() == 1);
  CHECK(d["residency"][0]["units"] == 4);
  CHECK(d["residency"][0]["mw_per_unit"]["on"].get<double>() == 2.0);
  CHECK(d["residency"][0]["mw_per_unit"]["drowsy"].get<double>() == 0.2);
}

TEST_CASE("leakage scales with cycle time and per-state power", "[power]") {
  // 0.5 ns cycles; 3 units: one drowsy (0.2 mW) from 10 to 50, one off from 20 on.
  EnergyAccount acc("rf", 0.5);
  auto g = acc.add_residency("regs", "", 3, PowerState::On, kBankMw);
  acc.transition(g, PowerState::On, PowerState::Drowsy, 10);
  acc.transition(g, PowerState::On, PowerState::Off, 20);
  acc.transition(g, PowerState::Drowsy, PowerState::On, 50);
  acc.finish(100);
  // On: 3x10 + 2x10 + 1x30 + 2x50 = 180; drowsy: 40; off: 80.
  CHECK(acc.unit_cycles(g, PowerState::On, 100) == 180);
  CHECK(acc.unit_cycles(g, PowerState::Drowsy, 100) == 40);
  CHECK(acc.unit_cycles(g, PowerState::Off, 100) == 80);
  CHECK(acc.leakage_pj() == Approx((180 * 2.0 + 40 * 0.2) * 0.5));
}

TEST_CASE("unit_cycles integrates up to a cycle without changing the account", "[power]") {
  EnergyAccount acc("rf", 1.0);
  auto g = acc.add_residency("banks", "", 4, PowerState::On, kBankMw);
  acc.transition(g, PowerState::On, PowerState::Drowsy, 100, 1);
  CHECK(acc.unit_cycles(g, PowerState::On, 150) == 4 * 100 + 3 * 50);
  CHECK(acc.unit_cycles(g, PowerState::Drowsy, 150) == 50);
  // Asking again, or for a later cycle, does not move the integration point.
  CHECK(acc.unit_cycles(g, PowerState::On, 150) == 550);
  CHECK(acc.unit_cycles(g, PowerState::On, 200) == 700);
  // Leakage only covers what transition()/finish() integrated (up to cycle 100).
  CHECK(acc.leakage_pj() == Approx(400 * 2.0));
  CHECK_THROWS_AS(acc.unit_cycles(g, PowerState::On, 99), std::logic_error);
}

TEST_CASE("bad transitions throw and leave the account untouched", "[power]") {
  EnergyAccount acc("rf", 1.0);
  auto g = acc.add_residency("banks", "", 4, PowerState::On, kBankMw);
  acc.transition(g, PowerState::On, PowerState::Gated, 100, 3);

  // More units than are in the state.
  CHECK_THROWS_AS(acc.transition(g, PowerState::Gated, PowerState::On, 200, 4), std::logic_error);
  CHECK_THROWS_AS(acc.transition(g, PowerState::Drowsy, PowerState::On, 200), std::logic_error);
  // A cycle going backwards.
  CHECK_THROWS_AS(acc.transition(g, PowerState::Gated, PowerState::On, 99), std::logic_error);
  CHECK_THROWS_AS(acc.finish(50), std::logic_error);
  CHECK_THROWS_WITH(acc.transition(g, PowerState::Gated, PowerState::On, 99),
                    Contains("banks") && Contains("99"));
  // Unknown group.
  CHECK_THROWS_AS(acc.transition(7, PowerState::On, PowerState::Off, 200), std::logic_error);

  CHECK(acc.units_in(g, PowerState::Gated) == 3);
  CHECK(acc.units_in(g, PowerState::On) == 1);
  acc.finish(200);
  CHECK(acc.unit_cycles(g, PowerState::On, 200) == 4 * 100 + 1 * 100);
  CHECK(acc.unit_cycles(g, PowerState::Gated, 200) == 300);
}

TEST_CASE("power states have stable names", "[power]") {
  CHECK(std::string(to_string(PowerState::On)) == "on");
  CHECK(std::string(to_string(PowerState::Drowsy)) == "drowsy");
  CHECK(std::string(to_string(PowerState::Off)) == "off");
  CHECK(std::string(to_string(PowerState::Gated)) == "gated");
}

TEST_CASE("the shipped technology tables load and agree with power.tech", "[power][tech]") {
  auto names = tech_names();
  CHECK(names == std::vector<std::string>{"fermi40", "rfv40", "wc45", "wrf32"});

  const warpreg::ParamSpec* tech = warpreg::find_param("power.tech");
  REQUIRE(tech != nullptr);
  CHECK(tech->choices == names);
  CHECK(std::find(names.begin(), names.end(), tech->default_value) != names.end());

  for (const auto& name : names) {
    INFO(name);
    auto t = TechTable::load(name);
    CHECK(t.name() == name);
    CHECK_FALSE(t.description().empty());
    CHECK(t.technology_nm() > 0);
    auto j = t.to_json();
    CHECK(j["name"] == name);
    for (const auto& [key, v] : j["values"].items()) {
      INFO(key);
      CHECK_FALSE(v["source"].get<std::string>().empty());
    }
  }
}

TEST_CASE("the shipped tables hold the seeds' values", "[power][tech]") {
  auto wc = TechTable::load("wc45");
  CHECK(wc.value("rf_bank_read") == 7.0);
  CHECK(wc.attribute("rf_bank_read", "access_bytes") == 16);
  CHECK(wc.value("rf_bank_leakage") == 5.8);
  CHECK(wc.attribute("rf_bank_leakage", "bank_bytes") == 4096);
  CHECK(wc.value("crossbar_transfer") == 9.6);
  CHECK(wc.value("compressor_activation") == 23);
  CHECK(wc.value("decompressor_leakage") == 0.08);
  CHECK_THAT(wc.at("rf_bank_read").source, Contains("seed 001 Table 3"));

  auto rfv = TechTable::load("rfv40");
  CHECK(rfv.value("rf_bank_read") == 4.68);
  CHECK(rfv.value("rf_bank_leakage") == 2.8);
  CHECK(rfv.value("renaming_table_access") == 1.14);
  CHECK(rfv.value("renaming_table_leakage") == 0.27);
  // Derived: seed 001's wire energy rescaled by Vdd^2.
  CHECK(rfv.value("crossbar_transfer") == Approx(9.6 * 0.96 * 0.96));

  auto wrf = TechTable::load("wrf32");
  CHECK(wrf.value("rf_bank_leakage") == 5.6);
  CHECK(wrf.attribute("rf_bank_leakage", "bank_bytes") == 8192);
  CHECK(wrf.value("sram_cell_leakage") == 26.08);
  CHECK(wrf.value("rf_drowsy_leakage_fraction") == 0.10);
  // Derived: dynamic power twice the bank leakage at one access per 1.4 GHz cycle.
  CHECK(wrf.value("rf_bank_read") == Approx(2 * 5.6 / 1.4));
  CHECK(wrf.value("crossbar_transfer") == Approx(9.6 * 0.9 * 0.9));
}

TEST_CASE("every shipped table has every key the baseline platform needs", "[power][tech]") {
  struct Required {
    const char* key;
    const char* unit;
    const char* attribute;  // scaling qualifier the platform reads, or nullptr
  };
  const Required required[] = {
      {"rf_bank_read", "pJ", "access_bytes"},   {"rf_bank_write", "pJ", "access_bytes"},
      {"rf_bank_leakage", "mW", "bank_bytes"},  {"crossbar_transfer", "pJ/mm", "transfer_bytes"},
      {"collector_read", "pJ", "access_bytes"}, {"collector_write", "pJ", "access_bytes"},
      {"arbiter_request", "pJ", nullptr},       {"rf_gated_leakage_fraction", "fraction", nullptr},
  };
  for (const auto& name : tech_names()) {
    auto t = TechTable::load(name);
    for (const auto& r : required) {
      INFO(name << ": " << r.key);
      REQUIRE(t.has(r.key));
      CHECK(t.at(r.key).unit == r.unit);
      CHECK(t.value(r.key) >= 0);
      if (r.attribute != nullptr) CHECK(t.attribute(r.key, r.attribute) > 0);
    }
    CHECK(t.attribute("collector_read", "access_bytes") == 128);
    CHECK(t.attribute("crossbar_transfer", "transfer_bytes") == 16);
  }
}

TEST_CASE("missing keys and attributes name the table", "[power][tech]") {
  auto t = TechTable::load("wc45");
  CHECK_FALSE(t.has("flux_capacitor"));
  CHECK_THROWS_AS(t.at("flux_capacitor"), TechError);
  CHECK_THROWS_WITH(t.value("flux_capacitor"), Contains("wc45") && Contains("flux_capacitor"));
  CHECK_THROWS_WITH(t.attribute("rf_bank_read", "bank_bytes"),
                    Contains("wc45") && Contains("rf_bank_read") && Contains("bank_bytes"));
}

TEST_CASE("technology tables load by path and from $WARPREG_TECH", "[power][tech]") {
  TempDir dir;
  auto path = dir.write("mine.json", table_text(kGoodValue));
  auto t = TechTable::load(path);
  CHECK(t.name() == "t");
  CHECK(t.path() == path);
  CHECK(t.value("v") == 1.5);
  CHECK(t.technology_nm() == 7);

  EnvGuard env("WARPREG_TECH", dir.path.string());
  CHECK(tech_dir() == dir.path.string());
  CHECK(tech_names() == std::vector<std::string>{"mine"});
  CHECK(TechTable::load("mine").value("v") == 1.5);
  CHECK_THROWS_WITH(TechTable::load("wc45"), Contains("wc45") && Contains("mine"));
}

TEST_CASE("bad technology tables are refused naming the file", "[power][tech]") {
  TempDir dir;
  SECTION("missing file") {
    auto path = (dir.path / "absent.json").string();
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path));
    CHECK_THROWS_WITH(TechTable::load("no_such_table"),
                      Contains("no_such_table") && Contains("wc45"));
  }
  SECTION("malformed JSON") {
    auto path = dir.write("broken.json", R"({"name": "t", "values": {)");
    CHECK_THROWS_AS(TechTable::load(path), TechError);
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path) && Contains("malformed JSON"));
  }
  SECTION("a value without a source") {
    auto path = dir.write("nosource.json", table_text(R"("x": {"value": 1, "unit": "pJ"})"));
    CHECK_THROWS_WITH(TechTable::load(path),
                      Contains(path) && Contains("values.x: missing \"source\""));
  }
  SECTION("a value without a number") {
    auto path =
        dir.write("nonum.json", table_text(R"("x": {"value": "7", "unit": "pJ", "source": "s"})"));
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path) && Contains("value"));
  }
  SECTION("a value without a unit") {
    auto path = dir.write("nounit.json", table_text(R"("x": {"value": 7, "source": "s"})"));
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path) && Contains("unit"));
  }
  SECTION("an unknown text field") {
    auto path = dir.write(
        "typo.json", table_text(R"("x": {"value": 7, "unit": "pJ", "source": "s", "sorce": "s"})"));
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path) && Contains("sorce"));
  }
  SECTION("no values object") {
    auto path =
        dir.write("novalues.json", R"({"name": "t", "description": "", "technology_nm": 7})");
    CHECK_THROWS_WITH(TechTable::load(path), Contains(path) && Contains("values"));
  }
}

TEST_CASE("docs/power.md lists every shipped value", "[power][tech]") {
  std::ifstream in(WARPREG_SOURCE_DIR "/docs/power.md");
  REQUIRE(in);
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& name : tech_names()) {
    auto j = TechTable::load(name).to_json();
    for (const auto& [key, v] : j["values"].items()) {
      char value[32];
      std::snprintf(value, sizeof value, "%g", v["value"].get<double>());
      const std::string row = "| `" + key + "` | " + value + " | " + v["unit"].get<std::string>();
      INFO(name << ": " << row);
      CHECK(doc.find(row) != std::string::npos);
    }
  }
}

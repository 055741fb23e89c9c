// Golden vectors of TRIC and COMA: consistent with the policy, and unchanged
// (testbenches/wrf/golden/*_vectors.json; WARPREG_UPDATE_GOLDEN=1 rewrites them).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>

#include "modules/wrf/wrf_vectors.h"

using namespace warpreg;

namespace {

void check_golden(const std::string& name, const nlohmann::json& got) {
  const std::string path =
      std::string(WARPREG_SOURCE_DIR) + "/testbenches/wrf/golden/" + name + ".json";
  if (std::getenv("WARPREG_UPDATE_GOLDEN")) {
    std::ofstream(path) << got.dump(1) << "\n";
    WARN("golden file rewritten: " << path);
    return;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  const nlohmann::json want = nlohmann::json::parse(in);
  CHECK(want == got);
}

}  // namespace

TEST_CASE("tric vectors: every read waits at most the unhidden wake-up and no violation",
          "[tric][vectors]") {
  const nlohmann::json v = tric_vectors(1, 60);
  const uint64_t unhidden =
      v["config"]["wakeup_latency"].get<uint64_t>() - v["config"]["hidden_cycles"].get<uint64_t>();
  size_t reads = 0, on_seen = 0;
  for (const nlohmann::json& e : v["events"]) {
    const std::string states = e["states"];
    if (states.find('N') != std::string::npos) ++on_seen;
    CHECK(states.substr(32) == "OOOOOOOO");  // never allocated: always off
    if (e["op"] == "wake" && e["destination"] == false) {
      ++reads;
      const uint64_t cycle = e["cycle"], ready = e["expect_ready"];
      CHECK(ready >= cycle);
      CHECK(ready <= cycle + unhidden);
      CHECK(states[e["reg"].get<size_t>()] == 'N');
    }
  }
  CHECK(reads > 50);
  CHECK(on_seen > 0);
  CHECK(v["final"]["violations"] == 0);
  check_golden("tric_vectors", v);
}

TEST_CASE("coma vectors: a read gates with the mask last assigned to its collector",
          "[coma][vectors]") {
  const nlohmann::json v = coma_vectors(1, 60);
  std::map<uint32_t, std::string> table;
  size_t reads = 0;
  for (const nlohmann::json& e : v["events"]) {
    if (e["op"] == "assign") table[e["collector"]] = e["mask"];
    if (e["op"] == "read") {
      ++reads;
      const uint32_t cu = e["collector"];
      CHECK(e["expect_gate"] == (table.count(cu) ? table[cu] : std::string("0xffffffff")));
      CHECK(e["expect_mismatch"] == false);
    }
    if (e["op"] == "writeback") CHECK(e["expect_gate"] == e["mask"]);
  }
  CHECK(reads > 10);
  check_golden("coma_vectors", v);
}

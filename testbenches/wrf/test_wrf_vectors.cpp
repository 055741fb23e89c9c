// Golden vectors of TRIC and COMA: consistent with the policy, and unchanged
// (testbenches/wrf/golden/*_vectors.jsonl; WARPREG_UPDATE_GOLDEN=1 rewrites them).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "modules/wrf/wrf_vectors.h"

using namespace warpreg;

namespace {

void check_golden(const vectors::VectorGenerator& g, uint64_t count) {
  std::ostringstream got;
  vectors::write_vectors(g, vectors::Format::JsonLines, got, count, 1);
  const std::string path =
      std::string(WARPREG_SOURCE_DIR) + "/testbenches/wrf/golden/" + g.name + "_vectors.jsonl";
  if (std::getenv("WARPREG_UPDATE_GOLDEN")) {
    std::ofstream(path) << got.str();
    WARN("golden file rewritten: " << path);
    return;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream want;
  want << in.rdbuf();
  CHECK(want.str() == got.str());
}

/// Entry `reg`'s two-bit state in the 80-bit "states" hex string: 0 off, 1 drowsy, 2 on.
unsigned state(const std::string& hex, unsigned reg) {
  const char digit = hex[hex.size() - 1 - reg / 2];
  const unsigned v = digit <= '9' ? digit - '0' : digit - 'a' + 10;
  return (v >> (2 * (reg % 2))) & 3u;
}

}  // namespace

TEST_CASE("tric vectors: every read waits at most the unhidden wake-up and is served when on",
          "[tric][vectors]") {
  const vectors::VectorGenerator g = tric_vector_generator();
  const auto events = vectors::records_as_json(g, 60, 1);
  const uint64_t unhidden = g.parameters["wakeup_latency"].get<uint64_t>() -
                            g.parameters["hidden_cycles"].get<uint64_t>();
  std::map<uint32_t, uint64_t> ready;
  size_t reads = 0, on_seen = 0;
  for (const auto& e : events) {
    const std::string states = e["states"];
    for (unsigned reg = 0; reg < 40; ++reg) on_seen += state(states, reg) == 2;
    for (unsigned reg = 32; reg < 40; ++reg) CHECK(state(states, reg) == 0);  // never allocated
    const uint32_t reg = e["reg"];
    if (e["op"] == "wake") {
      const uint64_t cycle = e["cycle"];
      CHECK(e["ready"] >= cycle);
      CHECK(e["ready"] <= cycle + unhidden);
      CHECK(state(states, reg) == 2);
      if (!e["destination"]) ready[reg] = e["ready"];
    }
    if (e["op"] == "read_done") {
      ++reads;
      CHECK(e["served"] >= ready.at(reg));  // no access before the entry is on
      CHECK(e["done"] == e["served"].get<uint64_t>() + 1);
    }
  }
  CHECK(reads > 50);
  CHECK(on_seen > 0);
  check_golden(g, 60);
}

TEST_CASE("coma vectors: a read gates with the mask last assigned to its collector",
          "[coma][vectors]") {
  const vectors::VectorGenerator g = coma_vector_generator();
  std::map<uint32_t, uint32_t> table;
  size_t reads = 0;
  for (const auto& e : vectors::records_as_json(g, 60, 1)) {
    if (e["op"] == "assign") table[e["collector"]] = e["mask"];
    if (e["op"] == "read") {
      ++reads;
      const uint32_t cu = e["collector"];
      CHECK(e["gate"] == (table.count(cu) ? table[cu] : 0xffffffffu));
      CHECK(e["mismatch"] == false);
    }
    if (e["op"] == "writeback") CHECK(e["gate"] == e["mask"]);
  }
  CHECK(reads > 10);
  check_golden(g, 60);
}

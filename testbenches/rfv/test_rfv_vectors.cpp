// `warpreg vectors rename-table|release-flag-cache`: the responses follow the allocation
// rule and the cache's hit rule.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "modules/rfv/rfv_vectors.h"

using namespace warpreg;

TEST_CASE("rfv vectors: the renaming table maps in the compiler's bank, exempt registers directly",
          "[rfv][vectors]") {
  const auto records = vectors::records_as_json(rename_table_vector_generator(), 500, 7);
  REQUIRE(records.size() == 500);
  int writes = 0, releases = 0, exits = 0;
  for (const auto& r : records) {
    int free_total = 0;
    for (int b = 0; b < 4; ++b) free_total += r["free_bank" + std::to_string(b)].get<int>();
    CHECK(free_total <= 64 - 8);  // 4 warps x 2 exempt registers are never free
    if (r["op"] == "release") releases += r["freed"].get<int>();
    if (r["op"] == "exit") exits += r["freed"].get<int>() > 0;
    if (r["op"] != "write" || !r["mapped"]) continue;
    const int reg = r["reg"], warp = r["warp"], phys = r["phys"];
    if (reg < 2)
      CHECK(phys == warp * 2 + reg);  // exempt: direct mapping
    else
      CHECK(phys % 4 == (reg + warp) % 4);  // the compiler's bank
    ++writes;
  }
  CHECK(writes > 100);
  CHECK(releases > 10);
  CHECK(exits > 0);
}

TEST_CASE("rfv vectors: a probe hits when the line holds its pc and returns what was filled",
          "[rfv][vectors]") {
  const auto records = vectors::records_as_json(release_flag_cache_vector_generator(), 300, 3);
  std::map<uint64_t, std::pair<uint64_t, std::string>> lines;  // index -> (pc, flags)
  int hits = 0, misses = 0;
  for (const auto& r : records) {
    const uint64_t pc = r["pc"], index = (pc / 8) % 10;
    const auto it = lines.find(index);
    const bool expect_hit = it != lines.end() && it->second.first == pc;
    CHECK(r["hit"] == expect_hit);
    if (expect_hit) {
      CHECK(r["flags"] == it->second.second);
      ++hits;
    } else {
      lines[index] = {pc, r["fill_flags"].get<std::string>()};
      ++misses;
    }
  }
  CHECK(hits > 50);
  CHECK(misses > 20);
}

// `warpreg vectors aau`: deterministic, and the queues always hold every slot once.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "modules/ltrf/ltrf_vectors.h"

using namespace warpreg;

namespace {

/// Entries [0, count) of a queue packed one hex digit per slot, the head the last digit.
std::vector<uint32_t> queue(const std::string& hex, uint32_t count) {
  std::vector<uint32_t> q;
  for (uint32_t k = 0; k < count; ++k)
    q.push_back(static_cast<uint32_t>(std::stoul(hex.substr(hex.size() - 1 - k, 1), nullptr, 16)));
  for (size_t d = 2; d + count < hex.size(); ++d) CHECK(hex[d] == '0');  // unused digits
  return q;
}

}  // namespace

TEST_CASE("ltrf vectors: the queues partition the slots and allocation takes the unused head",
          "[ltrf][vectors]") {
  const auto steps = vectors::records_as_json(aau_vector_generator(), 300, 5);
  REQUIRE(steps.size() == 300);
  bool saw_empty = false, saw_deallocate = false;
  std::vector<uint32_t> unused_before;
  for (uint32_t s = 0; s < 16; ++s) unused_before.push_back(s);
  for (const auto& step : steps) {
    const auto unused = queue(step["unused"], step["unused_count"]);
    const auto occupied = queue(step["occupied"], step["occupied_count"]);
    std::set<uint32_t> all(unused.begin(), unused.end());
    all.insert(occupied.begin(), occupied.end());
    CHECK(all.size() == 16);
    CHECK(unused.size() + occupied.size() == 16);
    if (step["op"] == "allocate") {
      CHECK(step["granted"] == !unused_before.empty());
      if (step["granted"]) {
        CHECK(step["slot"] == unused_before.front());
        CHECK(occupied.back() == unused_before.front());
      } else {
        saw_empty = true;
      }
    } else {
      saw_deallocate = true;
      CHECK(unused.back() == step["slot"]);
    }
    unused_before = unused;
  }
  CHECK(saw_deallocate);
  CHECK(saw_empty);
}

// `warpreg vectors aau`: deterministic, and the queues always hold every slot once.
#include <catch2/catch.hpp>
#include <set>

#include "modules/ltrf/ltrf_vectors.h"

using namespace warpreg;

TEST_CASE("ltrf vectors: the same seed gives the same steps and the queues partition the slots",
          "[ltrf][vectors]") {
  const nlohmann::json a = aau_vectors(5, 300);
  CHECK(a == aau_vectors(5, 300));
  CHECK(a != aau_vectors(6, 300));
  bool saw_empty = false, saw_deallocate = false;
  for (const nlohmann::json& step : a["steps"]) {
    std::set<uint32_t> all;
    for (uint32_t s : step["unused"]) all.insert(s);
    for (uint32_t s : step["occupied"]) all.insert(s);
    CHECK(all.size() == 16);
    CHECK(step["unused"].size() + step["occupied"].size() == 16);
    if (step["op"] == "allocate" && step["result"] == -1) saw_empty = true;
    if (step["op"] == "deallocate") saw_deallocate = true;
  }
  CHECK(saw_deallocate);
  CHECK(saw_empty);
}

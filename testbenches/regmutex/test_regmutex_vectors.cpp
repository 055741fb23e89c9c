// warpreg vectors regmutex: the boundary rows of the SRP allocator's golden vectors.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "modules/regmutex/regmutex_vectors.h"

TEST_CASE("regmutex vectors: boundary rows fill the pool stall and ignore double operations",
          "[regmutex][vectors]") {
  std::ostringstream out;
  const uint64_t rows = warpreg::regmutex::write_vectors(out, 10, 7);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == rows + 2);  // a comment and the header
  CHECK(rows == 27 + 5 + 48 + 10);
  CHECK(lines[1] == "step,op,warp,outcome,section,srp_bitmask_hex,phys_x0,phys_x_bs");
  CHECK(lines[2] == "0,acquire,0,acquired,0,fffffc000001,0,864");
  CHECK(lines[27] == "25,acquire,25,acquired,25,ffffffffffff,450,1014");
  CHECK(lines[28] == "26,acquire,26,stall,-1,ffffffffffff,468,-1");
  CHECK(lines[29] == "27,acquire,3,no_effect,3,ffffffffffff,54,882");
  CHECK(lines[30] == "28,release,5,released,-1,ffffffffffdf,90,-1");
  CHECK(lines[31] == "29,release,5,no_effect,-1,ffffffffffdf,90,-1");
  CHECK(lines[32] == "30,acquire,26,acquired,5,ffffffffffff,468,894");
  // The same seed gives the same file; another seed other random rows.
  std::ostringstream again, other;
  warpreg::regmutex::write_vectors(again, 10, 7);
  warpreg::regmutex::write_vectors(other, 10, 8);
  CHECK(again.str() == out.str());
  CHECK(other.str() != out.str());
}

// PcIndex answers the same sealed (an array) as unsealed (a hash map), for regular,
// irregular and sparse PCs.
#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "common/pc_index.h"

using warpreg::PcIndex;

TEST_CASE("pc index: sealed lookups equal the hash map's for any PC layout", "[common]") {
  std::mt19937_64 rng(11);
  for (const uint64_t spacing : {8ull, 16ull, 24ull, 1ull, 0x100000ull}) {
    PcIndex index;
    std::map<uint64_t, uint32_t> truth;
    const uint64_t base = 0x4000 + rng() % 64 * spacing;
    for (uint32_t i = 0; i < 300; ++i) {
      // spacing 1 also mixes in far-away PCs: too sparse for the array.
      const uint64_t pc = spacing == 1 && i % 7 == 0 ? rng() >> 20 : base + (rng() % 600) * spacing;
      if (truth.emplace(pc, i).second)
        index.insert(pc, i);
      else
        index.insert(pc, i + 1000);  // the first value stands
    }
    index[base + 2 * spacing] |= 0x10000;  // read-modify-write before sealing
    truth[base + 2 * spacing] |= 0x10000;
    const auto check = [&](uint64_t pc) {
      const auto it = truth.find(pc);
      REQUIRE(index.find(pc) == (it == truth.end() ? PcIndex::kNone : it->second));
    };
    for (int sealed = 0; sealed < 2; ++sealed) {
      INFO("spacing " << spacing << (sealed ? ", sealed" : ""));
      for (const auto& [pc, value] : truth) check(pc);
      for (uint64_t pc = base - 3 * spacing; pc < base + 620 * spacing; pc += 1 + spacing / 3)
        check(pc);
      check(0);
      check(~uint64_t(0));
      index.seal();
    }
  }
}

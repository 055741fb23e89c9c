// Address models: each pattern's lane mapping, determinism per seed and independence from
// the order warps run in, the local layout, and the per-benchmark mix in JSON.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "common/errors.h"
#include "modules/memory/address_model.h"

using namespace warpreg;
using namespace warpreg::memory;

namespace {

AddressModelConfig model(AddressPattern pattern, MemSpace space = MemSpace::Global) {
  AddressModelConfig m;
  m.space = space;
  m.pattern = pattern;
  return m;
}

AccessSite site(uint64_t warp, uint64_t instance = 0) {
  AccessSite s;
  s.warp = warp;
  s.grid_warps = 100;
  s.instance = instance;
  return s;
}

CoalescedAccess& coalesce(const AddressModel& m, const AccessSite& s, LaneMask mask = kFullMask) {
  static CoalescedAccess out;
  WarpAccess a;
  m.generate(s, mask, a);
  Coalescer{}.coalesce(a, out);
  return out;
}

}  // namespace

TEST_CASE("address model: coalesced lanes are consecutive elements of the warp's tile",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Coalesced);
  c.base = 0x10000;
  const AddressModel m(c, 1, 0x48);
  CHECK(m.address(site(0), 0) == 0x10000);
  CHECK(m.address(site(0), 31) == 0x10000 + 31 * 4);
  CHECK(m.address(site(3), 0) == 0x10000 + 3 * 128);
  // Instance k of a warp moves one grid of 100 warps further (grid-stride loop).
  CHECK(m.address(site(3, 2), 0) == 0x10000 + (2 * 100 + 3) * 128);
  CHECK(coalesce(m, site(7)).count == 1);
}

TEST_CASE("address model: strided lanes are stride_bytes apart", "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Strided);
  c.stride_bytes = 128;
  const AddressModel m(c, 1, 0x48);
  CHECK(m.address(site(0), 5) - m.address(site(0), 4) == 128);
  CHECK(coalesce(m, site(0)).count == 32);  // one request per lane: uncoalesced
  c.stride_bytes = 8;
  CHECK(coalesce(AddressModel(c, 1, 0x48), site(0)).count == 2);
}

TEST_CASE("address model: random addresses are aligned, in the footprint and seeded",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Random);
  c.base = 0x40000000;
  c.footprint_bytes = 1 << 20;
  const AddressModel a(c, 7, 0x90), same(c, 7, 0x90), other_seed(c, 8, 0x90), other_pc(c, 7, 0x98);
  std::set<uint64_t> lines;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    const uint64_t x = a.address(site(5, 3), lane);
    CHECK(x % 4 == 0);
    CHECK(x >= c.base);
    CHECK(x < c.base + c.footprint_bytes);
    CHECK(x == same.address(site(5, 3), lane));
    lines.insert(x / 128);
  }
  CHECK(lines.size() > 24);  // scattered over a 1 MB footprint
  uint32_t differing = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    differing += a.address(site(5, 3), lane) != other_seed.address(site(5, 3), lane);
    differing += a.address(site(5, 3), lane) != other_pc.address(site(5, 3), lane);
  }
  CHECK(differing > 60);
}

TEST_CASE("address model: addresses do not depend on the order warps execute in",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Random);
  c.footprint_bytes = 1 << 16;
  const AddressModel m(c, 3, 0x10);
  WarpAccess forward, backward;
  std::vector<uint64_t> first;
  for (uint64_t w = 0; w < 8; ++w) {
    m.generate(site(w, 1), kFullMask, forward);
    first.push_back(forward.address[17]);
  }
  for (uint64_t w = 8; w-- > 0;) {
    m.generate(site(w, 1), kFullMask, backward);
    CHECK(backward.address[17] == first[w]);
  }
}

TEST_CASE("address model: uniform lanes share one address per instance, footprints wrap",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Uniform, MemSpace::Constant);
  c.footprint_bytes = 64;
  const AddressModel m(c, 1, 0x20);
  CHECK(m.address(site(4, 3), 0) == 12);
  CHECK(m.address(site(4, 3), 31) == 12);
  CHECK(m.address(site(9, 16), 0) == 0);  // 16 x 4 bytes wraps in the 64-byte footprint
  CHECK(coalesce(m, site(0)).count == 1);
  AddressModelConfig tiled = model(AddressPattern::Coalesced);
  tiled.footprint_bytes = 4096;
  const AddressModel t(tiled, 1, 0x28);
  CHECK(t.address(site(32), 0) == 0);  // warp 32's tile starts 4096 bytes on: wrapped
}

TEST_CASE("address model: local words interleave the threads of all SMs",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Coalesced, MemSpace::Local);
  c.base = 8;                // the third word of every thread's frame (e.g. a spill slot)
  const LocalLayout layout;  // 15 SMs x 1536 threads
  const AddressModel m(c, 1, 0x30, layout);
  AccessSite s = site(0);
  s.sm = 2;
  s.warp_slot = 5;
  const uint64_t thread = 2 * 1536 + 5 * 32;
  CHECK(m.address(s, 0) == layout.base + (2 * layout.threads() + thread) * 4);
  CHECK(m.address(s, 1) - m.address(s, 0) == 4);
  CHECK(coalesce(m, s).count == 1);
  c.access_bytes = 8;  // two words, one plane of the layout apart
  CHECK(coalesce(AddressModel(c, 1, 0x30, layout), s).count == 2);
}

TEST_CASE("address model: shared patterns and bank conflicts", "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Strided, MemSpace::Shared);
  c.stride_bytes = 8;
  c.footprint_bytes = 48 * 1024;
  CHECK(coalesce(AddressModel(c, 1, 0x40), site(0)).shared_passes == 2);
  c.pattern = AddressPattern::Coalesced;
  CHECK(coalesce(AddressModel(c, 1, 0x40), site(0)).shared_passes == 1);
}

TEST_CASE("address model: invalid models name the field", "[memory][address-model][bad-input]") {
  AddressModelConfig c = model(AddressPattern::Random);
  CHECK_THROWS_WITH(AddressModel(c, 1, 0, {}, "ld"), Catch::Contains("ld.footprint_bytes"));
  c = model(AddressPattern::Strided, MemSpace::Local);
  CHECK_THROWS_WITH(AddressModel(c, 1, 0, {}, "ld"), Catch::Contains("ld.pattern"));
  c = model(AddressPattern::Coalesced);
  c.access_bytes = 3;
  CHECK_THROWS_WITH(AddressModel(c, 1, 0, {}, "ld"), Catch::Contains("ld.access_bytes"));
}

TEST_CASE("address mix: per-benchmark models from JSON and back", "[memory][address-model]") {
  const nlohmann::json j = nlohmann::json::parse(R"({
    "benchmark": "bfs", "seed": 11,
    "rationale": "edge list streamed, node arrays indexed by neighbour id",
    "defaults": {"global": {"pattern": "coalesced"},
                 "local": {"pattern": "coalesced", "base": 16}},
    "instructions": [
      {"pc": 200, "space": "global", "pattern": "random", "footprint_bytes": 4194304},
      {"pc": 232, "space": "shared", "pattern": "strided", "stride_bytes": 8,
       "footprint_bytes": 16384}]})");
  const AddressMix mix = AddressMix::from_json(j, "bfs.json");
  CHECK(mix.seed == 11);
  CHECK(mix.model_for(200, MemSpace::Global).pattern == AddressPattern::Random);
  CHECK(mix.model_for(200, MemSpace::Global).footprint_bytes == 4194304);
  CHECK(mix.model_for(208, MemSpace::Global).pattern == AddressPattern::Coalesced);
  CHECK(mix.model_for(208, MemSpace::Local).base == 16);
  CHECK(mix.model_for(216, MemSpace::Constant).space == MemSpace::Constant);
  // No default for a space: the SM's own (constant: uniform over the PC's own table).
  CHECK(mix.model_for(216, MemSpace::Constant).own_array);
  CHECK(mix.model_for(216, MemSpace::Constant).pattern == AddressPattern::Uniform);
  CHECK(mix.model_for(232, MemSpace::Shared).stride_bytes == 8);
  const AddressMix again = AddressMix::from_json(mix.to_json(), "round trip");
  CHECK(again.to_json() == mix.to_json());
}

TEST_CASE("address mix: bad JSON names the file and field", "[memory][address-model][bad-input]") {
  using nlohmann::json;
  CHECK_THROWS_WITH(AddressMix::from_json(json::parse(R"({"instructions": [{"pc": 8,
      "space": "global", "pattern": "zigzag"}]})"),
                                          "mix.json"),
                    Catch::Contains("mix.json.instructions[0].pattern"));
  CHECK_THROWS_WITH(
      AddressMix::from_json(json::parse(R"({"instructions": [{"space": "global"}]})"), "mix.json"),
      Catch::Contains("mix.json.instructions[0].pc"));
  CHECK_THROWS_WITH(
      AddressMix::from_json(json::parse(R"({"defaults": {"texture": {}}})"), "mix.json"),
      Catch::Contains("mix.json.defaults.texture"));
  CHECK_THROWS_WITH(AddressMix::from_json(json::parse(R"({"defaults": {"global":
      {"pattern": "random"}}})"),
                                          "mix.json"),
                    Catch::Contains("footprint_bytes"));
  CHECK_THROWS_WITH(AddressMix::from_json(json::parse(R"({"seeds": 3})"), "mix.json"),
                    Catch::Contains("mix.json.seeds"));
  CHECK_THROWS_AS(AddressMix::from_json(json::parse(R"({"instructions": [{"pc": -4,
      "space": "global"}]})"),
                                        "mix.json"),
                  ConfigError);
}

TEST_CASE("address mix: shares are drawn by PC, within the declared space",
          "[memory][address-model]") {
  AddressMix mix;
  mix.seed = 3;
  AddressShare shared;
  shared.share = 0.5;
  shared.model = model(AddressPattern::Coalesced, MemSpace::Shared);
  shared.model.footprint_bytes = 4096;
  AddressShare constant;
  constant.share = 0.3;
  constant.model = model(AddressPattern::Uniform, MemSpace::Constant);
  mix.shares = {shared, constant};
  mix.validate("mix");
  std::map<MemSpace, int> undeclared, declared_global, stores;
  for (uint64_t pc = 0; pc < 8 * 4000; pc += 8) {
    ++undeclared[mix.model_for(pc, MemSpace::Global, false).space];
    ++declared_global[mix.model_for(pc, MemSpace::Global, true).space];
    ++stores[mix.model_for(pc, MemSpace::Global, false, true).space];
    // The same instruction draws the same model every time.
    CHECK(mix.model_for(pc, MemSpace::Global, false).space ==
          mix.model_for(pc, MemSpace::Global, false).space);
  }
  // Without a declared space an instruction draws among all shares: about 50/30/20 %.
  CHECK(undeclared[MemSpace::Shared] == Approx(2000).margin(150));
  CHECK(undeclared[MemSpace::Constant] == Approx(1200).margin(150));
  CHECK(undeclared[MemSpace::Global] == Approx(800).margin(150));
  // A declared global load draws only among global shares (none here): all global.
  CHECK(declared_global[MemSpace::Global] == 4000);
  // A store never draws constant memory.
  CHECK(stores.count(MemSpace::Constant) == 0);
  CHECK(stores[MemSpace::Shared] == undeclared[MemSpace::Shared]);
}

TEST_CASE("address model: an own array offsets the region by the instruction's array",
          "[memory][address-model]") {
  AddressModelConfig c = model(AddressPattern::Coalesced);
  c.own_array = true;
  const AddressModel a(c, 1, 0x40), b(c, 1, 0x48);
  CHECK(a.address(site(0), 0) == array_base(MemSpace::Global, 0x40));
  CHECK(b.address(site(0), 0) == array_base(MemSpace::Global, 0x48));
  CHECK(b.address(site(0), 0) - a.address(site(0), 0) == array_bytes(MemSpace::Global));
  // Without a footprint the offsets wrap at the array's end.
  CHECK(a.address(site(0, 1u << 20), 0) <
        array_base(MemSpace::Global, 0x40) + array_bytes(MemSpace::Global));
  AddressModelConfig k = model(AddressPattern::Uniform, MemSpace::Constant);
  k.own_array = true;
  const AddressModel t(k, 1, 0x40);
  CHECK(t.address(site(5, 1), 7) == array_base(MemSpace::Constant, 0x40) + 4);
  CHECK(t.address(site(5, 1024), 7) == array_base(MemSpace::Constant, 0x40));  // 4 KiB wrap
  AddressModelConfig bad = model(AddressPattern::Coalesced, MemSpace::Shared);
  bad.own_array = true;
  CHECK_THROWS_WITH(AddressModel(bad, 1, 0, {}, "ld"), Catch::Contains("ld.array"));
  k.footprint_bytes = 8192;
  CHECK_THROWS_WITH(AddressModel(k, 1, 0, {}, "ld"), Catch::Contains("ld.footprint_bytes"));
}

TEST_CASE("address mix: shares in JSON, their round trip and their errors",
          "[memory][address-model][bad-input]") {
  using nlohmann::json;
  const AddressMix mix = AddressMix::from_json(json::parse(R"({"shares": [
      {"share": 0.25, "space": "shared"},
      {"share": 0.5, "space": "global", "pattern": "random", "footprint_bytes": 4096,
       "array": "own"}]})"),
                                               "mix.json");
  REQUIRE(mix.shares.size() == 2);
  CHECK(mix.shares[1].model.own_array);
  CHECK(AddressMix::from_json(mix.to_json(), "again").to_json() == mix.to_json());
  CHECK_THROWS_WITH(AddressMix::from_json(json::parse(R"({"shares": [
      {"share": 0.75, "space": "shared"}, {"share": 0.5, "space": "global"}]})"),
                                          "mix.json"),
                    Catch::Contains("mix.json.shares") && Catch::Contains("at most 1"));
  CHECK_THROWS_WITH(
      AddressMix::from_json(json::parse(R"({"shares": [{"share": 0.5, "space": "local"}]})"),
                            "mix.json"),
      Catch::Contains("mix.json.shares[0].space"));
  CHECK_THROWS_WITH(
      AddressMix::from_json(json::parse(R"({"shares": [{"space": "global"}]})"), "mix.json"),
      Catch::Contains("mix.json.shares[0].share"));
  CHECK_THROWS_WITH(AddressMix::from_json(json::parse(R"({"shares": [{"share": 0.5,
      "space": "global", "array": "mine"}]})"),
                                          "mix.json"),
                    Catch::Contains("mix.json.shares[0].array"));
}

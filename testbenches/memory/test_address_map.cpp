// The address map: GPGPU-Sim's GTX480 address decoding (channels, slices, banks, rows)
// and partition addresses, without SystemC.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "common/errors.h"
#include "modules/memory/address_map.h"

using namespace warpreg;
using namespace warpreg::memory;

TEST_CASE("address map: GTX480 interleaves 256-byte chunks over 6 channels and 12 slices",
          "[memory][address-map]") {
  const AddressMap map(AddressMapConfig{});
  CHECK(map.config().slices() == 12);
  CHECK(map.banks() == 16);
  for (uint64_t chunk = 0; chunk < 48; ++chunk) {
    const DecodedAddress d = map.decode(chunk * 256 + 0x80);
    CHECK(d.channel == chunk % 6);
    // Above the channel, the lowest bank bit picks the sub-partition.
    CHECK(d.slice == d.channel * 2 + ((chunk / 6) & 1));
  }
  // Both 128-byte lines of a chunk live in the same slice.
  CHECK(map.slice_of(0x600) == map.slice_of(0x680));
  // Row bits start at bit 16 of the address with the channel divided out.
  CHECK(map.decode(6ull << 16).row == 1);
  CHECK(map.decode(0).row == 0);
}

TEST_CASE("address map: partition addresses are unique within a slice", "[memory][address-map]") {
  // GPGPU-Sim's sweep_test: no two addresses may share a slice and partition address.
  const AddressMap map(AddressMapConfig{});
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> seen;
  for (uint64_t a = 0; a < (1u << 20); a += 4) {
    const auto key = std::make_pair(map.slice_of(a), map.partition_address(a));
    const auto [it, fresh] = seen.emplace(key, a);
    if (!fresh) FAIL("addresses " << it->second << " and " << a << " alias");
  }
  // A slice's lines index consecutive L2 sets: 64 lines of one slice cover 64 sets.
  std::set<uint64_t> sets;
  for (uint64_t a = 0; sets.size() < 64 && a < (1u << 24); a += 128)
    if (map.slice_of(a) == 3) sets.insert((map.partition_address(a) >> 7) & 63);
  CHECK(sets.size() == 64);
}

TEST_CASE("address map: a power-of-two channel count inserts the channel bits at dramid",
          "[memory][address-map]") {
  AddressMapConfig c;
  c.channels = 4;
  const AddressMap map(c);
  CHECK(map.decode(0x000).channel == 0);
  CHECK(map.decode(0x100).channel == 1);
  CHECK(map.decode(0x300).channel == 3);
  CHECK(map.decode(0x400).channel == 0);
  CHECK(map.decode(0x400).slice == 1);  // the bank bit above the channel bits
  c.channels = 1;
  const AddressMap one(c);
  CHECK(one.decode(0x100).slice == 1);
  CHECK(one.decode(0x200).slice == 0);
}

TEST_CASE("address map: invalid mappings name the field", "[memory][address-map][bad-input]") {
  AddressMapConfig c;
  c.mapping = "dramid@8;0000RRRR";
  CHECK_THROWS_WITH(AddressMap(c),
                    Catch::Contains("address_map.mapping") && Catch::Contains("expected 64"));
  c = AddressMapConfig{};
  c.mapping.back() = 'X';
  CHECK_THROWS_WITH(AddressMap(c), Catch::Contains("invalid character 'X'"));
  c = AddressMapConfig{};
  c.channels = 0;
  CHECK_THROWS_WITH(AddressMap(c), Catch::Contains("address_map.channels"));
  c = AddressMapConfig{};
  c.sub_partitions_per_channel = 3;
  CHECK_THROWS_WITH(AddressMap(c), Catch::Contains("address_map.sub_partitions_per_channel"));
  c = AddressMapConfig{};
  c.mapping = "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCD.CCSSSSSS";
  CHECK_THROWS_WITH(AddressMap(c), Catch::Contains("power-of-two"));
}

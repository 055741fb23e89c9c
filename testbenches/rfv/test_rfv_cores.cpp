// RFV cores without SystemC: the release flag cache, the renaming table with its
// exempt area, bank-restricted allocation and sub-array fill order, the register
// balance throttle, and the renaming-candidate selection pass.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "designs/rfv/compiler/renaming_candidates.h"
#include "modules/rfv/register_balance.h"
#include "modules/rfv/release_flag_cache.h"
#include "modules/rfv/renaming_table.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;

TEST_CASE("release flag cache: miss fill hit and a conflicting pir evicts", "[rfv][core]") {
  ReleaseFlagCache cache(ReleaseFlagCacheConfig{});
  CHECK(cache.flag_storage_bits() == 540);  // the paper's 68 B for 10 entries
  CHECK_FALSE(cache.probe(0x100));
  cache.fill(0x100, 0x3ffffffffffffffULL);  // bits above 54 are dropped
  CHECK(cache.probe(0x100));
  CHECK(cache.flags(0x100) == (uint64_t{1} << 54) - 1);
  const uint64_t same_index = 0x100 + 10 * 8;
  CHECK_FALSE(cache.probe(same_index));
  cache.fill(same_index, 5);
  CHECK_FALSE(cache.probe(0x100));
  CHECK(cache.probe(0x108) == false);
  const auto& c = cache.counters();
  CHECK(c.probes == 5);
  CHECK(c.hits == 1);
  CHECK(c.misses == 4);
  CHECK(c.fills == 2);
  CHECK(c.evictions == 1);
}

TEST_CASE("release flag cache: with no entries every probe misses", "[rfv][core]") {
  ReleaseFlagCacheConfig config;
  config.entries = 0;
  ReleaseFlagCache cache(config);
  cache.fill(0x40, 1);
  CHECK_FALSE(cache.probe(0x40));
  CHECK(cache.flag_storage_bits() == 0);
  CHECK(cache.tag_storage_bits() == 0);
  config.inst_bytes = 6;
  CHECK_THROWS_AS(ReleaseFlagCache(config), std::invalid_argument);
}

TEST_CASE("renaming table: the full table is 48 x 63 x 10 bits", "[rfv][core]") {
  RenamingConfig config;
  CHECK(config.entry_bits() == 10);
  CHECK(config.full_table_bits() == 48 * 63 * 10);
}

TEST_CASE("renaming table: exempt registers map to N x warp + slot", "[rfv][core]") {
  RenamingTable table(RenamingConfig{});
  std::vector<bool> exempt(8, false);
  exempt[1] = exempt[6] = true;
  table.start_kernel(8, exempt);
  CHECK(table.exempt_count() == 2);
  CHECK(table.renamed_per_warp() == 6);
  CHECK(table.lookup(0, 1) == 0);
  CHECK(table.lookup(0, 6) == 1);
  CHECK(table.lookup(5, 6) == 11);
  CHECK(table.lookup(5, 2) == kNoPhysical);
  CHECK_FALSE(table.release(5, 6));  // exempt registers are never released
  // The exempt area (2 x 48 registers) is taken for the whole kernel.
  CHECK(table.free_registers() == 1024 - 96);
}

TEST_CASE("renaming table: allocation stays in the compiler's bank and fills from the bottom",
          "[rfv][core]") {
  RenamingConfig config;
  config.physical_registers = 64;
  config.max_warps = 4;
  config.subarray_entries = 4;
  RenamingTable table(config);
  table.start_kernel(8, std::vector<bool>(8, false));
  const uint32_t a = table.map_for_write(1, 2);  // bank (2 + 1) mod 4 = 3
  CHECK(a % 4 == 3);
  CHECK(a / 4 == 0);
  CHECK(table.map_for_write(1, 2) == a);         // redefinition keeps the mapping
  const uint32_t b = table.map_for_write(0, 3);  // also bank 3: the next entry
  CHECK(b == 7);
  CHECK(table.subarray_occupancy(3, 0) == 2);
  CHECK(table.release(1, 2));
  CHECK_FALSE(table.release(1, 2));
  CHECK(table.lookup(1, 2) == kNoPhysical);
  CHECK(table.map_for_write(2, 1) == a);  // the freed lowest entry is reused
  // Exhaust bank 0: 16 entries.
  uint32_t got = 0;
  for (uint16_t w = 0; w < 4; ++w)
    for (uint16_t r = 0; r < 8; ++r)
      if ((r + w) % 4 == 0 && table.map_for_write(w, r) != kNoPhysical) ++got;
  CHECK(got == 8);
  CHECK(table.free_in_bank(0) == 8);
  CHECK(table.counters().allocation_failures == 0);
  CHECK(table.release_warp(0) == 3);  // (0,0), (0,4) and (0,3)
  CHECK(table.mapped_registers() == table.counters().allocations - table.counters().releases);
}

TEST_CASE("renaming table: a full bank fails the write and changes nothing", "[rfv][core]") {
  RenamingConfig config;
  config.physical_registers = 8;
  config.max_warps = 2;
  config.rf_banks = 2;
  RenamingTable table(config);
  table.start_kernel(8, std::vector<bool>(8, false));
  CHECK(table.map_for_write(0, 0) != kNoPhysical);
  CHECK(table.map_for_write(0, 2) != kNoPhysical);
  CHECK(table.map_for_write(0, 4) != kNoPhysical);
  CHECK(table.map_for_write(0, 6) != kNoPhysical);
  CHECK(table.map_for_write(1, 1) == kNoPhysical);  // bank 0 is full
  CHECK(table.lookup(1, 1) == kNoPhysical);
  CHECK(table.counters().allocation_failures == 1);
  CHECK(table.free_in_bank(1) == 4);
  std::vector<bool> too_many(8, true);
  config.physical_registers = 8;
  RenamingTable small(config);
  CHECK_THROWS_AS(small.start_kernel(8, too_many), std::invalid_argument);
}

TEST_CASE("renaming table: same-bank lookups serialise", "[rfv][core]") {
  RenamingTable table(RenamingConfig{});
  std::vector<bool> exempt(16, false);
  exempt[0] = true;
  table.start_kernel(16, exempt);
  const uint16_t spread[] = {1, 2, 3};
  const uint16_t clash[] = {1, 5, 9};
  const uint16_t with_exempt[] = {0, 4, kZeroRegister};
  CHECK(table.lookup_cycles(spread, 3) == 1);
  CHECK(table.lookup_cycles(clash, 3) == 3);
  CHECK(table.lookup_cycles(with_exempt, 3) == 1);
}

TEST_CASE("register balance: only the smallest balance issues when registers run short",
          "[rfv][core]") {
  RegisterBalance balance(8);
  balance.launch(0, 100);
  balance.launch(3, 100);
  for (int i = 0; i < 70; ++i) balance.allocated(0);
  for (int i = 0; i < 20; ++i) balance.allocated(3);
  CHECK(balance.balance(0) == 30);
  CHECK(balance.allowed_cta(31) == RegisterBalance::kAnyCta);
  CHECK(balance.allowed_cta(30) == 0);
  balance.retire(0);
  CHECK(balance.allowed_cta(30) == 3);
  CHECK(balance.allowed_cta(81) == RegisterBalance::kAnyCta);
  CHECK(balance.storage_bits(1512) == 8 * 11);
}

TEST_CASE("renaming candidates: the shortest lifetimes are renamed within the budget",
          "[rfv][compiler]") {
  const Kernel k = testing::loop_kernel();
  const Liveness live = compute_liveness(k);
  // 48 warps x 10 bits per entry: 8192 bits hold 17 registers per warp.
  const RenamingPlan full = select_renaming_candidates(k, live, 9, 8192, 10, 48);
  CHECK(full.renamed_per_warp == 9);
  CHECK(full.exempt_count() == 0);
  // Room for two: the body-local R4 and a never-live register are renamed; the
  // loop-carried R0, R1 and the invariant R8 stay exempt.
  const RenamingPlan two = select_renaming_candidates(k, live, 9, 2 * 10 * 48, 10, 48);
  CHECK(two.renamed_per_warp == 2);
  CHECK(two.exempt_count() == 7);
  CHECK_FALSE(two.exempt[2]);  // never named: lifetime 0
  CHECK_FALSE(two.exempt[3]);
  CHECK(two.exempt[0]);
  CHECK(two.exempt[1]);
  CHECK(two.exempt[8]);
  CHECK(two.lifetime[4] < two.lifetime[0]);
  CHECK(two.definitions[0] == 2);
  CHECK(two.table_bits == 960);
  CHECK(select_renaming_candidates(k, live, 9, 0, 10, 48).exempt_count() == 0);
}

// CacheCore on hand-built request streams: hits, misses, LRU eviction, MSHR merging and
// MSHR-full stalls, reserved sets, the miss queue, the write policies and the set index.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "modules/memory/cache_core.h"

using namespace warpreg;
using namespace warpreg::memory;

namespace {

// 2 sets x 2 ways of 128-byte lines, linear index: lines 0x000, 0x100, 0x200 ... are set 0.
CacheConfig tiny(WritePolicy policy = WritePolicy::LocalWriteBackGlobalWriteEvict) {
  CacheConfig c;
  c.sets = 2;
  c.ways = 2;
  c.set_index = SetIndexFunction::Linear;
  c.write_policy = policy;
  c.write_allocate = policy == WritePolicy::WriteBack;
  c.mshr_entries = 4;
  c.mshr_max_merge = 2;
  c.miss_queue_entries = 4;
  c.latency = 1;
  return c;
}

CacheRequest load(uint64_t address, MemSpace space = MemSpace::Global) {
  CacheRequest r;
  r.address = r.index_address = address;
  r.kind = MemKind::Load;
  r.space = space;
  return r;
}

CacheRequest store(uint64_t address, MemSpace space, ByteMask bytes = {}) {
  CacheRequest r = load(address, space);
  r.kind = MemKind::Store;
  r.bytes = bytes;
  return r;
}

// A load that misses and whose fill arrives at `fill` (the next level accepts at once).
CacheDecision miss(CacheCore& cache, uint64_t address, uint64_t cycle, uint64_t fill) {
  CacheDecision d = cache.access(load(address), cycle);
  REQUIRE(d.outcome == CacheOutcome::Miss);
  cache.complete_miss(d, fill, d.send);
  return d;
}

}  // namespace

TEST_CASE("cache core: a miss fills the line, a later access hits after the latency",
          "[memory][cache][core]") {
  CacheCore cache(tiny());
  const CacheDecision first = miss(cache, 0x1000, 0, 40);
  CHECK(first.start == 0);
  CHECK(first.send == 1);  // the miss leaves after the access latency
  const CacheDecision hit = cache.access(load(0x1010), 50);
  CHECK(hit.outcome == CacheOutcome::Hit);
  CHECK(hit.ready == 51);
  CHECK(cache.counters().read_hits == 1);
  CHECK(cache.counters().read_misses == 1);
  CHECK(cache.counters().fills == 1);
  CHECK(cache.counters().mshr_busy_cycles == 39);  // allocated at the lookup (1), freed at the fill
}

TEST_CASE("cache core: LRU evicts the least recently used way of the set",
          "[memory][cache][core]") {
  CacheCore cache(tiny());
  miss(cache, 0x000, 0, 10);                                          // set 0
  miss(cache, 0x100, 20, 30);                                         // set 0
  CHECK(cache.access(load(0x000), 40).outcome == CacheOutcome::Hit);  // 0x100 is now LRU
  miss(cache, 0x200, 50, 60);                                         // set 0 again: evicts 0x100
  CHECK(cache.contains(0x000, 0x000));
  CHECK_FALSE(cache.contains(0x100, 0x100));
  CHECK(cache.contains(0x200, 0x200));
  CHECK(cache.counters().evictions == 1);
  // Set 1 is untouched by all of this.
  miss(cache, 0x080, 70, 80);
  CHECK(cache.counters().evictions == 1);
  // Next victim in set 0 is 0x000 (used at 40, before 0x200's allocation at 50).
  miss(cache, 0x300, 90, 100);
  CHECK_FALSE(cache.contains(0x000, 0x000));
  CHECK(cache.contains(0x200, 0x200));
  CHECK(cache.counters().evictions == 2);
  CHECK(cache.counters().writebacks == 0);  // nothing was dirty
}

TEST_CASE("cache core: requests to a line being filled merge into its MSHR up to the limit",
          "[memory][cache][core]") {
  CacheCore cache(tiny());  // mshr_max_merge = 2: the miss and one merged request
  miss(cache, 0x400, 0, 100);
  const CacheDecision merged = cache.access(load(0x420), 5);
  CHECK(merged.outcome == CacheOutcome::MshrMerge);
  CHECK(merged.ready == 100);  // served when the fill arrives
  // The MSHR is full of merges: the next request (looked up at 7) waits for the fill and
  // then hits; it counts as accepted one latency before.
  const CacheDecision stalled = cache.access(load(0x440), 6);
  CHECK(stalled.outcome == CacheOutcome::Hit);
  CHECK(stalled.start == 6);
  CHECK(stalled.accepted == 99);
  CHECK(stalled.ready == 100);
  CHECK(cache.counters().mshr_merges == 1);
  CHECK(cache.counters().merge_stalls == 1);
  CHECK(cache.counters().merge_stall_cycles == 93);
  CHECK(cache.counters().read_misses == 1);  // one fetch for all three
}

TEST_CASE("cache core: with every MSHR busy a miss waits for the first to free",
          "[memory][cache][core]") {
  CacheConfig c = tiny();
  c.sets = 8;
  c.mshr_entries = 2;
  CacheCore cache(c);
  miss(cache, 0x000, 0, 100);
  miss(cache, 0x080, 1, 120);
  CacheDecision third = cache.access(load(0x100), 2);
  CHECK(third.outcome == CacheOutcome::Miss);
  CHECK(third.send == 100);  // the first MSHR frees with its fill
  CHECK(third.accepted == 99);
  cache.complete_miss(third, 200, third.send);
  CHECK(cache.counters().mshr_stalls == 1);
  CHECK(cache.counters().mshr_stall_cycles == 97);
  // A hit is not held up by busy MSHRs.
  CHECK(cache.access(load(0x000), 150).outcome == CacheOutcome::Hit);
}

TEST_CASE("cache core: a set whose ways are all being filled stalls a miss until one fills",
          "[memory][cache][core]") {
  CacheConfig c = tiny();
  c.sets = 1;
  CacheCore cache(c);
  miss(cache, 0x000, 0, 100);
  miss(cache, 0x080, 1, 80);
  CacheDecision d = cache.access(load(0x100), 2);
  CHECK(d.outcome == CacheOutcome::Miss);
  CHECK(d.send == 80);  // the way filled at 80 is replaced
  cache.complete_miss(d, 150, d.send);
  CHECK(cache.contains(0x000, 0x000));
  CHECK_FALSE(cache.contains(0x080, 0x080));
  CHECK(cache.counters().set_stalls == 1);
}

TEST_CASE("cache core: one access per cycle through the port", "[memory][cache][core]") {
  CacheCore cache(tiny());
  miss(cache, 0x000, 0, 10);
  const CacheDecision a = cache.access(load(0x000), 20);
  const CacheDecision b = cache.access(load(0x000), 20);
  CHECK(a.start == 20);
  CHECK(b.start == 21);
  CHECK(b.ready == 22);
  CHECK(cache.counters().port_stalls == 1);
}

TEST_CASE("cache core: a request the next level accepts late found the miss queue full",
          "[memory][cache][core]") {
  CacheConfig c = tiny();
  c.miss_queue_entries = 2;
  c.latency = 3;
  CacheCore cache(c);
  // A global store goes on (no-write-allocate miss) at 3 and is accepted at 4: one cycle
  // in the queue.
  CacheDecision a = cache.access(store(0x000, MemSpace::Global), 0);
  REQUIRE(a.outcome == CacheOutcome::Forward);
  CHECK(a.send == 3);
  cache.complete_forward(a, 4);
  CHECK(a.accepted == 0);
  // Accepted 46 cycles after it left: more than the queue's 2 entries were ahead of it,
  // so it could enter only 2 cycles before it left (48) and was accepted 48 - 3 = 45.
  CacheDecision b = cache.access(store(0x080, MemSpace::Global), 1);
  cache.complete_forward(b, 50);
  CHECK(b.accepted == 45);
  CHECK(cache.counters().queue_stalls == 1);
  CHECK(cache.counters().queue_stall_cycles == 44);
  CHECK(cache.counters().miss_queue_busy_cycles == 1 + 2);
}

TEST_CASE("cache core: Fermi L1D evicts a line on a global store hit and keeps local stores",
          "[memory][cache][core]") {
  CacheCore cache(tiny());
  miss(cache, 0x000, 0, 10);
  miss(cache, 0x080, 1, 10);
  // Global store hit: write-evict, the store goes on.
  CacheDecision g = cache.access(store(0x000, MemSpace::Global), 20);
  CHECK(g.outcome == CacheOutcome::Forward);
  CHECK_FALSE(cache.contains(0x000, 0x000));
  CHECK(cache.counters().write_evicts == 1);
  cache.complete_forward(g, g.send);
  // Local store hit: write-back, the line is dirty and nothing goes on.
  const CacheDecision l = cache.access(store(0x080, MemSpace::Local), 21);
  CHECK(l.outcome == CacheOutcome::Hit);
  CHECK(cache.dirty(0x080, 0x080));
  // Store misses go on without allocating.
  CacheDecision m = cache.access(store(0x200, MemSpace::Local), 22);
  CHECK(m.outcome == CacheOutcome::Forward);
  CHECK_FALSE(cache.contains(0x200, 0x200));
  cache.complete_forward(m, m.send);
  // Evicting the dirty local line writes it back.
  miss(cache, 0x180, 30, 40);
  CacheDecision evicting = cache.access(load(0x280), 50);
  CHECK(evicting.outcome == CacheOutcome::Miss);
  CHECK(evicting.writeback);
  CHECK(evicting.victim_address == 0x080);
  cache.complete_writeback(evicting, evicting.send);
  cache.complete_miss(evicting, 60, evicting.send);
  CHECK(cache.counters().writebacks == 1);
}

TEST_CASE("cache core: the L2 allocates on a write miss and fetches only unwritten bytes",
          "[memory][cache][core]") {
  CacheCore cache(tiny(WritePolicy::WriteBack));
  // A 32-byte store to a line not present: allocated, dirty, no fetch.
  const CacheDecision w = cache.access(store(0x1000, MemSpace::Global, ByteMask::range(0, 32)), 0);
  CHECK(w.outcome == CacheOutcome::Hit);
  CHECK(cache.dirty(0x1000, 0x1000));
  CHECK(cache.counters().write_misses == 1);
  CHECK(cache.counters().read_misses == 0);
  // Reading the written bytes hits; reading others fetches the line (no eviction).
  CacheRequest written = load(0x1000);
  written.bytes = ByteMask::range(0, 32);
  CHECK(cache.access(written, 10).outcome == CacheOutcome::Hit);
  CacheRequest other = load(0x1040);
  other.bytes = ByteMask::range(64, 32);
  CacheDecision fetch = cache.access(other, 20);
  CHECK(fetch.outcome == CacheOutcome::Miss);
  CHECK_FALSE(fetch.writeback);
  cache.complete_miss(fetch, 50, fetch.send);
  CHECK(cache.access(other, 60).outcome == CacheOutcome::Hit);
  CHECK(cache.dirty(0x1000, 0x1000));  // the fill kept the written bytes dirty
  CHECK(cache.counters().evictions == 0);
}

TEST_CASE("cache core: GPGPU-Sim's Fermi set-index hash", "[memory][cache][core]") {
  CacheCore l1(CacheConfig::gtx480_l1d());  // 32 sets
  CHECK(l1.set_of(0x0000) == 0);
  CHECK(l1.set_of(0x0080) == 1);
  CHECK(l1.set_of(0x0f80) == 31);
  CHECK(l1.set_of(0x2000) == 1);  // bit 13 flips set bit 0
  CHECK(l1.set_of(0x2080) == 0);
  CHECK(l1.set_of(0x20000) == 8);                   // bit 17 flips set bit 3
  CHECK(l1.set_of(0x80000) == 16);                  // bit 19 flips set bit 4
  CHECK(l1.set_of(0x1000) == 0);                    // bit 12 is not used with 32 sets
  CacheCore l1_48k(CacheConfig::gtx480_l1d_48k());  // 64 sets: bit 12 is set bit 5
  CHECK(l1_48k.set_of(0x1000) == 32);
  CHECK(CacheConfig::gtx480_l1d().capacity_bytes() == 16 * 1024);
  CHECK(CacheConfig::gtx480_l1d_48k().capacity_bytes() == 48 * 1024);
  CHECK(CacheConfig::gtx480_l2_slice().capacity_bytes() * 12 == 768 * 1024);
}

TEST_CASE("cache core: invalid configurations name the field", "[memory][cache][core][bad-input]") {
  CacheConfig c;
  c.sets = 48;
  CHECK_THROWS_WITH(CacheCore(c, "l1d"), Catch::Contains("l1d.sets"));
  c = CacheConfig{};
  c.sets = 16;  // the Fermi hash needs 32 or 64 sets
  CHECK_THROWS_WITH(CacheCore(c, "l1d"), Catch::Contains("l1d.set_index"));
  c = CacheConfig{};
  c.line_bytes = 256;
  CHECK_THROWS_WITH(CacheCore(c, "l1d"), Catch::Contains("l1d.line_bytes"));
  c = CacheConfig{};
  c.miss_queue_entries = 0;
  CHECK_THROWS_WITH(CacheCore(c, "l1d"), Catch::Contains("l1d.miss_queue_entries"));
  c = CacheConfig{};
  c.energy.data_read_pj = -1;
  CHECK_THROWS_WITH(CacheCore(c, "l2"), Catch::Contains("l2.energy.data_read_pj"));
  c = CacheConfig{};
  c.clock_mhz = 0;
  CHECK_THROWS_AS(CacheCore(c, "l2"), ConfigError);
}

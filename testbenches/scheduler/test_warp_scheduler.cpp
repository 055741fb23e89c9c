// The three warp scheduling policies.
#include <catch2/catch.hpp>
#include <set>

#include "modules/scheduler/warp_scheduler.h"

using namespace warpreg;

namespace {
auto only(std::set<uint32_t> ready) {
  return [ready](uint32_t slot) { return ready.count(slot) != 0; };
}
auto all() {
  return [](uint32_t) { return true; };
}
}  // namespace

TEST_CASE("GTO keeps issuing the same warp, then falls back to the oldest", "[scheduler]") {
  WarpScheduler s(SchedulerPolicy::Gto, 8);
  s.add_warp(4, 30);
  s.add_warp(2, 10);
  s.add_warp(6, 20);
  CHECK(s.pick(all()) == 2);  // oldest
  s.issued(6, false);
  CHECK(s.pick(all()) == 6);         // greedy
  CHECK(s.pick(only({4, 2})) == 2);  // greedy stalled: oldest ready
  CHECK(s.pick(only({4})) == 4);
  CHECK(s.pick(only({})) == -1);
  s.remove_warp(6);
  CHECK(s.pick(all()) == 2);
}

TEST_CASE("LRR starts after the warp that issued last", "[scheduler]") {
  WarpScheduler s(SchedulerPolicy::Lrr, 8);
  for (uint32_t w : {0u, 2u, 4u, 6u}) s.add_warp(w, w);
  CHECK(s.pick(all()) == 0);
  s.issued(0, false);
  CHECK(s.pick(all()) == 2);
  s.issued(2, false);
  CHECK(s.pick(all()) == 4);
  s.issued(6, false);
  CHECK(s.pick(all()) == 0);  // wraps around
  CHECK(s.pick(only({2, 6})) == 2);
}

TEST_CASE("LRR: after an issue the search starts where the warp is now", "[scheduler]") {
  WarpScheduler s(SchedulerPolicy::Lrr, 8);
  for (uint32_t w : {0u, 2u, 4u, 6u}) s.add_warp(w, w);
  CHECK(s.pick(only({4})) == 4);  // found third
  s.remove_warp(0);               // now second; third is 6
  s.issued(4, false);
  CHECK(s.pick(all()) == 6);
  s.issued(6, false);
  CHECK(s.pick(all()) == 2);  // wraps around
}

TEST_CASE("two-level: only the ready queue issues; long latency demotes", "[scheduler]") {
  WarpScheduler s(SchedulerPolicy::TwoLevel, 2);
  for (uint32_t w = 0; w < 4; ++w) s.add_warp(w, w);
  CHECK(s.active_queue() == std::vector<uint32_t>{0, 1});
  CHECK(s.pick(only({2, 3})) == -1);  // pending warps cannot issue
  s.issued(0, true);                  // a load: 0 leaves, 2 enters
  CHECK(s.active_queue() == std::vector<uint32_t>{1, 2});
  CHECK(s.pick(all()) == 1);
  s.issued(1, false);
  CHECK(s.pick(all()) == 2);
  s.demote(2);  // barrier
  CHECK(s.active_queue() == std::vector<uint32_t>{1, 3});
  s.remove_warp(1);
  CHECK(s.active_queue() == std::vector<uint32_t>{3, 0});
}

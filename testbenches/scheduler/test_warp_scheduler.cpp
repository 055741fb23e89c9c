// The three warp scheduling policies.
#include <algorithm>
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

TEST_CASE("LRR by warp class picks the warp and counts the warps plain LRR would", "[scheduler]") {
  // Class 0: can_issue does nothing; 1: asked (ready or not); 2: only counted. Asking a
  // warp may refile another (as a hook parks or releases warps), so the masks must be
  // read again after every question.
  enum : uint8_t { kNothing = 0, kAsk = 1, kCounted = 2 };
  uint64_t state = 12345;
  const auto random = [&state](uint32_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(state >> 33) % n;
  };
  for (int round = 0; round < 200; ++round) {
    WarpScheduler plain(SchedulerPolicy::Lrr, 8), classified(SchedulerPolicy::Lrr, 8);
    std::vector<uint32_t> slots;
    const uint32_t warps = 1 + random(64);
    for (uint32_t slot = 0; slot < 64 && slots.size() < warps; ++slot)
      if (random(2) == 0 || 64 - slot <= warps - slots.size()) slots.push_back(slot);
    std::vector<uint8_t> cls(64, kNothing);
    std::vector<bool> ready(64, false);
    for (uint32_t slot : slots) {
      const uint64_t age = random(1000);
      plain.add_warp(slot, age);
      classified.add_warp(slot, age);
    }
    for (int pick = 0; pick < 20; ++pick) {
      for (uint32_t slot : slots) {
        cls[slot] = static_cast<uint8_t>(random(3));
        ready[slot] = random(4) == 0;
        classified.set_class(slot, cls[slot]);
      }
      if (pick == 10) {  // a warp leaves, positions shift
        const uint32_t gone = slots[random(uint32_t(slots.size()))];
        plain.remove_warp(gone);
        classified.remove_warp(gone);
        cls[gone] = kNothing;
        slots.erase(std::find(slots.begin(), slots.end(), gone));
        if (slots.empty()) break;
      }
      const uint32_t refiled = slots[random(uint32_t(slots.size()))];
      const uint8_t refiled_to = static_cast<uint8_t>(random(3));
      std::vector<uint8_t> plain_cls = cls;
      uint64_t plain_count = 0;
      const int expected = plain.pick([&](uint32_t slot) {
        if (plain_cls[slot] == kCounted) ++plain_count;
        if (plain_cls[slot] != kAsk) return false;
        plain_cls[refiled] = refiled_to;
        return bool(ready[slot]);
      });
      struct Rule {
        WarpScheduler& scheduler;
        const std::vector<bool>& ready;
        uint32_t refiled;
        uint8_t refiled_to;
        uint64_t count_ = 0;
        WarpScheduler::Selection select(const WarpScheduler::ClassMasks& m) const {
          return {m[kAsk], m[kCounted]};
        }
        void count(unsigned n) { count_ += n; }
        bool can_issue(uint32_t slot) {
          scheduler.set_class(refiled, refiled_to);
          return ready[slot];
        }
      } rule{classified, ready, refiled, refiled_to};
      const int got = classified.pick_classified(rule);
      REQUIRE(got == expected);
      REQUIRE(rule.count_ == plain_count);
      for (uint32_t slot : slots) cls[slot] = classified.class_of(slot);
      if (got >= 0) {
        plain.issued(uint32_t(got), false);
        classified.issued(uint32_t(got), false);
      }
    }
  }
}

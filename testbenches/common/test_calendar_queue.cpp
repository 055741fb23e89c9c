// CalendarQueue: the same order as a heap on (cycle, push order), whatever the mix of
// near, far (beyond the ring) and past events.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "common/calendar_queue.h"

using warpreg::CalendarQueue;

namespace {

struct Ev {
  uint64_t cycle;
  uint64_t id;  ///< push order, to check ties
};

struct ByCycleThenId {
  bool operator()(const Ev& a, const Ev& b) const {
    return a.cycle != b.cycle ? a.cycle > b.cycle : a.id > b.id;
  }
};

/// Random pushes and pops against a binary heap; `far` and `past` are the odds of an
/// event beyond the ring and before the last cycle taken.
void compare_with_heap(unsigned window_log2, double far, double past, uint32_t seed) {
  CalendarQueue<Ev> calendar(window_log2);
  std::priority_queue<Ev, std::vector<Ev>, ByCycleThenId> heap;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  uint64_t now = 0, id = 0;
  for (int step = 0; step < 200000; ++step) {
    if (heap.empty() || u(rng) < 0.52) {
      uint64_t cycle = now + rng() % 8;  // same-cycle ties are common
      const double kind = u(rng);
      if (kind < far)
        cycle = now + (uint64_t{1} << window_log2) + rng() % 5000;
      else if (kind < far + past && now > 0)
        cycle = now - 1 - rng() % std::min<uint64_t>(now, 50);
      calendar.push({cycle, id});
      heap.push({cycle, id});
      ++id;
    } else {
      REQUIRE(!calendar.empty());
      const Ev expected = heap.top();
      REQUIRE(calendar.top().cycle == expected.cycle);
      REQUIRE(calendar.top().id == expected.id);
      calendar.pop();
      heap.pop();
      now = expected.cycle;
    }
    REQUIRE(calendar.size() == heap.size());
  }
  while (!heap.empty()) {
    REQUIRE(calendar.top().id == heap.top().id);
    calendar.pop();
    heap.pop();
  }
  CHECK(calendar.empty());
}

}  // namespace

TEST_CASE("calendar queue: near events come out by cycle, then push order", "[calendar]") {
  CalendarQueue<Ev> q;
  q.push({5, 0});
  q.push({3, 1});
  q.push({5, 2});
  q.push({3, 3});
  q.push({4, 4});
  const uint64_t expected[] = {1, 3, 4, 0, 2};
  for (const uint64_t id : expected) {
    REQUIRE(!q.empty());
    CHECK(q.top().id == id);
    q.pop();
  }
  CHECK(q.empty());
}

TEST_CASE("calendar queue: events beyond the ring keep their place among later pushes",
          "[calendar]") {
  CalendarQueue<Ev> q(6);  // 64 cycles
  q.push({100, 0});        // beyond the ring: waits in the heap
  q.push({1, 1});
  q.pop();           // the ring moves to cycle 1; cycle 100 is still beyond it
  q.push({100, 2});  // beyond again, after id 0
  q.push({40, 3});
  q.pop();  // cycle 40: cycle 100 moves into the ring before id 4 arrives
  q.push({100, 4});
  for (const uint64_t id : {0u, 2u, 4u}) {
    CHECK(q.top().cycle == 100);
    CHECK(q.top().id == id);
    q.pop();
  }
  CHECK(q.empty());
}

TEST_CASE("calendar queue: an event before the last cycle taken comes out first", "[calendar]") {
  CalendarQueue<Ev> q;
  q.push({10, 0});
  q.push({12, 1});
  q.pop();  // cycle 10
  q.push({7, 2});
  q.push({11, 3});
  q.push({7, 4});
  for (const uint64_t id : {2u, 4u, 3u, 1u}) {
    CHECK(q.top().id == id);
    q.pop();
  }
  CHECK(q.empty());
}

TEST_CASE("calendar queue: the order of a binary heap on random traffic", "[calendar]") {
  compare_with_heap(10, 0.0, 0.0, 1);
  compare_with_heap(6, 0.05, 0.0, 2);  // many events beyond a small ring
  compare_with_heap(6, 0.3, 0.02, 3);  // and some in the past
  compare_with_heap(10, 0.01, 0.01, 4);
}

// The DRAM channel core, the interconnect core and the timeline their shared resources
// keep, without SystemC.
#include <catch2/catch.hpp>
#include <cmath>

#include "common/errors.h"
#include "modules/memory/dram_core.h"
#include "modules/memory/interconnect_core.h"
#include "modules/memory/mem_timing.h"

using namespace warpreg;
using namespace warpreg::memory;

namespace {

DramConfig quick_dram() {
  DramConfig c;
  c.controller_latency = 0;
  return c;
}

}  // namespace

TEST_CASE("dram core: a row miss pays activate, a row hit only the column latency",
          "[memory][dram][core]") {
  DramCore dram(quick_dram());
  CHECK(dram.config().atom_bytes() == 64);
  CHECK(dram.config().atom_cycles() == 2);
  CHECK(dram.config().peak_bytes_per_cycle() == 32);
  // Closed bank: activate at 0, column at tRCD = 12, data at + tCL = 24, two atoms to 28.
  const DramAccess first = dram.access(0, 7, 128, false, 0);
  CHECK_FALSE(first.row_hit);
  CHECK(first.done == 28);
  // Same row later: column at 100, data 112 .. 116.
  const DramAccess hit = dram.access(0, 7, 128, false, 100);
  CHECK(hit.row_hit);
  CHECK(hit.done == 116);
  // Another row of the bank: precharge (tRP) and activate (tRCD) first.
  const DramAccess conflict = dram.access(0, 8, 128, false, 200);
  CHECK_FALSE(conflict.row_hit);
  CHECK(conflict.precharged);
  CHECK(conflict.done == 200 + 12 + 12 + 12 + 4);
  // tRC holds the next activate of the bank 40 cycles after the last.
  const DramAccess again = dram.access(0, 9, 128, false, 213);
  CHECK(again.done == 212 + 40 + 12 + 12 + 4);
  // A 32-byte request still moves one 64-byte atom.
  CHECK(dram.access(1, 0, 32, false, 1000).done == 1000 + 12 + 12 + 2);
  CHECK(dram.counters().activates == 4);
  CHECK(dram.counters().row_hits == 1);
}

TEST_CASE("dram core: row hits stream at the bus's peak, the queue holds the rest",
          "[memory][dram][core]") {
  DramConfig c = quick_dram();
  c.queue_entries = 4;
  DramCore dram(c);
  DramAccess last;
  for (uint32_t i = 0; i < 100; ++i) last = dram.access(i % 2, 0, 128, false, 0);
  // The second bank activates tRRD after the first, its data ends at 6 + tRCD + tCL + 4;
  // from then on the bus moves 128 bytes every 4 cycles.
  CHECK(last.done == 6 + 12 + 12 + 4 + 98 * 4);
  CHECK(dram.counters().bus_busy_cycles == 400);
  // From the second request on (column command at 18), the column command is more than 4
  // bursts (16 cycles) away on arrival: the queue was full, and the request is accepted 4
  // bursts before its column command.
  CHECK(dram.counters().queue_stalls == 99);
  CHECK(last.accepted == (last.done - 4 - 12) - 4 * 4);
  CHECK(dram.counters().queue_busy_cycles > 0);
}

TEST_CASE("dram core: writes use the write latency and hold precharge for tWR",
          "[memory][dram][core]") {
  DramCore dram(quick_dram());
  const DramAccess w = dram.access(2, 1, 128, true, 0);
  CHECK(w.done == 12 + 4 + 4);  // tRCD + tWL + two atoms
  // Precharge for another row waits for the end of the write data + tWR (20 + 12, later
  // than tRAS), then tRP, tRCD and tCL.
  const DramAccess next = dram.access(2, 2, 64, false, 21);
  CHECK(next.done == 32 + 12 + 12 + 12 + 2);
  CHECK(dram.counters().bytes_written == 128);
  CHECK(dram.counters().bytes_read == 64);
}

TEST_CASE("dram core: invalid configurations name the field", "[memory][dram][core][bad-input]") {
  DramConfig c;
  c.burst_length = 6;
  CHECK_THROWS_WITH(DramCore(c), Catch::Contains("dram.burst_length"));
  c = DramConfig{};
  c.queue_entries = 0;
  CHECK_THROWS_WITH(DramCore(c), Catch::Contains("dram.queue_entries"));
  c = DramConfig{};
  c.energy.activate_pj = std::nan("");
  CHECK_THROWS_WITH(DramCore(c), Catch::Contains("dram.energy.activate_pj"));
}

TEST_CASE("interconnect core: ports move one flit per cycle in each direction",
          "[memory][interconnect][core]") {
  InterconnectConfig c;
  c.latency = 4;
  InterconnectCore icnt(c);
  CHECK(icnt.flits(8) == 1);
  CHECK(icnt.flits(136) == 5);
  // Two read requests from one SM serialize at its injection port (one flit each).
  const Traversal a = icnt.request(0, 3, 8, 10);
  const Traversal b = icnt.request(0, 4, 8, 10);
  CHECK(a.injected == 10);
  CHECK(a.delivered == 15);
  CHECK(b.injected == 11);
  // Two SMs' writes (8 + 128 bytes: 5 flits) to one slice serialize at its ejection port.
  const Traversal w1 = icnt.request(1, 5, 136, 20);
  const Traversal w2 = icnt.request(2, 5, 136, 20);
  CHECK(w1.delivered == 20 + 4 + 5);
  CHECK(w2.injected == 20);
  CHECK(w2.delivered == 20 + 4 + 5 + 5);
  // Replies use their own network.
  const Traversal r = icnt.reply(5, 1, 136, 20);
  CHECK(r.delivered == 29);
  CHECK(icnt.requests().flits == 12);
  CHECK(icnt.replies().packets == 1);
  CHECK(icnt.requests().wait_cycles == 1 + 5);
}

TEST_CASE("timeline: requests take the first free gap, also before later reservations",
          "[memory][timeline][core]") {
  Timeline port;
  CHECK(port.reserve(10, 5) == 10);   // [10, 15)
  CHECK(port.reserve(12, 1) == 15);   // busy until 15
  CHECK(port.reserve(40, 3) == 40);   // [40, 43): a later reservation
  CHECK(port.reserve(20, 4) == 20);   // an earlier request fits in the gap before it
  CHECK(port.reserve(18, 20) == 43);  // 20 cycles fit only after 43
  CHECK(port.reserve(16, 4) == 16);   // [16, 20) fills the gap exactly
  CHECK(port.reserve(24, 16) == 24);  // [24, 40) touches both neighbours: one interval
  CHECK(port.intervals() == 1);       // [10, 63)
  CHECK(port.busy_cycles() == 5 + 1 + 3 + 4 + 20 + 4 + 16);
  port.forget_before(100);
  CHECK(port.intervals() == 0);
  CHECK(port.reserve(5, 2) == 5);  // forgotten cycles are free again (nobody asks that early)
}

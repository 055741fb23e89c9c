// COMA module between a stub initiator and a stub target: reads narrowed to the
// collector's active lanes, data and timing unchanged, reads it must not gate, bad
// payloads answered.
#include <catch2/catch.hpp>

#include "modules/wrf/coma_module.h"
#include "testbenches/wrf/wrf_bench.h"

using namespace warpreg;
using namespace warpreg::test;

namespace {

struct ComaBench {
  WrfContext wrf;
  const CycleClock& clock;
  ComaModule coma;
  StubInitiator init;
  StubTarget target;
  explicit ComaBench(const std::vector<std::string>& sets = {})
      : wrf("wrf-coma", sets),
        clock(wrf.clock()),
        coma("coma", wrf.context()),
        init("init", clock),
        target("target", clock) {
    init.socket.bind(coma.target);
    coma.initiator.bind(target.socket);
  }
};

}  // namespace

TEST_CASE("coma module: reads switch only the lanes of the collector's active mask",
          "[coma][module]") {
  ComaBench bench;
  const CycleClock& clock = bench.clock;
  StubInitiator& init = bench.init;
  run_thread([&] {
    const LaneMask half = 0x0000ffffu;
    sc_core::wait(clock.cycles(2));
    // Collector 5 gets a warp with 16 active threads; its destination wake follows.
    init.send(RfAccessKind::Wake, 9, 5, half, 0, 0);
    init.send(RfAccessKind::Wake, 10, 5, half, 0, 1);
    for (unsigned l = 0; l < kWarpSize; ++l) init.buffer.lane[l] = 0xdead;
    const sc_core::sc_time delay = init.send(RfAccessKind::Read, 4, 5, half);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.buffer.lane[3] == 403);
    CHECK(init.buffer.lane[20] == 0xdead);  // inactive lane: not read
    sc_core::wait(delay);
    CHECK(sc_core::sc_time_stamp() == clock.cycles(3));  // no time added
    // A writeback carries the scoreboard's mask.
    sc_core::wait(init.send(RfAccessKind::Write, 9, 0, 0x000000ffu));
    CHECK(sc_core::sc_time_stamp() == clock.cycles(4));
  });
  const std::vector<StubTarget::Seen>& seen = bench.target.seen;
  REQUIRE(seen.size() == 4);
  CHECK(seen[2].kind == RfAccessKind::Read);
  CHECK(seen[2].read_lanes == 0x0000ffffu);
  CHECK(bench.coma.core().entry(5) == 0x0000ffffu);
  const nlohmann::json s = bench.coma.stats(10);
  CHECK(s["events"]["table_writes"] == 1);  // one per collector assignment
  CHECK(s["events"]["table_reads"] == 1);
  CHECK(s["lanes_accessed"] == 16 + 8);
  CHECK(s["lanes_gated"] == 16 + 24);
  CHECK(s["mask_mismatches"] == 0);
  CHECK(s["storage_bits"] == 512);
  CHECK(bench.coma.describe()["storage_bits"]["mask_table"] == 512);
  check_declared(bench.coma, s);
}

namespace {

// Two collectors with disjoint active masks read registers of the same bank in the
// same cycle; returns the cycles the banks saw the two reads.
std::vector<uint64_t> two_disjoint_reads_of_one_bank(const std::vector<std::string>& sets) {
  ComaBench bench(sets);
  StubInitiator& init = bench.init;
  run_thread([&] {
    sc_core::wait(bench.clock.cycles(2));
    init.send(RfAccessKind::Wake, kNoPhysical, 1, 0x0000ffffu, 0, 0);
    init.send(RfAccessKind::Wake, kNoPhysical, 2, 0xffff0000u, 0, 0);
    // Entries 0 and 16 share bank 0 (arch_reg 0, warp slot 0 of the stub).
    init.send(RfAccessKind::Read, 0, 1, 0x0000ffffu);
    init.send(RfAccessKind::Read, 16, 2, 0xffff0000u);
  });
  std::vector<uint64_t> cycles;
  for (const auto& seen : bench.target.seen)
    if (seen.kind == RfAccessKind::Read) cycles.push_back(seen.cycle);
  return cycles;
}

}  // namespace

TEST_CASE("coma module: one read port per bank whatever the masks", "[coma][module]") {
  // The divided word line gates segments of the one row a bank reads per cycle.
  CHECK(two_disjoint_reads_of_one_bank({}) == std::vector<uint64_t>{2, 3});
}

TEST_CASE("coma module: without bank ports disjoint masks share a cycle", "[coma][module]") {
  CHECK(two_disjoint_reads_of_one_bank({"coma.bank_ports=false"}) == std::vector<uint64_t>{2, 2});
}

TEST_CASE("coma module: bad payloads and unknown collectors get error responses",
          "[coma][module]") {
  ComaBench bench;
  StubInitiator& init = bench.init;
  run_thread([&] {
    CHECK(init.send_without_extension() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(init.send_short_read(3) == tlm::TLM_BURST_ERROR_RESPONSE);
    init.send(RfAccessKind::Read, 3, /*collector=*/16);  // the SM has 16 (0..15)
    CHECK(init.last_response == tlm::TLM_GENERIC_ERROR_RESPONSE);
    init.send(RfAccessKind::Read, 3, /*collector=*/15);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
  });
  CHECK(bench.target.seen.size() == 1);
  CHECK(bench.coma.core().config().entries == bench.wrf.context().machine.collector_units);
}

// Warped-Compression (a codec) before COMA packs a compressed register into its first
// slices and narrows read_lanes to them: COMA must not cut the image by the active mask.
TEST_CASE("coma module: a read a codec narrowed keeps the codec's lanes", "[coma][module]") {
  ComaBench bench;
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Wake, kNoPhysical, 3, 0xffff0000u, 0, 0);
    tlm::tlm_generic_payload& p = init.txn.prepare(RfAccessKind::Read, &init.buffer);
    RfAccess& a = init.txn.access();
    a.phys_reg = 7;
    a.collector = 3;
    a.active_mask = 0xffff0000u;
    a.read_lanes = 0x000000ffu;  // the image's slices
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(p, delay);
    CHECK(p.is_response_ok());
    init.send(RfAccessKind::Read, 8, 3, 0xffff0000u);  // lane-aligned: gated by the mask
    // A read of all lanes naming collector 3 (a stage's own, as RFV's spill): the
    // entry would cut lanes it needs, so it goes whole.
    init.send(RfAccessKind::Read, 9, 3, kFullMask);
  });
  const std::vector<StubTarget::Seen>& seen = bench.target.seen;
  REQUIRE(seen.size() == 4);
  CHECK(seen[1].read_lanes == 0x000000ffu);
  CHECK(seen[2].read_lanes == 0xffff0000u);
  CHECK(seen[3].read_lanes == kFullMask);
  const nlohmann::json s = bench.coma.stats(5);
  CHECK(s["ungated_reads"] == 2);
  CHECK(s["mask_mismatches"] == 1);
  CHECK(s["events"]["table_reads"] == 3);
}

// TRIC before COMA sends reads and writes at a cycle (DirectTransport::serve) instead of
// through transport(): the same gating, bank ports and refusals, the cycle handed back.
TEST_CASE("coma module: served at a cycle as through its socket", "[coma][module]") {
  ComaBench bench;
  StubInitiator& init = bench.init;
  const DirectTransport direct = bench.coma.direct();
  REQUIRE(direct.serve != nullptr);
  CHECK(direct.ticks_per_cycle == bench.clock.ticks_per_cycle());
  uint64_t ready = 0;
  run_thread([&] {
    const LaneMask half = 0x0000ffffu;
    sc_core::wait(bench.clock.cycles(2));
    // Collector 5's first Wake writes its entry; one naming no entry is refused.
    REQUIRE(init.serve(direct, RfAccessKind::Wake, 9, 2, ready, 5, half));
    CHECK(ready == 2);
    CHECK(bench.coma.core().entry(5) == half);
    REQUIRE(init.serve(direct, RfAccessKind::Wake, 9, 2, ready, /*collector=*/16, half));
    CHECK(init.last_response == tlm::TLM_GENERIC_ERROR_RESPONSE);
    REQUIRE(init.serve(direct, RfAccessKind::Read, 4, 3, ready, 5, half));
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(ready == 4);
    // Entry 20 shares entry 4's bank: its read port is taken in cycle 3.
    REQUIRE(init.serve(direct, RfAccessKind::Read, 20, 3, ready, 5, half));
    CHECK(ready == 5);
    REQUIRE(init.serve(direct, RfAccessKind::Write, 9, 6, ready, 0, 0x000000ffu));
    CHECK(ready == 7);
    REQUIRE(init.serve(direct, RfAccessKind::Read, 3, 8, ready, /*collector=*/16, half));
    CHECK(init.last_response == tlm::TLM_GENERIC_ERROR_RESPONSE);
  });
  const std::vector<StubTarget::Seen>& seen = bench.target.seen;
  REQUIRE(seen.size() == 4);  // a Wake and three accesses; not the refused Wake and read
  CHECK(seen[0].kind == RfAccessKind::Wake);
  CHECK(seen[0].cycle == 2);
  CHECK(seen[1].kind == RfAccessKind::Read);
  CHECK(seen[1].cycle == 3);
  CHECK(seen[1].read_lanes == 0x0000ffffu);
  CHECK(seen[2].cycle == 4);
  CHECK(seen[3].kind == RfAccessKind::Write);
  CHECK(seen[3].cycle == 6);
  const nlohmann::json s = bench.coma.stats(10);
  CHECK(s["events"]["table_writes"] == 1);
  CHECK(s["events"]["table_reads"] == 2);
  CHECK(s["bank_conflicts"]["reads"] == 1);
  CHECK(s["lanes_accessed"] == 16 + 16 + 8);
}

// TRIC module between a stub initiator and a stub target: data, response and the
// wake-up latency in SystemC time, the register entries' states in the register
// file's power map, the content check, bad payloads and accesses dated out of order.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "modules/wrf/tric_module.h"
#include "testbenches/wrf/wrf_bench.h"

using namespace warpreg;
using namespace warpreg::test;

namespace {

struct TricBench {
  WrfContext wrf;
  const CycleClock& clock;
  TricModule tric;
  StubInitiator init;
  StubTarget target;
  explicit TricBench(const std::vector<std::string>& sets)
      : wrf("wrf-tric", sets),
        clock(wrf.clock()),
        tric("tric", wrf.context()),
        init("init", clock),
        target("target", clock) {
    init.socket.bind(tric.target);
    tric.initiator.bind(target.socket);
  }
  power::PowerState cell(uint32_t phys) const { return wrf.bench.power_map().state_of(phys, 0); }
};

}  // namespace

TEST_CASE("tric module: a drowsy source is read after the unhidden wake-up cycles",
          "[tric][module]") {
  TricBench bench({"tric.wakeup_latency=3"});
  const CycleClock& clock = bench.clock;
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);  // warp 0 holds entries 0..7
    sc_core::wait(clock.cycles(10));
    // Assigned a collector at cycle 10: served at 12 (3-cycle wake-up, 1 hidden), done at 13.
    const sc_core::sc_time delay = init.send(RfAccessKind::Read, 3);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.buffer.lane[5] == 305);
    sc_core::wait(delay);
    CHECK(sc_core::sc_time_stamp() == clock.cycles(13));
    // Drowsy again at 13: a read at 20 pays the wake-up again.
    sc_core::wait(clock.cycles(7));
    sc_core::wait(init.send(RfAccessKind::Read, 3));
    CHECK(sc_core::sc_time_stamp() == clock.cycles(23));
  });
  REQUIRE(bench.target.seen.size() == 3);
  CHECK(bench.target.seen[1].cycle == 12);
  CHECK(bench.target.seen[2].cycle == 22);
  const nlohmann::json s = bench.tric.stats(30);
  CHECK(s["wakeups"] == 2);
  CHECK(s["sleeps"] == 2);
  CHECK(s["delay_cycles"] == 4);
  CHECK(s["violations"]["off_access"] == 0);
  CHECK(s["violations"]["drowsy_access"] == 0);
  // On 10..13 and 20..23; the other 7 entries of the warp drowsy; 1016 entries off.
  CHECK(s["entry_cycles"]["on"] == 6);
  CHECK(s["entry_cycles"]["drowsy"] == 8 * 30 - 6);
  CHECK(s["entry_cycles"]["off"] == (1024 - 8) * 30);
  // TRIC's leakage is the register file's: none of its own.
  CHECK(s["leakage_pj"] == 0.0);
  const double saving = 1 - (6 + 0.1 * (8 * 30 - 6)) / (1024.0 * 30);
  CHECK(s["leakage_saving"].get<double>() == Approx(saving));
  CHECK(bench.cell(3) == power::PowerState::Drowsy);
  CHECK(bench.cell(100) == power::PowerState::Off);
  check_declared(bench.tric, s);
}

// The stage before TRIC (or the SM's crossbar) sends reads and writes at a cycle
// (DirectTransport::serve): the same wake-ups, sleeps and timing as through the socket.
TEST_CASE("tric module: served at a cycle as through its socket", "[tric][module]") {
  TricBench bench({"tric.wakeup_latency=3"});
  StubInitiator& init = bench.init;
  const DirectTransport direct = bench.tric.direct();
  REQUIRE(direct.serve != nullptr);
  uint64_t ready = 0;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);
    sc_core::wait(bench.clock.cycles(10));
    CHECK_FALSE(init.serve(direct, RfAccessKind::Launch, 16, 10, ready));  // transport()'s
    REQUIRE(init.serve(direct, RfAccessKind::Read, 3, 10, ready));
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.buffer.lane[5] == 305);
    CHECK(ready == 13);  // served at 12 (3-cycle wake-up, 1 hidden)
    // Destination R4, woken at its collector's cycle (10), stays ON until its writeback.
    REQUIRE(init.serve(direct, RfAccessKind::Wake, 4, 10, ready));
    CHECK(ready == 10);
    CHECK(bench.tric.core().state(4, 10) == RegPower::On);
    REQUIRE(init.serve(direct, RfAccessKind::Read, 3, 20, ready));
    CHECK(ready == 23);
    // Beyond the file: passed on for the banks to refuse.
    REQUIRE(init.serve(direct, RfAccessKind::Read, 1024, 20, ready));
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);  // the stub target answers anything
    REQUIRE(init.serve(direct, RfAccessKind::Write, 4, 25, ready));
    CHECK(ready == 26);  // a write is not held back
  });
  REQUIRE(bench.target.seen.size() == 6);  // the Launch and five served transactions
  CHECK(bench.target.seen[1].cycle == 12);
  CHECK(bench.target.seen[2].kind == RfAccessKind::Wake);
  CHECK(bench.target.seen[3].cycle == 22);
  CHECK(bench.target.seen[4].phys_reg == 1024);
  CHECK(bench.target.seen[5].cycle == 25);
  const nlohmann::json s = bench.tric.stats(30);
  CHECK(s["wakeups"] == 3);
  CHECK(s["delay_cycles"] == 4);
  CHECK(s["violations"]["drowsy_access"] == 0);
  CHECK(s["inter_access_cycles"]["distances"] == 1);  // R3's two reads
}

TEST_CASE("tric module: a one-cycle wake-up costs no time", "[tric][module]") {
  TricBench bench({"tric.wakeup_latency=1"});
  const CycleClock& clock = bench.clock;
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);
    sc_core::wait(clock.cycles(4));
    sc_core::wait(init.send(RfAccessKind::Read, 2));
    CHECK(sc_core::sc_time_stamp() == clock.cycles(5));
  });
  CHECK(bench.tric.core().counters().delayed_accesses == 0);
}

TEST_CASE("tric module: a destination stays on from its wake to its writeback", "[tric][module]") {
  TricBench bench({"tric.wakeup_latency=2"});
  const CycleClock& clock = bench.clock;
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);
    sc_core::wait(clock.cycles(5));
    init.send(RfAccessKind::Wake, 6);  // destination R6 of the instruction
    CHECK(bench.tric.core().state(6, 5) == RegPower::On);
    sc_core::wait(clock.cycles(20));
    const sc_core::sc_time delay = init.send(RfAccessKind::Write, 6);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    sc_core::wait(delay);
    CHECK(sc_core::sc_time_stamp() == clock.cycles(26));  // the write was not held back
    CHECK(bench.tric.core().state(6, 25) == RegPower::On);
    CHECK(bench.tric.core().state(6, 26) == RegPower::Drowsy);
    CHECK(bench.cell(6) == power::PowerState::On);  // the sleep waits for late calls
  });
  const nlohmann::json s = bench.tric.stats(30);
  CHECK(s["entry_cycles"]["on"] == 26 - 5);
  CHECK(bench.cell(6) == power::PowerState::Drowsy);
}

TEST_CASE("tric module: reading an entry no warp allocated is a content-check violation",
          "[tric][module]") {
  TricBench bench({});
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);
    init.send(RfAccessKind::Read, 100);  // entry 100 is OFF
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    // Beyond the file's 1024 entries: passed on for the banks to refuse, not counted.
    init.send(RfAccessKind::Read, 5000);
    init.send(RfAccessKind::Retire, 0, 0, kFullMask, 8);
  });
  const nlohmann::json s = bench.tric.stats(5);
  CHECK(s["violations"]["off_access"] == 2);  // woken, then read
  REQUIRE(bench.target.seen.size() == 4);
  CHECK(bench.target.seen[2].phys_reg == 5000);
  CHECK(s["violations"]["drowsy_access"] == 0);
  CHECK(bench.tric.core().state(3, 5) == RegPower::Off);
}

TEST_CASE("tric module: bad payloads get error responses and are not forwarded", "[tric][module]") {
  TricBench bench({});
  run_thread([&] {
    CHECK(bench.init.send_without_extension() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(bench.init.send_short_read(3) == tlm::TLM_BURST_ERROR_RESPONSE);
  });
  CHECK(bench.target.seen.empty());
}

// RFV's renaming-table lookup (one cycle) delays some reads and not others: the
// platform's rfv + tric under power.tech=wrf32 once stopped with "TRIC: cycle 5 after
// cycle 6".
TEST_CASE("tric module: a read dated before an earlier one wakes its entry at its own cycle",
          "[tric][module][order]") {
  TricBench bench({"tric.wakeup_latency=3"});
  const CycleClock& clock = bench.clock;
  StubInitiator& init = bench.init;
  run_thread([&] {
    init.send(RfAccessKind::Launch, 0, 0, kFullMask, 8);
    sc_core::wait(clock.cycles(5));
    // Sent at 5 with one cycle of upstream latency: at TRIC at 6, served at 8.
    tlm::tlm_generic_payload& p = init.txn.prepare(RfAccessKind::Read, &init.buffer);
    init.txn.access().phys_reg = 1;
    sc_core::sc_time delay = clock.cycles(1);
    init.socket->b_transport(p, delay);
    CHECK(delay == clock.cycles(9 - 5));
    // Then one sent at 5 without it: served at 7, not held behind the first.
    CHECK(init.send(RfAccessKind::Read, 2) == clock.cycles(8 - 5));
  });
  REQUIRE(bench.target.seen.size() == 3);
  CHECK(bench.target.seen[1].cycle == 8);
  CHECK(bench.target.seen[2].cycle == 7);
  const nlohmann::json s = bench.tric.stats(20);
  CHECK(s["violations"]["drowsy_access"] == 0);
  CHECK(s["late_calls"] == 0);
  CHECK(s["entry_cycles"]["on"] == (9 - 6) + (8 - 5));
}

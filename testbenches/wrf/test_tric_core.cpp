// TRIC core without SystemC: state machine, read-aggressive / write-conservative
// policy, wake-up latency and look-ahead, the content check, and calls dated out of
// order by the latency of stages before TRIC.
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "modules/regfile/storage_power_map.h"
#include "modules/wrf/tric_core.h"
#include "power/energy.h"

using namespace warpreg;

namespace {

constexpr auto Off = RegPower::Off;
constexpr auto Drowsy = RegPower::Drowsy;
constexpr auto On = RegPower::On;

struct Recorded {
  RegPower from, to;
  uint64_t cycle;
  bool operator==(const Recorded& o) const {
    return from == o.from && to == o.to && cycle == o.cycle;
  }
};

std::ostream& operator<<(std::ostream& os, const Recorded& r) {
  return os << to_string(r.from) << "->" << to_string(r.to) << "@" << r.cycle;
}

/// Records every committed transition and checks that each entry's come in cycle
/// order, each from the state the entry's previous one left it in.
struct RecordingSink : TransitionSink {
  std::vector<Recorded> log;
  std::map<uint32_t, std::vector<Recorded>> by_entry;
  bool ordered = true;
  void transition(uint32_t reg, RegPower from, RegPower to, uint64_t cycle) override {
    std::vector<Recorded>& mine = by_entry[reg];
    const Recorded previous = mine.empty() ? Recorded{Off, Off, 0} : mine.back();
    if (cycle < previous.cycle || from != previous.to) ordered = false;
    mine.push_back({from, to, cycle});
    log.push_back({from, to, cycle});
  }
  /// Transitions other than the launch (OFF -> DROWSY) ones.
  std::vector<Recorded> power_changes() const {
    std::vector<Recorded> out;
    for (const Recorded& r : log)
      if (r.from != RegPower::Off) out.push_back(r);
    return out;
  }
  std::vector<Recorded> changes_of(uint32_t reg) const {
    const auto it = by_entry.find(reg);
    return it == by_entry.end() ? std::vector<Recorded>{} : it->second;
  }
};

TricConfig config(uint32_t wakeup, uint32_t lookahead = 0) {
  TricConfig c;
  c.registers = 64;
  c.wakeup_latency = wakeup;
  c.hidden_cycles = 1;
  c.lookahead = lookahead;
  return c;
}

}  // namespace

TEST_CASE("tric core: unallocated entries are off and allocated ones drowsy", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  CHECK(tric.state(5, 0) == Off);
  tric.launch(8, 4, 10);  // a warp holding entries 8..11
  CHECK(tric.state(7, 10) == Off);
  for (uint32_t r = 8; r < 12; ++r) CHECK(tric.state(r, 10) == Drowsy);
  CHECK(tric.state(12, 10) == Off);
  tric.retire(8, 4, 50);
  CHECK(tric.state(9, 50) == Off);
  tric.flush(50);
  CHECK(sink.log.size() == 8);
  CHECK(sink.log.front() == Recorded{Off, Drowsy, 10});
  CHECK(sink.log.back() == Recorded{Drowsy, Off, 50});
  CHECK(tric.counters().launches == 4);
  CHECK(tric.counters().retirements == 4);
  CHECK(tric.violations() == 0);
}

TEST_CASE("tric core: a source wakes at collector assignment and drowses once read",
          "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  // Assigned at cycle 20: on at 23, one cycle hidden, so the read may be served at 22.
  CHECK(tric.wake(2, 20, false) == 22);
  CHECK(tric.state(2, 20) == On);
  tric.read_done(2, 22, 23, 20);
  CHECK(tric.state(2, 22) == On);
  CHECK(tric.state(2, 23) == Drowsy);
  tric.flush(23);
  CHECK(sink.power_changes() == std::vector<Recorded>{{Drowsy, On, 20}, {On, Drowsy, 23}});
  CHECK(tric.counters().delayed_accesses == 1);
  CHECK(tric.counters().delay_cycles == 2);
  CHECK(tric.violations() == 0);
  CHECK(sink.ordered);
}

TEST_CASE("tric core: a one-cycle wake-up is hidden by the schedule-to-read slack",
          "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(1), sink);
  tric.launch(0, 8, 0);
  CHECK(tric.wake(3, 20, false) == 20);
  tric.read_done(3, 20, 21, 20);
  CHECK(tric.counters().delayed_accesses == 0);
  CHECK(tric.violations() == 0);
}

TEST_CASE("tric core: a destination stays on until its writeback", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(2), sink);
  tric.launch(0, 8, 0);
  // R1 = R1 + R2: R1 is source and destination.
  CHECK(tric.wake(1, 10, true) == 10);
  CHECK(tric.wake(1, 10, false) == 11);
  CHECK(tric.wake(2, 10, false) == 11);
  tric.read_done(1, 11, 12, 10);
  tric.read_done(2, 11, 12, 10);
  tric.flush(30);
  CHECK(tric.state(1, 30) == On);  // held for the writeback
  CHECK(tric.state(2, 30) == Drowsy);
  tric.write_done(1, 40, 41, 40);
  tric.flush(41);
  CHECK(tric.state(1, 41) == Drowsy);
  CHECK(sink.power_changes() ==
        std::vector<Recorded>{
            {Drowsy, On, 10}, {Drowsy, On, 10}, {On, Drowsy, 12}, {On, Drowsy, 41}});
  CHECK(tric.counters().wakeups == 2);
  CHECK(tric.counters().stay_on == 1);
  CHECK(tric.violations() == 0);
}

TEST_CASE("tric core: overlapping reads keep the entry on until the last one", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  CHECK(tric.wake(4, 10, false) == 12);
  tric.read_done(4, 12, 13, 10);
  // A second collector reads the same entry before it went drowsy: no second wake-up.
  CHECK(tric.wake(4, 11, false) == 12);
  tric.read_done(4, 14, 15, 11);
  tric.flush(20);
  CHECK(sink.power_changes() == std::vector<Recorded>{{Drowsy, On, 10}, {On, Drowsy, 15}});
  CHECK(tric.counters().stay_on == 1);
  CHECK(tric.counters().sleeps == 1);
}

TEST_CASE("tric core: look-ahead wakes n cycles earlier and hides the latency", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3, 2), sink);
  tric.launch(0, 8, 0);
  // The scheduler knew two cycles ahead: the wake is dated 18, on at 21, hidden.
  CHECK(tric.wake(5, 20, false) == 20);
  tric.read_done(5, 20, 21, 20);
  // Never before the entry went drowsy: launched at 30, a wake at 31 is dated 30.
  tric.launch(16, 8, 30);
  CHECK(tric.wake(17, 31, false) == 32);
  tric.read_done(17, 32, 33, 31);
  tric.flush(40);
  CHECK(sink.changes_of(5) ==
        std::vector<Recorded>{{Off, Drowsy, 0}, {Drowsy, On, 18}, {On, Drowsy, 21}});
  CHECK(sink.changes_of(17) ==
        std::vector<Recorded>{{Off, Drowsy, 30}, {Drowsy, On, 30}, {On, Drowsy, 33}});
  CHECK(sink.ordered);
  CHECK(tric.violations() == 0);
}

TEST_CASE("tric core: the content check counts an access to an off or drowsy entry",
          "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  // Entry 40 belongs to no warp: waking or reading it is a violation.
  tric.wake(40, 5, false);
  CHECK(tric.counters().off_violations == 1);
  tric.read_done(40, 6, 7, 6);
  CHECK(tric.counters().off_violations == 2);
  // Entry 3 is drowsy and was never woken: reading it is a violation.
  tric.read_done(3, 8, 9, 8);
  CHECK(tric.counters().drowsy_violations == 1);
  // Woken at 10 (on at 13), served at 10: before the wake-up completed.
  tric.wake(4, 10, false);
  tric.read_done(4, 10, 11, 10);
  CHECK(tric.counters().drowsy_violations == 2);
  CHECK(tric.violations() == 4);
}

TEST_CASE("tric core: the register file's cells follow the schedule", "[tric][core]") {
  StoragePowerMap cells(16, 1, 4);
  StoragePower::Fractions fractions;
  fractions.of[unsigned(power::PowerState::Drowsy)] = 0.1;
  const StoragePower::Controller controller =
      cells.add_controller("tric", fractions, power::PowerState::Off);
  struct CellSink : TransitionSink {
    StoragePower& cells;
    StoragePower::Controller controller;
    CellSink(StoragePower& c, StoragePower::Controller id) : cells(c), controller(id) {}
    void transition(uint32_t reg, RegPower, RegPower to, uint64_t cycle) override {
      const power::PowerState state = to == On       ? power::PowerState::On
                                      : to == Drowsy ? power::PowerState::Drowsy
                                                     : power::PowerState::Off;
      cells.set_registers(controller, reg, 1, state, cycle);
    }
  } sink(cells, controller);
  TricCore tric(TricConfig{16, 3, 1, 0}, sink);
  tric.launch(0, 4, 0);
  tric.wake(1, 10, false);
  tric.read_done(1, 12, 13, 10);
  tric.retire(0, 4, 100);
  tric.flush(200);
  cells.finish(200);
  CHECK(cells.cell_cycles(power::PowerState::On) == 3);
  CHECK(cells.cell_cycles(power::PowerState::Drowsy) == 4 * 100 - 3);
  CHECK(cells.cell_cycles(power::PowerState::Off) == 16 * 200 - 400);
  CHECK(cells.on_equivalent_cell_cycles() == Approx(3 + 0.1 * (400 - 3)));
}

TEST_CASE("tric core: inter-access distance of an entry, short distances apart", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(1), sink);
  tric.launch(0, 8, 0);
  for (uint64_t at : {100, 300, 5300}) {
    tric.wake(6, at, false);
    tric.read_done(6, at, at + 1, at);
  }
  const TricCore::Counters& c = tric.counters();
  CHECK(c.inter_access_count == 2);
  CHECK(c.inter_access_sum == 200 + 5000);
  CHECK(c.short_inter_access_count == 1);  // 5000 cycles is over Figure 2's 3000 cut
  CHECK(c.short_inter_access_sum == 200);
}

TEST_CASE("tric core: near and far sleeps commit in each entry's order", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(1), sink);
  tric.launch(0, 8, 0);
  // A read held back 150 cycles by bank conflicts, then near ones around it.
  tric.wake(1, 10, false);
  tric.read_done(1, 160, 161, 10);
  tric.wake(2, 10, false);
  tric.read_done(2, 10, 11, 10);
  tric.wake(3, 100, false);
  tric.read_done(3, 100, 101, 100);
  tric.wake(4, 160, false);
  tric.read_done(4, 160, 161, 160);
  tric.wake(5, 170, false);  // after an idle span
  tric.read_done(5, 170, 171, 170);
  tric.flush(400);
  CHECK(sink.ordered);
  const std::vector<std::pair<uint64_t, uint64_t>> on_spans = {
      {10, 161}, {10, 11}, {100, 101}, {160, 161}, {170, 171}};
  for (uint32_t r = 1; r <= 5; ++r) {
    INFO("R" << r);
    const auto [woken, slept] = on_spans[r - 1];
    CHECK(sink.changes_of(r) ==
          std::vector<Recorded>{{Off, Drowsy, 0}, {Drowsy, On, woken}, {On, Drowsy, slept}});
    CHECK(tric.state(r, 400) == Drowsy);
  }
  CHECK(tric.counters().sleeps == 5);
}

TEST_CASE("tric core: allocated entries are counted and their peak kept", "[tric][core]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  tric.launch(8, 8, 5);
  tric.launch(8, 8, 6);  // already allocated: counted once
  CHECK(tric.counters().allocated == 16);
  tric.retire(0, 8, 20);
  CHECK(tric.counters().allocated == 8);
  tric.launch(16, 4, 30);
  CHECK(tric.counters().allocated == 12);
  CHECK(tric.counters().peak_allocated == 16);
  tric.retire(4, 8, 40);  // entries 4..7 are off already
  CHECK(tric.counters().allocated == 8);
}

// Stages before TRIC (RFV's table lookup, a codec) add latency to some transactions
// and not to others, so TRIC sees them dated out of order.
TEST_CASE("tric core: accesses dated before earlier ones are served at their own dates",
          "[tric][core][order]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  // A read of R1 held one cycle upstream arrives dated 6; R2's, dated 5, after it.
  CHECK(tric.wake(1, 6, false) == 8);
  tric.read_done(1, 8, 9, 6);
  CHECK(tric.wake(2, 5, false) == 7);
  tric.read_done(2, 7, 8, 5);
  // A destination wake dated 4 arrives last: it still wakes R3 at 4.
  CHECK(tric.wake(3, 4, true) == 4);
  tric.flush(100);
  CHECK(sink.changes_of(2) ==
        std::vector<Recorded>{{Off, Drowsy, 0}, {Drowsy, On, 5}, {On, Drowsy, 8}});
  CHECK(sink.changes_of(3) == std::vector<Recorded>{{Off, Drowsy, 0}, {Drowsy, On, 4}});
  CHECK(sink.ordered);
  CHECK(tric.counters().late_calls == 0);
  CHECK(tric.violations() == 0);
}

TEST_CASE("tric core: a wake dated before a pending sleep keeps the entry on",
          "[tric][core][order]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  tric.wake(4, 20, false);
  tric.read_done(4, 22, 23, 20);  // back to DROWSY at 23 ...
  // ... unless a collector assigned at 21 reads it too: that read came late.
  CHECK(tric.wake(4, 21, false) == 22);
  tric.read_done(4, 22, 23, 21);
  tric.flush(200);
  CHECK(sink.changes_of(4) ==
        std::vector<Recorded>{{Off, Drowsy, 0}, {Drowsy, On, 20}, {On, Drowsy, 23}});
  CHECK(tric.counters().wakeups == 1);
  CHECK(tric.counters().stay_on == 1);
  CHECK(sink.ordered);
}

TEST_CASE("tric core: a late retirement or launch never precedes the entry's last change",
          "[tric][core][order]") {
  RecordingSink sink;
  TricCore tric(config(2), sink);
  tric.launch(0, 4, 10);
  tric.wake(1, 30, false);
  tric.read_done(1, 31, 32, 30);
  // The warp's retirement, dated 25, arrives after the read dated 30: R1 goes OFF with
  // its last change, the others at 25.
  tric.retire(0, 4, 25);
  tric.launch(0, 4, 26);  // the next owner's launch: not before R1's retirement
  tric.flush(200);
  const std::vector<Recorded> r1 = sink.changes_of(1);
  REQUIRE(r1.size() == 4);
  CHECK(r1[2] == Recorded{On, Off, 30});
  CHECK(r1[3] == Recorded{Off, Drowsy, 30});
  CHECK(sink.changes_of(2) ==
        std::vector<Recorded>{{Off, Drowsy, 10}, {Drowsy, Off, 25}, {Off, Drowsy, 26}});
  CHECK(sink.ordered);
}

TEST_CASE("tric core: a sleep a later wake relies on is committed at once", "[tric][core][order]") {
  RecordingSink sink;
  TricCore tric(config(3), sink);
  tric.launch(0, 8, 0);
  tric.wake(5, 10, false);
  tric.read_done(5, 12, 13, 10);
  // Woken again at 40, long after its sleep at 13 (still held for late calls): the
  // sleep happened, and nothing can cancel it any more.
  CHECK(tric.wake(5, 40, false) == 42);
  tric.read_done(5, 42, 43, 40);
  tric.wake(5, 41, true);  // a destination of an assignment at 41, late: stays on
  tric.write_done(5, 60, 61, 60);
  tric.flush(200);
  CHECK(sink.changes_of(5) == std::vector<Recorded>{{Off, Drowsy, 0},
                                                    {Drowsy, On, 10},
                                                    {On, Drowsy, 13},
                                                    {Drowsy, On, 40},
                                                    {On, Drowsy, 61}});
  CHECK(tric.counters().sleeps == 2);
  CHECK(sink.ordered);
}

TEST_CASE("tric core: a call dated beyond the reorder window is late and taken at the open cycle",
          "[tric][core][order]") {
  RecordingSink sink;
  TricConfig c = config(3);
  c.reorder_window = 8;
  TricCore tric(c, sink);
  tric.launch(0, 8, 0);
  tric.wake(1, 100, false);  // sleeps before 92 are final: 92 is the first open cycle
  CHECK(tric.wake(2, 50, false) == 94);
  CHECK(tric.counters().late_calls == 1);
  tric.flush(200);
  CHECK(sink.changes_of(2)[1] == Recorded{Drowsy, On, 92});
  CHECK(sink.ordered);
}

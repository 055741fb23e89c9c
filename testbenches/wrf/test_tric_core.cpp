// TRIC core without SystemC: state machine, read-aggressive / write-conservative
// policy, wake-up latency and look-ahead, and the content check.
#include <catch2/catch.hpp>
#include <vector>

#include "modules/wrf/tric_core.h"
#include "power/energy.h"

using namespace warpreg;

namespace {

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

/// Records every committed transition and checks they come in cycle order.
struct RecordingSink : TransitionSink {
  std::vector<Recorded> log;
  bool ordered = true;
  void transition(RegPower from, RegPower to, uint64_t cycle) override {
    if (!log.empty() && cycle < log.back().cycle) ordered = false;
    log.push_back({from, to, cycle});
  }
  /// Transitions other than the launch (OFF -> DROWSY) ones.
  std::vector<Recorded> power_changes() const {
    std::vector<Recorded> out;
    for (const Recorded& r : log)
      if (r.from != RegPower::Off) out.push_back(r);
    return out;
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

constexpr auto Off = RegPower::Off;
constexpr auto Drowsy = RegPower::Drowsy;
constexpr auto On = RegPower::On;

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
  CHECK(sink.power_changes() ==
        std::vector<Recorded>{
            {Drowsy, On, 18}, {On, Drowsy, 21}, {Drowsy, On, 30}, {On, Drowsy, 33}});
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

TEST_CASE("tric core: residency in an energy account matches the schedule", "[tric][core]") {
  power::EnergyAccount account("tric", 1.0);
  const double mw[power::kPowerStateCount] = {1.0, 0.1, 0.0, 0.0};
  const auto group = account.add_residency("entries", "test", 16, power::PowerState::Off, mw);
  struct AccountSink : TransitionSink {
    power::EnergyAccount& a;
    power::EnergyAccount::GroupId g;
    AccountSink(power::EnergyAccount& account, power::EnergyAccount::GroupId group)
        : a(account), g(group) {}
    static power::PowerState map(RegPower s) {
      return s == RegPower::On       ? power::PowerState::On
             : s == RegPower::Drowsy ? power::PowerState::Drowsy
                                     : power::PowerState::Off;
    }
    void transition(RegPower from, RegPower to, uint64_t cycle) override {
      a.transition(g, map(from), map(to), cycle);
    }
  } sink(account, group);
  TricCore tric(TricConfig{16, 3, 1, 0}, sink);
  tric.launch(0, 4, 0);
  tric.wake(1, 10, false);
  tric.read_done(1, 12, 13, 10);
  tric.retire(0, 4, 100);
  tric.flush(200);
  account.finish(200);
  CHECK(account.unit_cycles(group, power::PowerState::On, 200) == 3);
  CHECK(account.unit_cycles(group, power::PowerState::Drowsy, 200) == 4 * 100 - 3);
  CHECK(account.unit_cycles(group, power::PowerState::Off, 200) == 16 * 200 - 400);
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

TEST_CASE("tric core: near and far sleeps commit in cycle order", "[tric][core]") {
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
  CHECK(sink.power_changes() == std::vector<Recorded>{{Drowsy, On, 10},
                                                      {Drowsy, On, 10},
                                                      {On, Drowsy, 11},
                                                      {Drowsy, On, 100},
                                                      {On, Drowsy, 101},
                                                      {Drowsy, On, 160},
                                                      {On, Drowsy, 161},
                                                      {On, Drowsy, 161},
                                                      {Drowsy, On, 170},
                                                      {On, Drowsy, 171}});
  CHECK(tric.counters().sleeps == 5);
  for (uint32_t r = 1; r <= 5; ++r) CHECK(tric.state(r, 400) == Drowsy);
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

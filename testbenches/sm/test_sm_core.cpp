// SmCore without SystemC: a recording operand port and hand-written warp streams.
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "platforms/sm/sm_core.h"

using namespace warpreg;

namespace {

/// Holds registers by physical index; every access takes `latency` cycles.
class StorePort : public OperandPort {
 public:
  uint64_t latency = 1;
  uint32_t corrupt_reads_of = ~0u;  ///< flip a bit when this physical register is read
  struct Call {
    RfAccessKind kind;
    uint32_t warp;
    uint16_t reg;
    uint64_t cycle;
  };
  std::vector<Call> calls;

  uint64_t access(RfTransaction& txn, uint64_t cycle) override {
    RfAccess& a = txn.access();
    calls.push_back({a.kind, a.warp_slot, a.arch_reg, cycle});
    if (a.kind == RfAccessKind::Write) {
      store[a.phys_reg].merge(register_of(txn.payload()), a.active_mask);
    } else if (a.kind == RfAccessKind::Read) {
      register_of(txn.payload()) = store[a.phys_reg];
      if (a.phys_reg == corrupt_reads_of) register_of(txn.payload()).lane[3] ^= 1;
    } else {
      return cycle;
    }
    return cycle + latency;
  }
  std::map<uint32_t, WarpRegister> store;
};

WarpInst inst(uint64_t pc, InstClass cls, std::vector<uint16_t> dst, std::vector<uint16_t> src) {
  WarpInst i;
  i.pc = pc;
  i.cls = cls;
  i.num_dst = static_cast<uint8_t>(dst.size());
  i.num_src = static_cast<uint8_t>(src.size());
  for (size_t k = 0; k < dst.size(); ++k) i.dst[k] = dst[k];
  for (size_t k = 0; k < src.size(); ++k) i.src[k] = src[k];
  return i;
}

/// Every warp of every CTA runs the same stream.
class FixedWorkload : public Workload {
 public:
  FixedWorkload(KernelShape shape, std::vector<WarpTrace> per_warp)
      : shape_(std::move(shape)), streams_(std::move(per_warp)) {}
  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t, uint32_t warp) override {
    return slots_.play(slot, streams_[warp % streams_.size()]);
  }
  std::string describe() const override { return "fixed"; }

 private:
  KernelShape shape_;
  std::vector<WarpTrace> streams_;
  StoredStreamSlots slots_;
};

WarpTrace chain() {
  WarpTrace s;
  s.insts.push_back(inst(0x00, InstClass::Alu, {1}, {}));
  s.insts.push_back(inst(0x08, InstClass::Alu, {2}, {1}));
  s.insts.push_back(inst(0x10, InstClass::Exit, {}, {}));
  s.values.resize(2);
  s.insts[0].value_index = 0;
  s.insts[1].value_index = 1;
  for (unsigned i = 0; i < kWarpSize; ++i) {
    s.values[0].lane[i] = 10 + i;
    s.values[1].lane[i] = 20 + i;
  }
  return s;
}

KernelShape one_warp(uint32_t ctas = 1) {
  KernelShape k;
  k.name = "test";
  k.ctas = ctas;
  k.threads_per_cta = 32;
  k.regs_per_thread = 4;
  return k;
}

uint64_t run(SmCore& core) {
  uint64_t now = 0;
  for (int guard = 0; guard < 1000000; ++guard) {
    const uint64_t next = core.step(now);
    if (next == SmCore::kNever) return now;
    REQUIRE(next > now);
    now = next;
  }
  FAIL("the core did not finish");
  return now;
}

}  // namespace

TEST_CASE("a dependent instruction waits for the producer's writeback", "[sm][core]") {
  FixedWorkload w(one_warp(), {chain()});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  run(core);
  REQUIRE(core.done());
  REQUIRE_FALSE(core.failed());
  // i0 issues at 0, dispatches at 1, completes at 1 + 4, its write is readable at 6;
  // i1 issues at 6 and reads R1 at 6.
  std::vector<StorePort::Call> rw;
  for (const auto& c : port.calls)
    if (c.kind == RfAccessKind::Read || c.kind == RfAccessKind::Write) rw.push_back(c);
  REQUIRE(rw.size() == 3);
  CHECK(rw[0].kind == RfAccessKind::Write);
  CHECK(rw[0].cycle == 5);
  CHECK(rw[1].kind == RfAccessKind::Read);
  CHECK(rw[1].reg == 1);
  CHECK(rw[1].cycle == 6);
  CHECK(rw[2].cycle == 6 + 1 + 4);  // read done at 7, ALU latency 4
  CHECK(core.counters().last_cycle == 12);
  CHECK(core.counters().warp_instructions == 3);
  CHECK(core.counters().retired == 3);
  CHECK(shadow.checked_reads() == 1);
  CHECK(shadow.mismatches() == 0);
  CHECK(port.store[2].lane[5] == 25);
}

TEST_CASE("launch and retire transactions bracket every warp", "[sm][core]") {
  FixedWorkload w(one_warp(3), {chain()});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  run(core);
  int launches = 0, retires = 0;
  for (const auto& c : port.calls) {
    launches += c.kind == RfAccessKind::Launch;
    retires += c.kind == RfAccessKind::Retire;
  }
  CHECK(launches == 3);
  CHECK(retires == 3);
  CHECK(core.counters().ctas_launched == 3);
}

TEST_CASE("a corrupted operand is an integrity mismatch naming warp, register and PC",
          "[sm][core][integrity]") {
  FixedWorkload w(one_warp(), {chain()});
  StorePort port;
  port.corrupt_reads_of = 1;  // warp slot 0, R1
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  run(core);
  REQUIRE(core.failed());
  CHECK(core.failure_kind() == "integrity_mismatch");
  CHECK_THAT(core.failure(), Catch::Contains("R1") && Catch::Contains("PC 0x8") &&
                                 Catch::Contains("lane 3") && Catch::Contains("expected 0xd") &&
                                 Catch::Contains("got 0xc"));
  CHECK(shadow.mismatches() == 1);
}

TEST_CASE("the watchdog reports every warp when nothing retires", "[sm][core][watchdog]") {
  FixedWorkload w(one_warp(), {chain()});
  StorePort port;
  port.latency = 1000000;
  ShadowRegisterFile shadow(48, 256);
  SmConfig config;
  config.watchdog_cycles = 500;
  SmCore core(config, w, port, shadow);
  const uint64_t end = run(core);
  REQUIRE(core.failed());
  CHECK(core.failure_kind() == "watchdog");
  CHECK(end < 2000);
  CHECK_THAT(core.failure(), Catch::Contains("no warp instruction retired for 500 cycles") &&
                                 Catch::Contains("warp slot 0 (CTA 0, warp 0)"));
}

TEST_CASE("a barrier holds warps until every live warp of the CTA arrives", "[sm][core]") {
  WarpTrace early;  // barrier first, then a write
  early.insts.push_back(inst(0x00, InstClass::Barrier, {}, {}));
  early.insts.push_back(inst(0x08, InstClass::Alu, {1}, {}));
  early.insts.push_back(inst(0x10, InstClass::Exit, {}, {}));
  early.values.resize(1);
  WarpTrace late = chain();  // two dependent ALU ops, then the barrier
  late.insts.insert(late.insts.begin() + 2, inst(0x10, InstClass::Barrier, {}, {}));
  late.insts.back().pc = 0x18;
  KernelShape k = one_warp();
  k.threads_per_cta = 64;
  FixedWorkload w(k, {early, late});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  run(core);
  REQUIRE(core.done());
  uint64_t early_write = 0;
  for (const auto& c : port.calls)
    if (c.kind == RfAccessKind::Write && c.warp == 0) early_write = c.cycle;
  // The late warp reaches its barrier after issuing R2 <- R1 at cycle 6.
  CHECK(early_write >= 7 + 1 + 4);
}

namespace {
/// Issues one metadata instruction before instruction 1 of every warp, holds every
/// warp until cycle `open_at`, and records what it was told.
class RecordingHook : public IssueHook {
 public:
  uint64_t open_at = 0;
  std::vector<uint64_t> issued_at;
  std::vector<uint32_t> launched, finished;
  std::map<uint32_t, bool> metadata_done;

  IssueVerdict before_issue(uint32_t slot, uint32_t, uint32_t index, const WarpInst&,
                            uint64_t now) override {
    if (now < open_at) return IssueVerdict::Wait;
    if (index == 1 && !metadata_done[slot]) {
      metadata_done[slot] = true;
      return IssueVerdict::Metadata;
    }
    return IssueVerdict::Issue;
  }
  void issued(uint32_t, uint32_t, const WarpInst&, uint64_t now) override {
    issued_at.push_back(now);
  }
  void cta_launched(uint32_t cta_slot, uint32_t, uint32_t, uint64_t) override {
    launched.push_back(cta_slot);
  }
  void cta_finished(uint32_t cta_slot, uint64_t) override { finished.push_back(cta_slot); }
  uint64_t next_change(uint64_t now) const override { return now < open_at ? open_at : ~0ull; }
};

/// Holds every warp forever; resolve_stall opens the gate once.
class StallingHook : public IssueHook {
 public:
  bool open = false;
  int resolves = 0;
  IssueVerdict before_issue(uint32_t, uint32_t, uint32_t, const WarpInst&, uint64_t) override {
    return open ? IssueVerdict::Issue : IssueVerdict::Wait;
  }
  bool resolve_stall(uint64_t) override {
    ++resolves;
    open = true;
    return true;
  }
};
}  // namespace

TEST_CASE("issue hooks hold warps and issue metadata in the warp's slot", "[sm][core][hook]") {
  FixedWorkload w(one_warp(2), {chain()});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  RecordingHook hook;
  hook.open_at = 3;
  core.add_issue_hook(&hook);
  run(core);
  REQUIRE(core.done());
  REQUIRE_FALSE(core.failed());
  CHECK(core.counters().metadata_instructions == 2);
  CHECK(core.counters().warp_instructions == 6);
  CHECK(core.counters().hook_waits > 0);
  REQUIRE(hook.issued_at.size() == 6);
  CHECK(hook.issued_at.front() == 3);
  CHECK(hook.launched == std::vector<uint32_t>{0, 1});
  CHECK(hook.finished.size() == 2);
  CHECK(shadow.mismatches() == 0);
}

TEST_CASE("an issue hook can resolve a stall instead of a deadlock", "[sm][core][hook]") {
  FixedWorkload w(one_warp(), {chain()});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmCore core(SmConfig{}, w, port, shadow);
  StallingHook hook;
  core.add_issue_hook(&hook);
  run(core);
  CHECK(core.done());
  CHECK_FALSE(core.failed());
  CHECK(hook.resolves == 1);
}

namespace {
/// Says it never holds a warp (IssueHook::may_hold): counts what the SM calls.
class ListeningHook : public IssueHook {
 public:
  int asked = 0;
  int issued_count = 0;
  IssueVerdict before_issue(uint32_t, uint32_t, uint32_t, const WarpInst&, uint64_t) override {
    ++asked;
    return IssueVerdict::Issue;
  }
  bool may_hold() const override { return false; }
  void issued(uint32_t, uint32_t, const WarpInst&, uint64_t) override { ++issued_count; }
};
}  // namespace

TEST_CASE("a hook that never holds a warp is not asked, only told", "[sm][core][hook]") {
  for (const bool behind_a_gate : {false, true}) {
    INFO("behind a hook that holds warps: " << behind_a_gate);
    FixedWorkload w(one_warp(2), {chain()});
    StorePort port;
    ShadowRegisterFile shadow(48, 256);
    SmCore core(SmConfig{}, w, port, shadow);
    ListeningHook listener;
    RecordingHook gate;
    gate.open_at = 3;
    core.add_issue_hook(&listener);
    if (behind_a_gate) core.add_issue_hook(&gate);
    run(core);
    REQUIRE(core.done());
    REQUIRE_FALSE(core.failed());
    CHECK(listener.asked == 0);
    CHECK(listener.issued_count == int(core.counters().warp_instructions));
    CHECK((core.counters().hook_waits > 0) == behind_a_gate);
    CHECK(core.counters().metadata_instructions == (behind_a_gate ? 2u : 0u));
  }
}

TEST_CASE("two-level scheduling: warps at a barrier leave the ready queue",
          "[sm][core][scheduler]") {
  // Ready queue of two, four warps. Warps 0-2 go straight to the barrier; warp 3 first
  // loads, which moves it out of the ready queue. The queue then refills with warps
  // 0 and 1, which wait at the barrier: they must leave it again so warp 3 gets back in.
  WarpTrace at_barrier;
  at_barrier.insts.push_back(inst(0x00, InstClass::Barrier, {}, {}));
  at_barrier.insts.push_back(inst(0x08, InstClass::Exit, {}, {}));
  WarpTrace loads_first;
  loads_first.insts.push_back(inst(0x00, InstClass::Load, {1}, {}));
  loads_first.insts.push_back(inst(0x08, InstClass::Alu, {2}, {1}));
  loads_first.insts.push_back(inst(0x10, InstClass::Barrier, {}, {}));
  loads_first.insts.push_back(inst(0x18, InstClass::Exit, {}, {}));
  loads_first.values.resize(2);
  loads_first.insts[1].value_index = 1;
  KernelShape shape = one_warp(1);
  shape.threads_per_cta = 128;
  FixedWorkload w(shape, {at_barrier, at_barrier, at_barrier, loads_first});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmConfig config;
  config.policy = SchedulerPolicy::TwoLevel;
  config.ready_queue = 2;
  config.schedulers = 1;
  SmCore core(config, w, port, shadow);
  run(core);
  CHECK(core.done());
  CHECK_FALSE(core.failed());
  CHECK(core.counters().warp_instructions == 3 * 2 + 4);
}

namespace {
/// Holds every warp until cycle `open_at` (those `held`; slot 0 `slot0_later` cycles
/// longer), parking the warps it holds when `park` says so: until that cycle, or until a
/// parked probe from then on releases them.
class GateHook : public IssueHook {
 public:
  enum class Park { Never, Timed, UntilReleased };
  Park park = Park::Never;
  bool quiet_probes = false;     ///< parked_probe says the cycle's probes are quiet when they are
  uint64_t held = ~uint64_t{0};  ///< the warp slots it holds (bit per slot)
  uint64_t open_at = 5;
  uint64_t slot0_later = 0;
  uint64_t asked = 0, probed = 0;
  uint64_t opens(uint32_t slot) const { return slot == 0 ? open_at + slot0_later : open_at; }
  void attach_parking(WarpParking* parking) override { parking_ = parking; }
  IssueVerdict before_issue(uint32_t slot, uint32_t, uint32_t, const WarpInst&,
                            uint64_t now) override {
    ++asked;
    if (now >= opens(slot) || (held >> slot & 1) == 0) return IssueVerdict::Issue;
    if (park == Park::Timed) parking_->park(slot, opens(slot));
    if (park == Park::UntilReleased) parking_->park(slot, WarpParking::kUntilReleased);
    return IssueVerdict::Wait;
  }
  bool parked_probe(uint32_t slot, uint64_t now) override {
    ++probed;
    if (now >= opens(slot)) parking_->release(slot);
    // A timed park ends by itself: its probes never have an effect.
    return quiet_probes && (park == Park::Timed || now < open_at);
  }
  uint64_t next_change(uint64_t now) const override {
    uint64_t next = ~0ull;
    for (uint32_t slot = 0; slot < 64; ++slot)
      if ((held >> slot & 1) != 0 && opens(slot) > now) next = std::min(next, opens(slot));
    return next;
  }

 private:
  WarpParking* parking_ = nullptr;
};

/// Lets every warp issue.
class PassHook : public IssueHook {
 public:
  IssueVerdict before_issue(uint32_t, uint32_t, uint32_t, const WarpInst&, uint64_t) override {
    return IssueVerdict::Issue;
  }
};

struct GateRun {
  SmCore::Counters counters;
  uint64_t asked = 0, probed = 0;
};

/// `ctas` CTAs of the chain kernel on one scheduler of `policy`, behind `gate` (after a
/// hook that always says Issue when `behind`).
GateRun run_gate(GateHook gate, uint32_t ctas, SchedulerPolicy policy, bool behind) {
  FixedWorkload w(one_warp(ctas), {chain()});
  StorePort port;
  ShadowRegisterFile shadow(48, 256);
  SmConfig config;
  config.policy = policy;
  config.schedulers = 1;
  SmCore core(config, w, port, shadow);
  PassHook front;
  if (behind) core.add_issue_hook(&front);
  core.add_issue_hook(&gate);
  run(core);
  REQUIRE(core.done());
  REQUIRE_FALSE(core.failed());
  return {core.counters(), gate.asked, gate.probed};
}

/// Three CTAs on the two-level scheduler (whose demotions a Wait drives).
GateRun run_gate(GateHook::Park park, bool behind) {
  GateHook gate;
  gate.park = park;
  return run_gate(gate, 3, SchedulerPolicy::TwoLevel, behind);
}

/// Forty CTAs on LRR, whose scan only counts parked warps once the probes are quiet; the
/// hook holds warp slot 1 until cycle 20 and slot 0 until cycle 60 while the others run
/// (slot 0's quiet probes must not hide slot 1 after cycle 20).
GateRun run_lrr_gate(GateHook::Park park, bool quiet_probes) {
  GateHook gate;
  gate.park = park;
  gate.quiet_probes = quiet_probes;
  gate.held = 0b11;
  gate.open_at = 20;
  gate.slot0_later = 40;
  return run_gate(gate, 40, SchedulerPolicy::Lrr, false);
}

/// A run whose hook parks against one whose hook is asked every time: the same results
/// with fewer asks.
void check_same_results(const GateRun& parked, const GateRun& asked) {
  CHECK(parked.counters.hook_waits == asked.counters.hook_waits);
  CHECK(parked.counters.warp_instructions == asked.counters.warp_instructions);
  CHECK(parked.counters.issue_cycles == asked.counters.issue_cycles);
  CHECK(parked.counters.last_cycle == asked.counters.last_cycle);
  CHECK(parked.asked < asked.asked);
  CHECK(parked.probed > 0);
}
}  // namespace

TEST_CASE("a parked warp is probed without before_issue, with the same results",
          "[sm][core][hook]") {
  for (const bool behind : {false, true}) {
    CAPTURE(behind);
    const GateRun asked = run_gate(GateHook::Park::Never, behind);
    REQUIRE(asked.counters.hook_waits > 3);
    for (const GateHook::Park park : {GateHook::Park::Timed, GateHook::Park::UntilReleased}) {
      CAPTURE(int(park));
      const GateRun parked = run_gate(park, behind);
      check_same_results(parked, asked);
      CHECK(parked.probed + parked.asked >= asked.asked);
    }
  }
}

TEST_CASE("LRR: a warp parked until a cycle is counted while quiet and asked from that cycle on",
          "[sm][core][hook]") {
  for (const bool quiet : {false, true}) {
    CAPTURE(quiet);
    const GateRun asked = run_lrr_gate(GateHook::Park::Never, quiet);
    REQUIRE(asked.counters.hook_waits > 10);
    for (const GateHook::Park park : {GateHook::Park::Timed, GateHook::Park::UntilReleased}) {
      CAPTURE(int(park));
      const GateRun parked = run_lrr_gate(park, quiet);
      check_same_results(parked, asked);
      // Quiet probes: the scan counts the second parked warp without probing it.
      if (quiet) CHECK(parked.probed + parked.asked < asked.asked);
    }
  }
}

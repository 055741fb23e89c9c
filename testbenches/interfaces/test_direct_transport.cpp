// Direct calls on the operand path (OperandStage::forward_directly, the blocks' direct()):
// a stage told where its initiator is bound calls that target's b_transport without the
// socket hop, and the target cannot tell the difference.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <systemc>
#include <vector>

#include "common/cycle_clock.h"
#include "common/params.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_module.h"
#include "power/energy.h"

using namespace warpreg;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

/// Counts what passes and adds one nanosecond on the way.
struct Counting : OperandStage {
  int seen = 0;
  explicit Counting(sc_core::sc_module_name name) : OperandStage(name) {}

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_time& delay) override {
    ++seen;
    delay += sc_time(1, SC_NS);
    forward(payload, a, delay);
  }
};

/// The end of a path: counts and answers OK.
struct End : sc_core::sc_module {
  tlm_utils::simple_target_socket<End> target{"target"};
  int seen = 0;
  explicit End(sc_core::sc_module_name name) : sc_module(name) {
    target.register_b_transport(this, &End::b_transport);
  }
  DirectTransport direct() {
    return {this, [](void* end, tlm::tlm_generic_payload& payload, sc_time& delay) {
              static_cast<End*>(end)->b_transport(payload, delay);
            }};
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_time&) {
    ++seen;
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(sc_core::sc_module_name name) : sc_module(name) {}
};

/// The default register file twice, one behind a plain initiator's socket (the reference),
/// with the parameters, technology table and clock they are built from.
struct TwoRegisterFiles {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{params.real("sim.clock_mhz")};
  RegisterFileModule by_socket{"by_socket", params, tech, clock};
  RegisterFileModule other;
  Initiator init{"init"};
  explicit TwoRegisterFiles(const char* other_name) : other(other_name, params, tech, clock) {
    init.socket.bind(by_socket.socket);
  }
};

/// The same access of physical register `phys` on both transactions, lanes `mask`.
void name_both(RfTransaction& t1, RfTransaction& t2, uint32_t phys, LaneMask mask) {
  for (RfTransaction* t : {&t1, &t2}) {
    t->access().phys_reg = phys;
    t->access().arch_reg = static_cast<uint16_t>(phys % 16);
    t->access().warp_slot = static_cast<uint16_t>(phys / 16);
    t->access().active_mask = t->access().read_lanes = mask;
  }
}

}  // namespace

TEST_CASE("direct transport: forward() takes the socket until told the target, then calls it",
          "[tlm][direct]") {
  Counting a("a"), b("b");
  End end("end"), elsewhere("elsewhere");
  a.initiator.bind(b.target);
  b.initiator.bind(end.target);
  Initiator init("init"), unused("unused");
  init.socket.bind(a.target);
  unused.socket.bind(elsewhere.target);  // bound, so that elaboration is complete
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  RfTransaction txn;
  WarpRegister reg;
  const auto send = [&] {
    sc_time delay = sc_time(5, SC_NS);
    a.direct()(txn.prepare(RfAccessKind::Read, &reg), delay);
    CHECK(txn.payload().is_response_ok());
    return delay;
  };
  // Through the sockets.
  CHECK(send() == sc_time(7, SC_NS));
  CHECK((a.seen == 1 && b.seen == 1 && end.seen == 1));
  // Direct: the same transaction and delay arrive at the same b_transport.
  a.forward_directly(b.direct());
  b.forward_directly(end.direct());
  CHECK(send() == sc_time(7, SC_NS));
  CHECK((a.seen == 2 && b.seen == 2 && end.seen == 2));
  // The direct call, not the socket, carries it: pointed elsewhere (which a platform
  // never does), the transaction leaves the bound path.
  b.forward_directly(elsewhere.direct());
  CHECK(send() == sc_time(7, SC_NS));
  CHECK((b.seen == 3 && end.seen == 2 && elsewhere.seen == 1));
  // Cleared, the socket again.
  b.forward_directly({});
  CHECK(send() == sc_time(7, SC_NS));
  CHECK((end.seen == 3 && elsewhere.seen == 1));
}

TEST_CASE("direct transport: the register file serves the same through direct() as its socket",
          "[tlm][direct][regfile]") {
  TwoRegisterFiles files("direct");
  const CycleClock& clock = files.clock;
  Initiator unused("unused");
  unused.socket.bind(files.other.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const DirectTransport call = files.other.direct();
  RfTransaction t1, t2;
  WarpRegister b1, b2;
  uint64_t s = 7;
  const auto next = [&s] {
    return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 33;
  };
  for (int n = 0; n < 2000; ++n) {
    const bool write = next() % 2 == 0;
    const uint32_t phys = static_cast<uint32_t>(next() % 64);
    const sc_time delay = clock.cycles(next() % 8);
    for (unsigned l = 0; l < kWarpSize; ++l)
      b1.lane[l] = b2.lane[l] = static_cast<uint32_t>(next());
    tlm::tlm_generic_payload& p1 =
        t1.prepare(write ? RfAccessKind::Write : RfAccessKind::Read, &b1);
    tlm::tlm_generic_payload& p2 =
        t2.prepare(write ? RfAccessKind::Write : RfAccessKind::Read, &b2);
    name_both(t1, t2, phys, kFullMask);
    sc_time d1 = delay, d2 = delay;
    files.init.socket->b_transport(p1, d1);
    call(p2, d2);
    INFO("access " << n);
    REQUIRE(p1.get_response_status() == p2.get_response_status());
    REQUIRE(d1 == d2);
    REQUIRE(b1 == b2);
  }
  CHECK(files.by_socket.stats(100000) == files.other.stats(100000));
}

namespace {
/// A stage that sends at a cycle, as WC's and TRIC's stages do (OperandStage::forward_at).
/// `served`: the last send was served at its cycle, without a call with a delay.
struct AtCycle : OperandStage {
  explicit AtCycle(sc_core::sc_module_name name) : OperandStage(name) {}
  bool served = false;
  /// forward_directly(next), noting the calls that take a delay.
  void send_to(DirectTransport next) {
    target_ = next;
    DirectTransport noting = next;
    noting.object = this;
    noting.call = [](void* stage, tlm::tlm_generic_payload& payload, sc_time& delay) {
      auto* self = static_cast<AtCycle*>(stage);
      self->served = false;
      self->target_(payload, delay);
    };
    noting.call_checked = nullptr;
    if (next.serve)
      noting.serve = [](void* stage, tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                        uint64_t& ready) {
        auto* self = static_cast<AtCycle*>(stage);
        return self->target_.serve(self->target_.object, payload, a, cycle, ready);
      };
    forward_directly(noting);
  }
  uint64_t send(tlm::tlm_generic_payload& payload, const CycleClock& clock, uint64_t cycle) {
    served = true;
    sc_time delay;
    return forward_at(payload, rf_access_of(payload), delay, clock, cycle);
  }

 private:
  DirectTransport target_;
};
}  // namespace

TEST_CASE("direct transport: the banks serve at a cycle what their socket serves with a delay",
          "[tlm][direct][regfile]") {
  TwoRegisterFiles files("at_cycle");
  const CycleClock& clock = files.clock;
  AtCycle stage("stage"), other_clock("other_clock");
  stage.initiator.bind(files.other.socket);
  End end("end");
  other_clock.initiator.bind(end.target);
  Initiator unused("unused"), unused2("unused2");
  unused.socket.bind(stage.target);
  unused2.socket.bind(other_clock.target);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  stage.send_to(files.other.direct());
  CHECK(files.other.direct().ticks_per_cycle == clock.ticks_per_cycle());
  const uint32_t registers = files.other.core().config().physical_registers();
  RfTransaction t1, t2;
  WarpRegister b1, b2;
  uint64_t s = 11;
  const auto next = [&s] {
    return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 33;
  };
  int served = 0;
  for (int n = 0; n < 3000; ++n) {
    const unsigned pick = next() % 8;
    const RfAccessKind kind = pick == 0  ? RfAccessKind::Wake
                              : pick < 4 ? RfAccessKind::Write
                                         : RfAccessKind::Read;
    // One in sixteen beyond the file: refused (address error) by b_transport.
    const uint32_t phys =
        static_cast<uint32_t>(next() % 16 == 0 ? registers + next() % 8 : next() % 64);
    const uint64_t cycle = 100 + n / 4 + next() % 8;
    for (unsigned l = 0; l < kWarpSize; ++l)
      b1.lane[l] = b2.lane[l] = static_cast<uint32_t>(next());
    tlm::tlm_generic_payload& p1 = t1.prepare(kind, &b1);
    tlm::tlm_generic_payload& p2 = t2.prepare(kind, &b2);
    const LaneMask mask = next() % 4 == 0 ? LaneMask(next()) : kFullMask;
    name_both(t1, t2, phys, mask);
    sc_time d1;
    clock.complete_at(d1, cycle);
    files.init.socket->b_transport(p1, d1);
    const uint64_t ready = stage.send(p2, clock, cycle);
    served += stage.served ? 1 : 0;
    INFO("access " << n);
    // A Wake is accepted and ignored wherever it points.
    REQUIRE(stage.served == (phys < registers || kind == RfAccessKind::Wake));
    REQUIRE(p1.get_response_status() == p2.get_response_status());
    if (p1.is_response_ok()) REQUIRE(clock.cycle_of(sc_core::sc_time_stamp() + d1) == ready);
    REQUIRE(b1 == b2);
  }
  CHECK(served > 2000);
  CHECK(files.by_socket.stats(100000) == files.other.stats(100000));
  // A target without serve, or one on another clock, takes the delay.
  other_clock.send_to(end.direct());
  RfTransaction t;
  WarpRegister b;
  other_clock.send(t.prepare(RfAccessKind::Read, &b), clock, 5);
  CHECK((!other_clock.served && end.seen == 1));
  DirectTransport slower = files.other.direct();
  slower.ticks_per_cycle *= 2;
  other_clock.send_to(slower);
  tlm::tlm_generic_payload& p = t.prepare(RfAccessKind::Read, &b);
  t.access().phys_reg = 0;
  other_clock.send(p, clock, 5);
  CHECK(!other_clock.served);
}

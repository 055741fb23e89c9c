// The crossbar's cycle path (carry_at): an access goes to the stage behind at its cycle
// when that stage serves at one (DirectTransport::serve), counted as carry() counts it;
// otherwise nothing is done and the caller takes the delay path.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "modules/interfaces/rf_access.h"
#include "modules/operand_path/crossbar.h"

using namespace warpreg;

namespace {

/// A stage behind the crossbar that serves reads at a cycle, three cycles later.
struct ServingStage {
  int served = 0;
  static bool serve(void* object, tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                    uint64_t& ready) {
    if (a.kind != RfAccessKind::Read) return false;
    ++static_cast<ServingStage*>(object)->served;
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
    ready = cycle + 3;
    return true;
  }
  static void call(void*, tlm::tlm_generic_payload&, sc_core::sc_time&) {
    FAIL("the delay path is not taken");
  }
};

DirectTransport behind(ServingStage& stage, const CycleClock& clock, bool serves) {
  DirectTransport d;
  d.object = &stage;
  d.call = &ServingStage::call;
  if (serves) {
    d.serve = &ServingStage::serve;
    d.ticks_per_cycle = clock.ticks_per_cycle();
  }
  return d;
}

/// A crossbar bound directly to a ServingStage, which serves at a cycle or not.
struct CrossbarBench {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{1000.0};
  Crossbar crossbar{"crossbar", params, tech, clock.ns_per_cycle()};
  ServingStage stage;
  RfTransaction txn;
  WarpRegister buffer;
  explicit CrossbarBench(bool serves) { crossbar.forward_directly(behind(stage, clock, serves)); }
};

}  // namespace

TEST_CASE("crossbar: carry_at serves at a cycle through a stage that serves so", "[crossbar]") {
  CrossbarBench b(true);
  Crossbar& crossbar = b.crossbar;
  const CycleClock& clock = b.clock;
  ServingStage& stage = b.stage;
  RfTransaction& txn = b.txn;
  WarpRegister& buffer = b.buffer;
  uint64_t ready = 0;
  txn.prepare(RfAccessKind::Read, &buffer);
  REQUIRE(crossbar.carry_at(txn.payload(), txn.access(), clock, 5, ready));
  CHECK(ready == 8);
  CHECK(stage.served == 1);
  txn.prepare(RfAccessKind::Wake, nullptr);  // the stage does not serve it: not carried
  CHECK_FALSE(crossbar.carry_at(txn.payload(), txn.access(), clock, 6, ready));
  // A clock of another period: cycles would not mean the same.
  const CycleClock other(500.0);
  txn.prepare(RfAccessKind::Read, &buffer);
  CHECK_FALSE(crossbar.carry_at(txn.payload(), txn.access(), other, 7, ready));
  CHECK(stage.served == 1);
  CHECK(crossbar.stats(10)["events"]["flits"] == kWarpRegisterBytes / Crossbar::kFlitBytes);
}

TEST_CASE("crossbar: carry_at leaves a stage that does not serve at a cycle to carry()",
          "[crossbar]") {
  CrossbarBench b(false);
  uint64_t ready = 0;
  b.txn.prepare(RfAccessKind::Read, &b.buffer);
  CHECK_FALSE(b.crossbar.carry_at(b.txn.payload(), b.txn.access(), b.clock, 5, ready));
  CHECK(b.stage.served == 0);
  CHECK(b.crossbar.stats(10)["events"]["flits"] == 0);
}

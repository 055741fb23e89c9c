// The RegMutex stage bound to a stub initiator and a stub register file: mapping of
// base and extended registers, acquire/release verdicts, stall and retry, and the
// release that waits for the region's last extended writes.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <systemc>

#include "common/params.h"
#include "designs/regmutex/regmutex_stage.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/kernel/kernel_ir.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  RfTransaction txn;
  WarpRegister buffer;
  explicit StubInitiator(sc_core::sc_module_name name) : sc_module(name) {}
  /// Sends one access of warp `slot`'s register `reg`; returns the response status.
  tlm::tlm_response_status access(RfAccessKind kind, uint16_t slot, uint16_t reg) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = slot;
    a.arch_reg = reg;
    a.phys_reg = kNoPhysical;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    return p.get_response_status();
  }
};

/// A register file that keeps values by physical register and remembers the last one.
struct StubRegisterFile : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubRegisterFile> socket{"socket"};
  std::map<uint32_t, WarpRegister> cells;
  uint32_t last_phys = kNoPhysical;
  explicit StubRegisterFile(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &StubRegisterFile::transport);
  }
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    RfAccess& a = rf_access_of(p);
    if (a.kind == RfAccessKind::Read || a.kind == RfAccessKind::Write) {
      last_phys = a.phys_reg;
      if (a.kind == RfAccessKind::Write)
        cells[a.phys_reg] = register_of(p);
      else
        register_of(p) = cells[a.phys_reg];
    }
    delay += sc_time(1, sc_core::SC_NS);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() { body(); }
};

WarpInst inst_at(uint64_t pc, uint16_t dst = kZeroRegister) {
  WarpInst i;
  i.pc = pc;
  if (dst != kZeroRegister) {
    i.num_dst = 1;
    i.dst[0] = dst;
  }
  return i;
}

}  // namespace

TEST_CASE("regmutex stage: acquire, mapping, release after the last write, stall and retry",
          "[regmutex][stage]") {
  const Params params = Params::load("regmutex", {"profile.ctas=6"});
  std::unique_ptr<Workload> workload = open_workload("regmutex-bfs", params);
  const DesignBench bench(params, *workload);
  RegMutexStage stage("regmutex", RegMutexConfig::from(params), bench.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);

  const RegMutexPlan& plan = stage.plan();
  REQUIRE(plan.applied);
  // Table I: BFS 21 (24) registers -> B_s = 18; 48 warps instead of 32, 26 sections.
  CHECK(plan.geometry.bs == 18);
  CHECK(plan.geometry.es == 6);
  CHECK(plan.geometry.sections == 26);
  CHECK(plan.occupancy.warps() == 48);
  CHECK(plan.baseline.warps() == 32);
  REQUIRE(stage.resident_occupancy() != nullptr);

  // An extended architected register, and PCs inside and outside an acquire region.
  uint16_t ext = 0, base = 0;
  for (uint16_t r = 0; r < 21; ++r) (plan.regions.extended[r] ? ext : base) = r;
  REQUIRE(plan.regions.extended[ext]);
  uint64_t in_pc = ~0ull, out_pc = ~0ull;
  for (const BasicBlock& b : workload->static_code()->blocks)
    for (const StaticInst& i : b.insts)
      (plan.regions.in_acquire_state(i.pc) ? in_pc : out_pc) = i.pc;
  REQUIRE(in_pc != ~0ull);
  REQUIRE(out_pc != ~0ull);
  const uint32_t x_ext = plan.regions.index_of[ext];
  const uint32_t x_base = plan.regions.index_of[base];

  Driver driver("driver", [&] {
    for (uint16_t w = 0; w < 48; ++w) init.access(RfAccessKind::Launch, w, 0);
    // Base registers map to W x B_s + X without any acquire.
    CHECK(init.access(RfAccessKind::Write, 5, base) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.last_phys == 5 * 18 + x_base);
    // Entering a region: the acquire issues as metadata, then the instruction issues.
    CHECK(stage.before_issue(5, 0, 0, inst_at(in_pc), 1) == IssueVerdict::Metadata);
    CHECK(stage.before_issue(5, 0, 0, inst_at(in_pc), 2) == IssueVerdict::Issue);
    const uint32_t section = stage.allocator().section_of(5);
    CHECK(section == 0);
    stage.issued(5, 0, inst_at(in_pc, ext), 2);
    // Leaving it with the extended write still in flight: the release waits.
    CHECK(stage.before_issue(5, 0, 1, inst_at(out_pc), 3) == IssueVerdict::Wait);
    init.buffer.lane[0] = 0xabcd;
    init.access(RfAccessKind::Write, 5, ext);
    CHECK(rf.last_phys == 48 * 18 + section * 6 + (x_ext - 18));
    init.buffer.lane[0] = 0;
    init.access(RfAccessKind::Read, 5, ext);
    CHECK(init.buffer.lane[0] == 0xabcd);
    CHECK(stage.before_issue(5, 0, 1, inst_at(out_pc), 4) == IssueVerdict::Metadata);
    CHECK_FALSE(stage.allocator().holds(5));
    CHECK(stage.before_issue(5, 0, 1, inst_at(out_pc), 5) == IssueVerdict::Issue);

    // 26 warps take the 26 sections; the 27th stalls, and retries until one is released.
    for (uint32_t w = 0; w < 26; ++w)
      REQUIRE(stage.before_issue(w, 0, 0, inst_at(in_pc), 10) == IssueVerdict::Metadata);
    CHECK(stage.before_issue(30, 1, 0, inst_at(in_pc), 11) == IssueVerdict::Wait);
    CHECK(stage.before_issue(30, 1, 0, inst_at(in_pc), 11) == IssueVerdict::Wait);
    CHECK(stage.before_issue(30, 1, 0, inst_at(in_pc), 12) == IssueVerdict::Wait);
    CHECK(stage.before_issue(7, 0, 1, inst_at(out_pc), 13) == IssueVerdict::Metadata);
    CHECK(stage.before_issue(30, 1, 0, inst_at(in_pc), 14) == IssueVerdict::Metadata);
    CHECK(stage.allocator().section_of(30) == 7);
    const RegMutexStage::Counters& c = stage.counters();
    CHECK(c.acquires == 28);
    CHECK(c.first_try_acquires == 27);
    CHECK(c.failed_attempts == 2);  // once per cycle
    CHECK(c.acquire_wait_cycles == 3);
    CHECK(c.releases == 2);
    CHECK(c.release_waits == 1);
    // A warp that exits gives its section back.
    init.access(RfAccessKind::Retire, 30, 0);
    CHECK_FALSE(stage.allocator().holds(30));
    CHECK(stage.counters().released_at_exit == 1);
  });
  sc_core::sc_start();
  CHECK(stage.describe()["storage_bits"]["total"] == 384);
}

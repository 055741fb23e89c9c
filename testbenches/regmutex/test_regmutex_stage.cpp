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
  /// Sends one access of warp `slot`'s register `reg` (named `phys` by the SM);
  /// returns the response status.
  tlm::tlm_response_status access(RfAccessKind kind, uint16_t slot, uint16_t reg,
                                  uint32_t phys = kNoPhysical) {
    const bool data = kind == RfAccessKind::Read || kind == RfAccessKind::Write;
    tlm::tlm_generic_payload& p = txn.prepare(kind, data ? &buffer : nullptr);
    RfAccess& a = txn.access();
    a.warp_slot = slot;
    a.arch_reg = reg;
    a.phys_reg = phys;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    return p.get_response_status();
  }
};

/// A register file that keeps values by physical register and remembers the last one,
/// and the physical ranges it was told are allocated or freed.
struct StubRegisterFile : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubRegisterFile> socket{"socket"};
  std::map<uint32_t, WarpRegister> cells;
  uint32_t last_phys = kNoPhysical;
  struct Range {
    RfAccessKind kind;
    uint32_t first, count;
    bool operator==(const Range& o) const {
      return kind == o.kind && first == o.first && count == o.count;
    }
  };
  std::vector<Range> ranges;
  std::vector<uint32_t> wakes;  ///< physical registers of Wake transactions
  explicit StubRegisterFile(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &StubRegisterFile::transport);
  }
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    RfAccess& a = rf_access_of(p);
    if (a.kind == RfAccessKind::Launch || a.kind == RfAccessKind::Retire)
      ranges.push_back({a.kind, a.phys_reg, a.regs_per_warp});
    if (a.kind == RfAccessKind::Wake) wakes.push_back(a.phys_reg);
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

/// The stage for a RegMutex profile (regmutex preset; BFS unless named) between a stub
/// initiator and a stub register file, with PCs inside and outside an acquire region
/// and, for static compaction, an extended and a base architected register.
struct ProfileStage {
  explicit ProfileStage(const std::string& compaction = "static",
                        const std::string& profile = "regmutex-bfs")
      : params(Params::load("regmutex", {"profile.ctas=6", "regmutex.compaction=" + compaction})),
        workload(open_workload(profile, params)) {
    init.socket.bind(stage.target);
    stage.initiator.bind(rf.socket);
    const RegMutexPlan& plan = stage.plan();
    for (uint16_t r = 0; r < 21; ++r) (plan.regions.extended[r] ? ext : base) = r;
    for (const BasicBlock& b : workload->static_code()->blocks)
      for (const StaticInst& i : b.insts)
        (plan.regions.in_acquire_state(i.pc) ? in_pc : out_pc) = i.pc;
  }
  Params params;
  std::unique_ptr<Workload> workload;
  DesignBench bench{params, *workload};
  RegMutexStage stage{"regmutex", bench.context()};
  StubInitiator init{"init"};
  StubRegisterFile rf{"rf"};
  uint16_t ext = 0, base = 0;
  uint64_t in_pc = ~0ull, out_pc = ~0ull;
};

}  // namespace

TEST_CASE("regmutex stage: acquire, mapping, release after the last write, stall and retry",
          "[regmutex][stage]") {
  ProfileStage bfs;
  RegMutexStage& stage = bfs.stage;
  StubInitiator& init = bfs.init;
  StubRegisterFile& rf = bfs.rf;
  const RegMutexPlan& plan = stage.plan();
  REQUIRE(plan.applied);
  // Table I: BFS 21 (24) registers -> B_s = 18; 48 warps instead of 32, 26 sections.
  CHECK(plan.geometry.bs == 18);
  CHECK(plan.geometry.es == 6);
  CHECK(plan.geometry.sections == 26);
  CHECK(plan.occupancy.warps() == 48);
  CHECK(plan.baseline.warps() == 32);
  REQUIRE(stage.resident_occupancy() != nullptr);

  const uint16_t ext = bfs.ext, base = bfs.base;
  const uint64_t in_pc = bfs.in_pc, out_pc = bfs.out_pc;
  REQUIRE(plan.regions.extended[ext]);
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
    const uint32_t section = stage.allocator().core().section_of(5);
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
    CHECK(stage.allocator().core().section_of(30) == 7);
    const RegMutexStats& c = stage.counters();
    CHECK(c.acquires == 28);
    CHECK(c.first_try_acquires == 27);
    CHECK(c.failed_acquire_attempts == 2);  // once per cycle
    CHECK(c.acquire_wait_cycles == 3);
    CHECK(c.releases == 2);
    CHECK(c.release_waits == 1);
    // A warp that exits gives its section back.
    init.access(RfAccessKind::Retire, 30, 0);
    CHECK_FALSE(stage.allocator().holds(30));
    CHECK(stage.counters().released_at_exit == 1);
  });
  sc_core::sc_start();
  CHECK(stage.allocator().describe()["storage_bits"]["total"] == 384);
  // The allocator is a child block of the stage, as the platform finds it.
  auto* allocator = dynamic_cast<SrpAllocator*>(sc_core::sc_find_object("regmutex.srp_allocator"));
  REQUIRE(allocator == &stage.allocator());
  // Downstream, the stage's own ranges: 48 base sets, then the sections as taken and
  // freed (warp 5: section 0 taken and freed; warps 0..25; warp 7 frees section 7,
  // warp 30 takes it), then warp 30's exit frees its section and its base set.
  using R = StubRegisterFile::Range;
  const auto& r = rf.ranges;
  REQUIRE(r.size() == 48 + 2 + 26 + 2 + 2);
  for (uint32_t w = 0; w < 48; ++w) CHECK(r[w] == R{RfAccessKind::Launch, w * 18, 18});
  const uint32_t srp = 48 * 18;
  CHECK(r[48] == R{RfAccessKind::Launch, srp, 6});
  CHECK(r[49] == R{RfAccessKind::Retire, srp, 6});
  CHECK(r[50 + 25] == R{RfAccessKind::Launch, srp + 25 * 6, 6});
  CHECK(r[76] == R{RfAccessKind::Retire, srp + 7 * 6, 6});
  CHECK(r[77] == R{RfAccessKind::Launch, srp + 7 * 6, 6});
  CHECK(r[78] == R{RfAccessKind::Retire, srp + 7 * 6, 6});
  CHECK(r[79] == R{RfAccessKind::Retire, 30 * 18, 18});
  const nlohmann::json a = allocator->stats(20);
  CHECK(a["events"]["acquires"] == 28);
  CHECK(a["events"]["failed_acquires"] == 2);
  CHECK(a["events"]["releases"] == 2);
  CHECK(a["events"]["lut_reads"] == 2);      // the extended write and read of warp 5
  CHECK(a["dynamic_pj"].get<double>() > 0);  // wc45 has srp_allocator_access, srp_lut_read
}

TEST_CASE("regmutex stage: Wake is translated, bad payloads and unmapped registers answered",
          "[regmutex][stage]") {
  ProfileStage bfs;
  RegMutexStage& stage = bfs.stage;
  StubInitiator& init = bfs.init;
  const RegMutexPlan& plan = stage.plan();
  REQUIRE(plan.applied);
  const uint16_t ext = bfs.ext;
  const uint64_t in_pc = bfs.in_pc;
  const uint32_t x_ext = plan.regions.index_of[ext];

  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 2, 0);
    // An extended register of a warp that holds no section has no physical location.
    CHECK(init.access(RfAccessKind::Read, 2, ext) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(init.access(RfAccessKind::Read, 2, 300) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    REQUIRE(stage.before_issue(2, 0, 0, inst_at(in_pc), 1) == IssueVerdict::Metadata);
    // The destination wake of a collector assignment names the physical register.
    CHECK(init.access(RfAccessKind::Wake, 2, ext, 2 * 24 + ext) == tlm::TLM_OK_RESPONSE);
    CHECK(init.access(RfAccessKind::Wake, 2, kZeroRegister, kNoPhysical) == tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload bare;
    bare.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(bare, delay);
    CHECK(bare.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  CHECK(bfs.rf.wakes == std::vector<uint32_t>{48 * 18 + (x_ext - 18), kNoPhysical});
  CHECK(stage.counters().unmapped_accesses == 2);
  const nlohmann::json s = stage.stats(10);
  CHECK(s["unmapped_accesses"] == 2);
  for (const auto& [key, value] : s.items()) {
    INFO(key);
    const bool energy =
        key == "events" || key == "dynamic_pj" || key == "leakage_pj" || key == "residency";
    CHECK((energy || stage.statistics()->declares(key)));
  }
}

TEST_CASE("regmutex stage, per-release compaction: MOVs before the release, renames after it",
          "[regmutex][stage]") {
  // MRI-Q: B_s = 18 of 21 registers and 48 warps as BFS, and warps that reach the
  // acquire state (BFS's calibrated profile keeps at most B_s registers live).
  ProfileStage mri("per_release", "regmutex-mri-q");
  RegMutexStage& stage = mri.stage;
  StubInitiator& init = mri.init;
  StubRegisterFile& rf = mri.rf;
  const RegMutexPlan& plan = stage.plan();
  REQUIRE(plan.applied);
  REQUIRE(plan.regions.per_release);
  const uint32_t bs = plan.geometry.bs;
  REQUIRE(bs == 18);
  // A release point with a live register that starts in the extended set, and a
  // register that starts there and is dead at it.
  uint64_t out_pc = ~0ull;
  uint16_t live_ext = kZeroRegister, dead_ext = kZeroRegister;
  uint32_t moves = 0;
  for (const BasicBlock& b : mri.workload->static_code()->blocks)
    for (const StaticInst& i : b.insts) {
      const RegisterSet* live = plan.regions.live_before(i.pc);
      REQUIRE(live != nullptr);
      if (out_pc != ~0ull || plan.regions.in_acquire_state(i.pc)) continue;
      for (uint16_t r = 0; r < 24; ++r) {
        if (plan.regions.index_of[r] < bs) continue;
        if (live->test(r)) {
          if (live_ext == kZeroRegister) live_ext = r;
          ++moves;
        } else if (dead_ext == kZeroRegister) {
          dead_ext = r;
        }
      }
      if (live_ext != kZeroRegister && dead_ext != kZeroRegister)
        out_pc = i.pc;
      else
        live_ext = dead_ext = kZeroRegister, moves = 0;
    }
  REQUIRE(out_pc != ~0ull);
  const uint32_t srp = 48 * 18;

  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 5, 0);
    REQUIRE(stage.before_issue(5, 0, 0, inst_at(mri.in_pc), 1) == IssueVerdict::Metadata);
    const uint32_t section = stage.allocator().core().section_of(5);
    stage.issued(5, 0, inst_at(mri.in_pc, live_ext), 2);
    // Its write is in flight: the release waits.
    CHECK(stage.before_issue(5, 0, 1, inst_at(out_pc), 3) == IssueVerdict::Wait);
    init.buffer.lane[0] = 0xabcd;
    CHECK(init.access(RfAccessKind::Write, 5, live_ext) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.last_phys == srp + section * 6 + (plan.regions.index_of[live_ext] - bs));
    // One MOV per live value in the extended set, each an issue slot, then the release.
    uint32_t metadata = 0;
    for (uint64_t t = 4; stage.allocator().holds(5) && t < 100; ++t)
      metadata += stage.before_issue(5, 0, 1, inst_at(out_pc), t) == IssueVerdict::Metadata;
    CHECK_FALSE(stage.allocator().holds(5));
    CHECK(stage.counters().compaction_moves == moves);
    CHECK(metadata == moves + 1);
    // The value is in a base register now, and reads find it there.
    init.buffer.lane[0] = 0;
    CHECK(init.access(RfAccessKind::Read, 5, live_ext) == tlm::TLM_OK_RESPONSE);
    CHECK(init.buffer.lane[0] == 0xabcd);
    CHECK(rf.last_phys >= 5 * bs);
    CHECK(rf.last_phys < 6 * bs);
    // Released, a write of a register whose index is extended takes a free base index.
    IssueVerdict v = IssueVerdict::Wait;
    uint64_t t = 100;
    while (v == IssueVerdict::Wait && t < 200)
      v = stage.before_issue(5, 0, 1, inst_at(out_pc, dead_ext), t++);
    REQUIRE(v == IssueVerdict::Issue);
    stage.issued(5, 0, inst_at(out_pc, dead_ext), t);
    CHECK(init.access(RfAccessKind::Write, 5, dead_ext) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.last_phys >= 5 * bs);
    CHECK(rf.last_phys < 6 * bs);
    CHECK(stage.counters().base_renames == 1);
    CHECK(stage.counters().release_waits == 1);
  });
  sc_core::sc_start();
  CHECK(stage.stats(300)["compaction"] == "per_release");
}

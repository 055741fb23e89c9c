// RFV's blocks as modules, and the RFV stage bound to a stub initiator and a stub
// register file: lookup timing and bank conflicts of rfv.renaming_table, probes and
// energy of rfv.release_flag_cache, and the stage's translation contract (its own
// Launch / Retire per physical register, Wake translated, error responses, sub-array
// gating through the register file's StoragePower).
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <systemc>

#include "common/params.h"
#include "designs/rfv/rfv_stage.h"
#include "modules/interfaces/rf_access.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/kernel/kernel_ir.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

/// Elaboration state of one test: parameters, a profile workload, the DesignContext.
struct Bench {
  Params params;
  std::unique_ptr<Workload> workload;
  DesignBench bench;
  Bench(const std::string& preset, const std::vector<std::string>& sets)
      : params(Params::load(preset, with_profile(sets))),
        workload(open_workload("rfv-hotspot", params)),
        bench(params, *workload) {}
  const DesignContext& context() const { return bench.context(); }
  sc_time cycles(uint64_t n) const { return bench.context().clock.cycles(n); }

 private:
  static std::vector<std::string> with_profile(std::vector<std::string> sets) {
    sets.insert(sets.begin(), "profile.ctas=2");
    return sets;
  }
};

/// Every key a block reports is an energy field or one its StatSet declares.
void check_declared(ReportingBlock& block, uint64_t end_cycle) {
  const nlohmann::json j = block.stats(end_cycle);
  REQUIRE(block.statistics() != nullptr);
  for (const auto& [key, value] : j.items()) {
    INFO(block.block_name() << "." << key);
    const bool energy =
        key == "events" || key == "dynamic_pj" || key == "leakage_pj" || key == "residency";
    CHECK((energy || block.statistics()->declares(key)));
  }
}

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  RfTransaction txn;
  WarpRegister buffer;
  sc_time delay;
  explicit StubInitiator(sc_core::sc_module_name name) : sc_module(name) {}
  tlm::tlm_generic_payload& prepare(RfAccessKind kind, uint16_t slot, uint16_t reg) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = slot;
    a.cta_slot = 0;
    a.arch_reg = reg;
    a.collector = 3;
    a.regs_per_warp = 22;
    a.phys_reg = slot * 22u + reg;  // the SM's direct name
    return p;
  }
  /// Sends one access; returns its response status (the annotated delay in `delay`).
  tlm::tlm_response_status send(tlm::tlm_generic_payload& p) {
    delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    return p.get_response_status();
  }
  tlm::tlm_response_status access(RfAccessKind kind, uint16_t slot, uint16_t reg) {
    return send(prepare(kind, slot, reg));
  }
  /// The access at `cycle` without the socket, as the crossbar does (DirectTransport::
  /// serve): whether the stage served it (`ready` then set).
  bool serve(const DirectTransport& stage, RfAccessKind kind, uint16_t slot, uint16_t reg,
             uint64_t cycle, uint64_t& ready) {
    tlm::tlm_generic_payload& p = prepare(kind, slot, reg);
    return stage.serve(stage.object, p, txn.access(), cycle, ready);
  }
};

/// A register file that keeps values by physical register and records every transaction.
struct StubRegisterFile : sc_core::sc_module {
  struct Seen {
    RfAccessKind kind;
    uint16_t warp_slot;
    uint32_t phys_reg;
    uint32_t count;
    sc_time at;  ///< sc_time_stamp() + the annotated delay on arrival
  };
  tlm_utils::simple_target_socket<StubRegisterFile> socket{"socket"};
  std::map<uint32_t, WarpRegister> cells;
  std::vector<Seen> seen;
  explicit StubRegisterFile(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &StubRegisterFile::transport);
  }
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    RfAccess& a = rf_access_of(p);
    seen.push_back(
        {a.kind, a.warp_slot, a.phys_reg, a.regs_per_warp, sc_core::sc_time_stamp() + delay});
    if (a.kind == RfAccessKind::Write) cells[a.phys_reg] = register_of(p);
    if (a.kind == RfAccessKind::Read) register_of(p) = cells[a.phys_reg];
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  size_t count(RfAccessKind kind) const {
    size_t n = 0;
    for (const Seen& s : seen) n += s.kind == kind;
    return n;
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

WarpInst writes(uint64_t pc, uint16_t dst, std::vector<uint16_t> src = {}) {
  WarpInst i;
  i.pc = pc;
  i.num_dst = 1;
  i.dst[0] = dst;
  i.num_src = static_cast<uint8_t>(src.size());
  for (size_t k = 0; k < src.size(); ++k) i.src[k] = src[k];
  return i;
}

}  // namespace

TEST_CASE("rfv.renaming_table: lookups cost a cycle, same-bank ones serialise, exempt bypass",
          "[rfv][block]") {
  // A 256-byte budget leaves room for a few renamed registers per warp: the rest are exempt.
  const Bench b("rfv", {"rfv.table_bytes=256"});
  const RfvMetadata compiled =
      *b.context().optional<RfvMetadata>(kRfvMetadata);  // the compiler's plan
  RenamingTableModule table("renaming_table", b.context(), 22, compiled.plan.exempt);
  CHECK(table.block_name() == "renaming_table");
  const RenamingTable& core = table.core();
  REQUIRE(core.exempt_count() > 0);
  REQUIRE(core.renamed_per_warp() >= 2);
  uint16_t exempt = 0xffff, renamed[2] = {0xffff, 0xffff};
  for (uint16_t r = 0; r < 22; ++r) {
    if (core.is_exempt(r) && exempt == 0xffff) exempt = r;
    if (!core.is_exempt(r) && renamed[0] == 0xffff) renamed[0] = r;
  }
  // A second renamed register in the same table bank (4 banks: reg mod 4).
  for (uint16_t r = renamed[0] + 1; r < 22; ++r)
    if (!core.is_exempt(r) && r % 4 == renamed[0] % 4) {
      renamed[1] = r;
      break;
    }
  REQUIRE(renamed[1] != 0xffff);

  // Exempt: direct, no lookup.
  const auto direct = table.translate(5, exempt, 1, 100);
  CHECK(direct.phys != kNoPhysical);
  CHECK(direct.cycles == 0);
  // Renamed, unmapped: no register yet; one lookup cycle.
  CHECK(table.translate(5, renamed[0], 1, 100).phys == kNoPhysical);
  const uint32_t phys = table.allocate(5, renamed[0]);
  REQUIRE(phys != kNoPhysical);
  CHECK(phys % 4 == (renamed[0] + 5u) % 4);      // the compiler's bank
  CHECK(table.allocate(5, renamed[0]) == phys);  // mapped already: no new write
  // The same unit in the same cycle: the second lookup of the bank waits one more cycle.
  const auto first = table.translate(5, renamed[0], 2, 101);
  CHECK(first.phys == phys);
  CHECK(first.cycles == 1);
  CHECK(table.translate(5, renamed[1], 2, 101).cycles == 2);
  CHECK(table.translate(5, renamed[1], 3, 101).cycles == 1);  // another unit
  CHECK(table.release(5, renamed[0]) == phys);
  CHECK(table.release(5, renamed[0]) == kNoPhysical);
  CHECK(table.release(5, exempt) == kNoPhysical);

  const nlohmann::json s = table.stats(1000);
  CHECK(s["lookups"] == 4);
  CHECK(s["lookup_conflicts"] == 1);
  CHECK(s["allocations"] == 1);
  CHECK(s["releases"] == 1);
  CHECK(s["events"]["updates"] == 2);
  CHECK(s["exempt_registers"] == core.exempt_count());
  // rfv40: 1.14 pJ per lookup or update, 0.27 mW per table bank.
  CHECK(s["dynamic_pj"].get<double>() == Approx(6 * 1.14));
  const double ns = b.context().clock.ns_per_cycle();
  CHECK(s["leakage_pj"].get<double>() == Approx(4 * 0.27 * 1000 * ns));
  CHECK(s["storage_bits"] == 256 * 8 + 1024);  // the budget + one availability bit per register
  check_declared(table, 1000);
  const nlohmann::json d = table.describe();
  CHECK(d["storage_bits"]["full_table"] == 48 * 63 * 10);
  CHECK(d["latency_cycles"]["lookup"] == 1);
}

TEST_CASE("rfv.renaming_table: a kernel wider than the table is a ConfigError naming the option",
          "[rfv][block][bad-input]") {
  const Bench b("rfv", {"rfv.max_regs_per_thread=16"});
  CHECK_THROWS_WITH(
      RenamingTableModule("renaming_table", b.context(), 22, std::vector<bool>(22, false)),
      Catch::Contains("rfv.max_regs_per_thread = 16"));
  const Bench odd("rfv", {"rfv.subarrays_per_bank=3"});
  CHECK_THROWS_WITH(
      RenamingTableModule("renaming_table", odd.context(), 22, std::vector<bool>(22, false)),
      Catch::Contains("rfv.subarrays_per_bank = 3"));
}

TEST_CASE("rfv.release_flag_cache: probes, fills and energy scaled to its entries",
          "[rfv][block]") {
  const Bench b("rfv", {});
  ReleaseFlagCacheModule cache("release_flag_cache", b.context());
  CHECK_FALSE(cache.probe(0x100));
  cache.fill(0x100, 0x2a);
  CHECK(cache.probe(0x100));
  CHECK(cache.flags(0x100) == 0x2a);
  const nlohmann::json s = cache.stats(0);
  CHECK(s["probes"] == 2);
  CHECK(s["hits"] == 1);
  CHECK(s["misses"] == 1);
  CHECK(s["fills"] == 1);
  CHECK(s["storage_bits"] == 800);  // 10 x (54 flags + 25 tag + 1 valid): the 100-byte array
  // rfv40 (seed 000's 40 nm) gives the 100-byte array's coefficient as it is.
  CHECK(s["dynamic_pj"].get<double>() == Approx(3 * 0.457031));
  check_declared(cache, 0);

  // Half the entries: rule S3 (bytes moved x sqrt(capacity)), rule S4 (capacity).
  const Bench half("rfv", {"rfv.flag_cache_entries=5"});
  ReleaseFlagCacheModule small("small", half.context());
  CHECK(small.storage_bits() == 5 * (54 + 27));
  small.probe(0);
  const double bytes = 5 * 81 / 8.0;
  CHECK(small.stats(0)["dynamic_pj"].get<double>() ==
        Approx(0.457031 * (bytes / 5) / 10 * std::sqrt(bytes / 100)));
  const double mw = small.describe()["energy"]["residency"][0]["mw_per_unit"]["on"];
  CHECK(mw == Approx(0.0683594 * bytes / 100));

  // No entries: no array, nothing to charge, every probe misses.
  const Bench none("rfv", {"rfv.flag_cache_entries=0"});
  ReleaseFlagCacheModule absent("absent", none.context());
  absent.fill(0x40, 1);
  CHECK_FALSE(absent.probe(0x40));
  const nlohmann::json a = absent.stats(1000);
  CHECK(a["dynamic_pj"] == 0.0);
  CHECK(a["leakage_pj"] == 0.0);
  CHECK(a["fills"] == 0);
}

TEST_CASE("rfv stage: its own Launch / Retire per physical register, translated names and timing",
          "[rfv][stage]") {
  const Bench b("rfv", {"rfv.allocate_at=issue", "rfv.mode=hardware", "rfv.table_bytes=256"});
  RfvStage stage("rfv", b.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);
  // The blocks are the stage's children, under hierarchical names.
  CHECK(stage.renaming_table().block_name() == "rfv.renaming_table");
  CHECK(stage.release_flag_cache() == nullptr);  // hardware-only renaming has no pir
  const RenamingTable& core = stage.renaming_table().core();
  const uint32_t exempt = core.exempt_count();
  REQUIRE(exempt > 0);
  uint16_t ex = 0xffff, ren = 0xffff;
  for (uint16_t r = 0; r < 22; ++r) (core.is_exempt(r) ? ex : ren) = r;

  Driver driver("driver", [&] {
    // The SM's Launch is consumed; the path hears of the warp's exempt registers.
    CHECK(init.access(RfAccessKind::Launch, 7, 0) == tlm::TLM_OK_RESPONSE);
    REQUIRE(rf.seen.size() == 1);
    CHECK(rf.seen[0].kind == RfAccessKind::Launch);
    CHECK(rf.seen[0].phys_reg == 7 * exempt);
    CHECK(rf.seen[0].count == exempt);

    // Issue maps the destination and tells the path: one Launch of one register.
    sc_core::wait(b.cycles(10));
    stage.issued(7, 0, writes(0x40, ren), 10);
    const uint32_t phys = core.lookup(7, ren);
    REQUIRE(phys != kNoPhysical);
    REQUIRE(rf.seen.size() == 2);
    CHECK(rf.seen[1].kind == RfAccessKind::Launch);
    CHECK(rf.seen[1].phys_reg == phys);
    CHECK(rf.seen[1].count == 1);
    CHECK(rf.seen[1].at == b.cycles(10));

    // A collector wake names the destination: translated, passed on.
    CHECK(init.access(RfAccessKind::Wake, 7, ren) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.seen.back().kind == RfAccessKind::Wake);
    CHECK(rf.seen.back().phys_reg == phys);
    init.access(RfAccessKind::Wake, 7, kZeroRegister);
    CHECK(rf.seen.back().phys_reg == 7 * 22u + kZeroRegister);  // no register: unchanged

    // The writeback lands in the mapped register after the one-cycle lookup; the read
    // gets the value back; an exempt register goes directly, without the lookup.
    init.buffer.lane[0] = 0xbeef;
    CHECK(init.access(RfAccessKind::Write, 7, ren) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.seen.back().phys_reg == phys);
    CHECK(init.delay == b.cycles(1));
    CHECK(rf.seen.back().at == b.cycles(11));
    init.buffer.lane[0] = 0;
    CHECK(init.access(RfAccessKind::Read, 7, ren) == tlm::TLM_OK_RESPONSE);
    CHECK(init.buffer.lane[0] == 0xbeef);
    init.access(RfAccessKind::Read, 7, ex);
    CHECK(rf.seen.back().phys_reg == 7 * exempt + core.lookup(0, ex));
    CHECK(init.delay == sc_core::SC_ZERO_TIME);

    // The SM's Retire is consumed: one Retire per mapped register, then the exempt range.
    sc_core::wait(b.cycles(5));
    const size_t before = rf.seen.size();
    CHECK(init.access(RfAccessKind::Retire, 7, 0) == tlm::TLM_OK_RESPONSE);
    REQUIRE(rf.seen.size() == before + 2);
    CHECK(rf.seen[before].kind == RfAccessKind::Retire);
    CHECK(rf.seen[before].phys_reg == phys);
    CHECK(rf.seen[before].count == 1);
    CHECK(rf.seen[before].at == b.cycles(15));
    CHECK(rf.seen[before + 1].phys_reg == 7 * exempt);
    CHECK(rf.seen[before + 1].count == exempt);
    CHECK(core.lookup(7, ren) == kNoPhysical);
  });
  sc_core::sc_start();
  CHECK(rf.count(RfAccessKind::Launch) == rf.count(RfAccessKind::Retire));
  const nlohmann::json s = stage.stats(20);
  CHECK(s["released_at_exit"] == 1);
  check_declared(stage, 20);
}

// The crossbar hands reads and writes to the stage at a cycle (DirectTransport::serve):
// the same translation, lookup cycles and data as through the socket.
TEST_CASE("rfv stage: served at a cycle as through its socket", "[rfv][stage]") {
  const Bench b("rfv", {"rfv.allocate_at=issue", "rfv.mode=hardware", "rfv.table_bytes=256"});
  RfvStage stage("rfv", b.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);
  const DirectTransport direct = stage.direct();
  REQUIRE(direct.serve != nullptr);
  const RenamingTable& core = stage.renaming_table().core();
  uint16_t ex = 0xffff, ren = 0xffff;
  for (uint16_t r = 0; r < 22; ++r) (core.is_exempt(r) ? ex : ren) = r;
  uint64_t ready = 0;
  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 7, 0);
    sc_core::wait(b.cycles(10));
    stage.issued(7, 0, writes(0x40, ren), 10);
    const uint32_t phys = core.lookup(7, ren);
    REQUIRE(phys != kNoPhysical);
    CHECK_FALSE(init.serve(direct, RfAccessKind::Wake, 7, ren, 10, ready));
    CHECK_FALSE(init.serve(direct, RfAccessKind::Read, 7, 63, 10, ready));  // refused by transport
    CHECK_FALSE(init.serve(direct, RfAccessKind::Read, 48, 0, 10, ready));  // no such warp slot
    init.buffer.lane[0] = 0xbeef;
    REQUIRE(init.serve(direct, RfAccessKind::Write, 7, ren, 10, ready));
    CHECK(ready == 11);  // after the one-cycle lookup
    CHECK(rf.seen.back().phys_reg == phys);
    CHECK(rf.seen.back().at == b.cycles(11));
    init.buffer.lane[0] = 0;
    REQUIRE(init.serve(direct, RfAccessKind::Read, 7, ren, 12, ready));
    CHECK(init.txn.payload().is_response_ok());
    CHECK(init.buffer.lane[0] == 0xbeef);
    CHECK(ready == 13);
    REQUIRE(init.serve(direct, RfAccessKind::Read, 7, ex, 12, ready));
    CHECK(ready == 12);  // an exempt register: no lookup
  });
  sc_core::sc_start();
}

TEST_CASE("rfv stage: a pir flag releases a register after its last read, with a Retire",
          "[rfv][stage]") {
  const Bench b("rfv", {"rfv.allocate_at=issue"});
  RfvStage stage("rfv", b.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);
  REQUIRE(stage.release_flag_cache() != nullptr);
  CHECK(stage.release_flag_cache()->block_name() == "rfv.release_flag_cache");
  // An instruction whose pir flags release one of its sources.
  uint64_t pc = 0;
  uint16_t dead = 0;
  for (const BasicBlock& block : b.workload->static_code()->blocks)
    for (const StaticInst& i : block.insts)
      if (const RfvProgram::Inst* info = stage.program().find(i.pc))
        if (info->release_count > 0 && pc == 0) {
          pc = i.pc;
          dead = info->release[0];
        }
  REQUIRE(pc != 0);
  const uint16_t other = dead == 0 ? 1 : 0;
  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 2, 0);
    stage.issued(2, 0, writes(0x0, dead), 0);  // defines the register
    const uint32_t phys = stage.renaming_table().core().lookup(2, dead);
    REQUIRE(phys != kNoPhysical);
    stage.issued(2, 0, writes(pc, other, {dead, dead}), 1);  // reads it twice, last use
    init.access(RfAccessKind::Read, 2, dead);
    CHECK(stage.renaming_table().core().lookup(2, dead) == phys);  // one read to come
    init.access(RfAccessKind::Read, 2, dead);
    CHECK(stage.renaming_table().core().lookup(2, dead) == kNoPhysical);
    CHECK(rf.seen.back().kind == RfAccessKind::Retire);
    CHECK(rf.seen.back().phys_reg == phys);
  });
  sc_core::sc_start();
  CHECK(stage.stats(10)["released_by_pir"] == 1);
}

TEST_CASE("rfv stage: payloads it cannot serve get TLM error responses",
          "[rfv][stage][bad-input]") {
  const Bench b("rfv", {"rfv.mode=hardware"});
  RfvStage stage("rfv", b.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);
  Driver driver("driver", [&] {
    tlm::tlm_generic_payload bare;  // no RfAccess extension
    sc_time delay = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(bare, delay);
    CHECK(bare.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);

    tlm::tlm_generic_payload& shortened = init.prepare(RfAccessKind::Write, 0, 1);
    shortened.set_data_length(64);
    CHECK(init.send(shortened) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(init.access(RfAccessKind::Read, 0, 63) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(init.access(RfAccessKind::Launch, 48, 0) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(rf.seen.empty());
  });
  sc_core::sc_start();
}

TEST_CASE("rfv stage: sub-arrays are gated through the register file and wake for an allocation",
          "[rfv][stage][power]") {
  const Bench b("rfv", {"rfv.allocate_at=issue", "rfv.mode=hardware", "rfv.wakeup_cycles=3"});
  RfvStage stage("rfv", b.context());
  StubInitiator init("init");
  StubRegisterFile rf("rf");
  init.socket.bind(stage.target);
  stage.initiator.bind(rf.socket);
  const StoragePowerMap& cells = b.bench.power_map();
  REQUIRE(cells.controller_names() == std::vector<std::string>{"rfv"});
  // Nothing is exempt with the 1 KB table: every sub-array starts gated.
  REQUIRE(stage.renaming_table().core().exempt_count() == 0);
  for (uint32_t phys : {0u, 255u, 1023u})
    CHECK(cells.state_of(phys, 0) == power::PowerState::Gated);
  Driver driver("driver", [&] {
    init.access(RfAccessKind::Launch, 1, 0);
    sc_core::wait(b.cycles(4));
    stage.issued(1, 0, writes(0x0, 2), 4);  // bank (2 + 1) mod 4 = 3, entry 0: physical 3
    CHECK(stage.renaming_table().core().lookup(1, 2) == 3u);
    // The whole sub-array (entries 0..63 of bank 3) wakes; its neighbours stay gated.
    CHECK(cells.state_of(3, 0) == power::PowerState::On);
    CHECK(cells.state_of(63 * 4 + 3, 0) == power::PowerState::On);
    CHECK(cells.state_of(64 * 4 + 3, 0) == power::PowerState::Gated);
    CHECK(cells.state_of(2, 0) == power::PowerState::Gated);
    // The write waits for the wake-up: lookup (1 cycle), then ready at cycle 4 + 3.
    CHECK(init.access(RfAccessKind::Write, 1, 2) == tlm::TLM_OK_RESPONSE);
    CHECK(rf.seen.back().at == b.cycles(7));
    init.access(RfAccessKind::Retire, 1, 0);
    CHECK(cells.state_of(3, 0) == power::PowerState::Gated);
  });
  sc_core::sc_start();
  const nlohmann::json s = stage.stats(10);
  CHECK(s["subarray_wakeups"] == 1);
  CHECK(s["wake_waits"] == 1);
}

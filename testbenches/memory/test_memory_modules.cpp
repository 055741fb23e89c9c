// The memory-system modules bound to stub initiators and targets: data path, response
// status, sc_time_stamp() and annotated delays, energy events, and refused payloads.
#include <catch2/catch.hpp>

#include "memory_bench.h"
#include "modules/memory/l1_cache.h"
#include "modules/memory/memory_system.h"

using namespace warpreg;
using namespace warpreg::memory;
using namespace memory_bench;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

void expect_status(tlm::tlm_response_status got, tlm::tlm_response_status want, const char* what) {
  INFO(what);
  CHECK(got == want);
}

/// An L1 between a stub SM and a stub level below that answers `latency` after a request.
struct L1OnStub {
  L1Cache l1;
  StubMemory below;
  Requester sm{"sm"};
  explicit L1OnStub(const CacheConfig& config = CacheConfig::gtx480_l1d(),
                    const sc_time& latency = sc_time(10, SC_NS))
      : l1("l1", config), below("below", latency) {
    sm.socket.bind(l1.cpu_side);
    l1.mem_side.bind(below.socket);
  }
};

}  // namespace

TEST_CASE("L1 module: miss, MSHR merge, hit and write-evict with their times",
          "[memory][l1][module]") {
  CacheConfig config = CacheConfig::gtx480_l1d();
  config.energy.tag_lookup_pj = 2.0;
  config.energy.mshr_access_pj = 10.0;
  L1OnStub bench(config, sc_time(100, SC_NS));
  L1Cache& l1 = bench.l1;
  StubMemory& below = bench.below;
  Requester& sm = bench.sm;
  const CycleClock& clock = l1.clock();  // 700 MHz: 1429 ps per cycle

  Run run("run", [&] {
    // Miss at cycle 0: it leaves after the 35-cycle access latency, the stub answers
    // 100 ns later, and the data is back at the first L1 edge after that.
    const Answer miss = sm.request(MemKind::Load, MemSpace::Global, 0x1000, 128);
    CHECK(miss.status == tlm::TLM_OK_RESPONSE);
    CHECK(miss.served_by == MemLevel::Dram);
    CHECK(miss.accepted == sc_core::SC_ZERO_TIME);
    REQUIRE(below.arrivals.size() == 1);
    CHECK(below.arrivals[0] == clock.cycles(35));
    CHECK(below.lengths[0] == 128);
    const uint64_t fill = cycle_not_before(clock, clock.cycles(35) + sc_time(100, SC_NS));
    CHECK(miss.done == clock.cycles(fill));
    // A second load of the line one cycle later merges into the pending miss.
    const Answer merged = sm.request(MemKind::Load, MemSpace::Global, 0x1020, 32, clock.cycles(1));
    CHECK(merged.served_by == MemLevel::L1);
    CHECK(merged.done == clock.cycles(fill));
    CHECK(below.arrivals.size() == 1);
    // Once the fill is in, a load hits: 35 cycles.
    sc_core::wait(clock.cycles(200));
    CHECK(sc_core::sc_time_stamp() == clock.cycles(200));
    const Answer hit = sm.request(MemKind::Load, MemSpace::Global, 0x1040, 64);
    CHECK(hit.served_by == MemLevel::L1);
    CHECK(hit.done == clock.cycles(235));
    CHECK(hit.accepted == clock.cycles(200));
    // A global store to the line evicts it and goes below.
    const Answer store = sm.request(MemKind::Store, MemSpace::Global, 0x1000, 32);
    CHECK(store.status == tlm::TLM_OK_RESPONSE);
    CHECK(below.kinds.back() == MemKind::Store);
    CHECK(below.lengths.back() == 32);
    CHECK_FALSE(l1.core().contains(0x1000, 0x1000));
    // So the next load misses again.
    CHECK(sm.request(MemKind::Load, MemSpace::Global, 0x1000, 32).served_by == MemLevel::Dram);
    // Atomics pass through the L1 unexamined.
    const size_t before = below.arrivals.size();
    sm.request(MemKind::Atomic, MemSpace::Global, 0x1000, 32);
    CHECK(below.arrivals.size() == before + 1);
    CHECK(below.kinds.back() == MemKind::Atomic);
  });
  sc_core::sc_start();
  CHECK(run.done);
  const CacheCore::Counters& c = l1.core().counters();
  CHECK(c.read_misses == 2);
  CHECK(c.mshr_merges == 1);
  CHECK(c.read_hits == 1);
  CHECK(c.write_evicts == 1);
  CHECK(c.passed == 1);
  const nlohmann::json stats = l1.stats(1000);
  CHECK(stats["events"]["tag_lookups"] == 5);  // the atomic was not looked up
  CHECK(stats["events"]["mshr_accesses"] == 3);
  CHECK(stats["dynamic_pj"].get<double>() == Approx(5 * 2.0 + 3 * 10.0));
  CHECK(stats["read_hits"] == 1);
  CHECK(stats["bytes_from_below"] == 2 * 128 + 32);
  CHECK(l1.describe()["organisation"]["capacity_bytes"] == 16384);
}

TEST_CASE("L1 module: an error from below reaches the SM and frees the MSHR",
          "[memory][l1][module][bad-input]") {
  L1OnStub bench;
  L1Cache& l1 = bench.l1;
  StubMemory& below = bench.below;
  Requester& sm = bench.sm;
  Run run("run", [&] {
    below.status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    CHECK(sm.request(MemKind::Load, MemSpace::Global, 0x2000, 128).status ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK_FALSE(l1.core().contains(0x2000, 0x2000));
    below.status = tlm::TLM_OK_RESPONSE;
    const Answer again = sm.request(MemKind::Load, MemSpace::Global, 0x2000, 128);
    CHECK(again.status == tlm::TLM_OK_RESPONSE);
    CHECK(again.served_by == MemLevel::Dram);
    CHECK(below.arrivals.size() == 2);
  });
  sc_core::sc_start();
  CHECK(run.done);
}

TEST_CASE("L1 module: refuses payloads it cannot serve with the TLM status",
          "[memory][l1][module][bad-input]") {
  L1OnStub bench;
  Requester& sm = bench.sm;
  Run run("run", [&] {
    check_refusals(sm, 0x4000, expect_status);
    // Write-backs come from caches, never from an SM.
    CHECK(sm.request(MemKind::Writeback, MemSpace::Local, 0x4000, 128).status ==
          tlm::TLM_COMMAND_ERROR_RESPONSE);
    // The data cache does not serve constant memory.
    CHECK(sm.request(MemKind::Load, MemSpace::Constant, 0x4000, 64).status ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  CHECK(run.done);
}

TEST_CASE("constant cache: read-only, 64-byte lines, refuses stores",
          "[memory][l1][module][bad-input]") {
  L1OnStub bench(CacheConfig::gtx480_constant());
  StubMemory& below = bench.below;
  Requester& sm = bench.sm;
  Run run("run", [&] {
    CHECK(sm.request(MemKind::Load, MemSpace::Constant, 0x40, 64).status == tlm::TLM_OK_RESPONSE);
    CHECK(below.lengths.back() == 64);
    CHECK(sm.request(MemKind::Store, MemSpace::Constant, 0x40, 4).status ==
          tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(sm.request(MemKind::Atomic, MemSpace::Constant, 0x40, 4).status ==
          tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(sm.request(MemKind::Load, MemSpace::Global, 0x40, 4).status ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(sm.request(MemKind::Load, MemSpace::Constant, 0x60, 64).status ==
          tlm::TLM_BURST_ERROR_RESPONSE);  // crosses a 64-byte line
  });
  sc_core::sc_start();
  CHECK(run.done);
}

namespace {

/// Two SMs' L1s on the GTX480 memory system.
struct GpuMemory {
  MemorySystem memory{"memory"};
  L1Cache l1_0{"l1_0"}, l1_1{"l1_1"};
  Requester sm0{"sm0", 0}, sm1{"sm1", 1};
  GpuMemory() {
    sm0.socket.bind(l1_0.cpu_side);
    sm1.socket.bind(l1_1.cpu_side);
    l1_0.mem_side.bind(memory.sm_side);
    l1_1.mem_side.bind(memory.sm_side);
  }
};

}  // namespace

TEST_CASE("memory system: a load is served by DRAM, then the L2, then the L1",
          "[memory][module][chain]") {
  GpuMemory gpu;
  const CycleClock& core = gpu.l1_0.clock();  // L1, interconnect and L2 all at 700 MHz
  Run run("run", [&] {
    // DRAM path, in 700 MHz cycles: L1 latency 35; request flit 35 -> 40 (injection,
    // 4 cycles of traversal, one flit); L2 latency 120 -> 160; DRAM at 160 x 1429 ps =
    // DRAM cycle 212 (1082 ps); + controller 132, activate, tRCD 12, tCL 12, 2 atoms
    // -> 372 = 402.504 ns = L2 cycle 282; the 136-byte reply (5 flits) reaches the SM
    // at 282 + 4 + 5 = 291.
    const Answer dram = gpu.sm0.request(MemKind::Load, MemSpace::Global, 0x10000, 128);
    CHECK(dram.status == tlm::TLM_OK_RESPONSE);
    CHECK(dram.served_by == MemLevel::Dram);
    CHECK(dram.done == core.cycles(291));
    sc_core::wait(core.cycles(1000));
    // Another SM loads the line: an L2 hit, 35 + 5 + 120 + 9 = 169 cycles.
    const Answer l2 = gpu.sm1.request(MemKind::Load, MemSpace::Global, 0x10000, 128);
    CHECK(l2.served_by == MemLevel::L2);
    CHECK(l2.done - sc_core::sc_time_stamp() == core.cycles(169));
    // The first SM hits in its L1.
    const Answer l1 = gpu.sm0.request(MemKind::Load, MemSpace::Global, 0x10000, 128);
    CHECK(l1.served_by == MemLevel::L1);
    CHECK(l1.done - sc_core::sc_time_stamp() == core.cycles(35));
    // A store goes to the L2 (write-evict at the L1), which keeps it (write-back).
    const Answer store = gpu.sm0.request(MemKind::Store, MemSpace::Global, 0x10020, 32);
    CHECK(store.served_by == MemLevel::L2);
    CHECK_FALSE(gpu.l1_0.core().contains(0x10000, 0x10000));
    const uint32_t slice = gpu.memory.slice(0).address_map().slice_of(0x10000);
    CHECK(gpu.memory.slice(slice).core().dirty(
        0x10000, gpu.memory.slice(slice).address_map().partition_address(0x10000)));
  });
  sc_core::sc_start();
  CHECK(run.done);
  const nlohmann::json stats = gpu.memory.stats_at(sc_core::sc_time_stamp());
  CHECK(stats["memory.interconnect"]["requests"]["packets"] == 3);
  // 0x10000 is 256-byte chunk 256: channel 256 mod 6 = 4.
  CHECK(stats["memory.dram4"]["reads"] == 1);
  CHECK(stats["memory.dram4"]["activates"] == 1);
  for (uint32_t c = 0; c < 6; ++c)
    if (c != 4) CHECK(stats["memory.dram" + std::to_string(c)]["reads"] == 0);
}

TEST_CASE("interconnect, L2 slice and DRAM channel refuse payloads they cannot serve",
          "[memory][module][bad-input]") {
  MemorySystem memory("memory");
  Requester to_icnt("to_icnt");
  to_icnt.socket.bind(memory.sm_side);
  L2Slice l2("l2", 3);
  StubMemory below("below", sc_time(10, SC_NS));
  l2.dram_side.bind(below.socket);
  Requester to_l2("to_l2");
  to_l2.socket.bind(l2.icnt_side);
  DramChannel dram("dram", 1);
  Requester to_dram("to_dram");
  to_dram.socket.bind(dram.l2_side);
  Run run("run", [&] {
    check_refusals(to_icnt, 0x4000, expect_status);
    // Slice 3 is channel 1's second sub-partition: 256-byte chunk 7 (7 mod 6 = 1, 7 / 6 odd).
    check_refusals(to_l2, 0x700, expect_status);
    CHECK(to_l2.request(MemKind::Load, MemSpace::Global, 0x000, 32).status ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);  // another slice's address
    check_refusals(to_dram, 0x100, expect_status);
    CHECK(to_dram.request(MemKind::Load, MemSpace::Global, 0x000, 128).status ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);  // channel 0's
  });
  sc_core::sc_start();
  CHECK(run.done);
  CHECK(l2.stats(100)["misrouted_requests"] == 1);
}

TEST_CASE("memory modules: inconsistent configurations name the fields",
          "[memory][module][bad-input]") {
  InterconnectConfig icnt;
  icnt.slice_ports = 4;
  CHECK_THROWS_WITH(Interconnect("icnt", icnt), Catch::Contains("interconnect.slice_ports"));
  CHECK_THROWS_WITH(L2Slice("l2", 12), Catch::Contains("slice 12"));
  DramConfig dram;
  dram.banks = 8;
  CHECK_THROWS_WITH(DramChannel("dram", 0, dram), Catch::Contains("dram.banks"));
  CHECK_THROWS_WITH(DramChannel("dram6", 6), Catch::Contains("address_map.channels"));
  MemorySystemConfig system;
  system.l2.mshr_entries = 0;
  CHECK_THROWS_WITH(MemorySystem("memory", system), Catch::Contains("l2.mshr_entries"));
}

TEST_CASE("interconnect: binding fewer slices than its ports stops elaboration",
          "[memory][interconnect][module][bad-input]") {
  Interconnect icnt("icnt");  // 12 slice ports
  StubMemory slice("slice", sc_time(10, SC_NS));
  Requester sm("sm");
  sm.socket.bind(icnt.sm_side);
  icnt.l2_side.bind(slice.socket);
  CHECK_THROWS_WITH(sc_core::sc_start(), Catch::Contains("l2_side is bound to 1 slices") &&
                                             Catch::Contains("slice_ports = 12"));
}

// The Warped-Compression stage bound to a stub initiator and the register file:
// data, response, latency in sc_time_stamp(), unit contention, dummy MOVs, gating.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <functional>
#include <systemc>

#include "common/params.h"
#include "designs/wc/wc_stage.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_module.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

struct StubInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<StubInitiator> socket{"socket"};
  CycleClock clock;
  RfTransaction txn;
  WarpRegister buffer;
  tlm::tlm_response_status last_response = tlm::TLM_INCOMPLETE_RESPONSE;
  unsigned last_length = 0;

  StubInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}

  /// One access of warp 0's register `reg` now; returns the cycles until it completes.
  uint64_t access(RfAccessKind kind, uint16_t reg, LaneMask mask = kFullMask) {
    tlm::tlm_generic_payload& p = txn.prepare(kind, &buffer);
    RfAccess& a = txn.access();
    a.warp_slot = 0;
    a.arch_reg = reg;
    a.phys_reg = reg;
    a.active_mask = mask;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
    last_length = p.get_data_length();
    return clock.cycle_of(delay);
  }
  /// Waits until absolute cycle `cycle`.
  void wait_until(uint64_t cycle) {
    const sc_time t = clock.cycles(cycle);
    if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
  }
};

/// Stub initiator -> wc stage -> register file, at preset wc plus `sets`.
struct WcBench {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{params.real("sim.clock_mhz")};
  RegisterFileModule rf{"rf", params, tech, clock};
  WcStage wc{"wc", WcStageConfig::from(params), tech, clock};
  StubInitiator init{"init", clock};
  explicit WcBench(const std::vector<std::string>& sets) : params(Params::load("wc", sets)) {
    init.socket.bind(wc.target);
    wc.initiator.bind(rf.socket);
  }
};

/// Runs `body` in an SC_THREAD and the simulation to its end.
struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() { body(); }
};

WarpRegister ramp(uint32_t base, uint32_t step) {
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = base + step * i;
  return r;
}

}  // namespace

TEST_CASE("wc stage: compressed write and read with latency and slices and bank wake-up",
          "[bdi][wc][module]") {
  WcBench bench({});
  StubInitiator& init = bench.init;
  const WarpRegister small = ramp(0x1000, 3);  // deltas up to 93: <4,1>, 3 banks
  WarpRegister random;
  for (unsigned i = 0; i < kWarpSize; ++i) random.lane[i] = 0x9e3779b9u * (i + 1);
  Driver driver("driver", [&] {
    // R2 of warp 0 lives in bank 2. Compression takes 2 cycles, but bank 2's first three
    // 16-byte banks are gated: they wake at cycle 0 + 10; write granted at 10, ready at 11.
    init.buffer = small;
    CHECK(init.access(RfAccessKind::Write, 2) == 11);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.last_length == 48);
    CHECK(bench.wc.state().indicator(2) == 2);  // <4,1>
    CHECK(bench.rf.core().counters().slice_writes == 3);
    const WarpRegister stored = bench.rf.core().peek(2);
    CHECK(stored.lane[0] == 0x1000);
    CHECK(stored.lane[1] == 0x0c090603u);  // deltas 3, 6, 9, 12 packed little endian

    // Read at cycle 20: the arbiter reads 3 slices (ready 21), one decompressor cycle: 22.
    init.wait_until(20);
    init.buffer = WarpRegister{};
    CHECK(init.access(RfAccessKind::Read, 2) == 2);
    CHECK(init.buffer == small);
    CHECK(init.last_length == 48);
    CHECK(bench.rf.core().counters().slice_reads == 3);

    // An incompressible register in bank 3 wakes all 8 of its slices (ready 30 + 1).
    init.wait_until(20);
    init.buffer = random;
    CHECK(init.access(RfAccessKind::Write, 3) == 11);
    CHECK(bench.wc.state().indicator(3) == 0);
    init.wait_until(40);
    init.buffer = WarpRegister{};
    CHECK(init.access(RfAccessKind::Read, 3) == 1);  // no decompression
    CHECK(init.buffer == random);
    CHECK(init.last_length == 128);
    CHECK(bench.rf.core().counters().slice_reads == 3 + 8);
    CHECK(sc_core::sc_time_stamp() == bench.clock.cycles(40));
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.wc.stats(100);
  CHECK(s["events"]["compressions"] == 2);
  CHECK(s["events"]["decompressions"] == 1);
  CHECK(s["writes_by_encoding"]["<4,1>"] == 1);
  CHECK(s["writes_by_encoding"]["uncompressed"] == 1);
  CHECK(s["bank_gating"]["wakeups"] == 3 + 8);
  const auto gated = s["bank_gating"]["gated_cycles_per_bank"];
  CHECK(gated.size() == 32);
  CHECK(gated[0] == 100);    // bank 0 never used
  CHECK(gated[2 * 8] == 0);  // bank 2 slice 0 woken at cycle 0
  CHECK(gated[2 * 8 + 3] == 100);
  CHECK(gated[3 * 8 + 7] == 20);  // bank 3 woken at cycle 20
  CHECK(s["bank_gating"]["leakage_saved_pj"].get<double>() > 0);
  const nlohmann::json d = bench.wc.describe();
  CHECK(d["storage_bits"]["range_indicators"] == 1024 * 2);
  CHECK(d["units"]["compressors"] == 2);
  CHECK(d["units"]["decompressors"] == 4);
}

TEST_CASE("wc stage: the 16-byte banks leak by power state and the register file leaks nothing",
          "[bdi][wc][module][leakage]") {
  WcBench bench({});
  StubInitiator& init = bench.init;
  REQUIRE(bench.wc.owns_register_leakage());
  bench.rf.hand_over_leakage("wc");
  Driver driver("driver", [&] {
    // R2 (bank 2) as <4,1>: its first three 16-byte banks wake at cycle 0.
    init.buffer = ramp(0x1000, 3);
    init.access(RfAccessKind::Write, 2);
    // The warp retires at cycle 50: those three banks hold no valid entry and gate again.
    init.wait_until(50);
    tlm::tlm_generic_payload& p = init.txn.prepare(RfAccessKind::Retire, &init.buffer);
    init.txn.access().phys_reg = 0;
    init.txn.access().regs_per_warp = 4;
    sc_time delay = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(p, delay);
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.wc.stats(100);
  for (int slice = 0; slice < 3; ++slice) {
    INFO("slice " << slice);
    const nlohmann::json& r = s["residency"]["rf_bank2_slice" + std::to_string(slice)];
    CHECK(r["on"] == 50);
    CHECK(r["gated"] == 50);
    CHECK(s["bank_gating"]["gated_cycles_per_bank"][2 * 8 + slice] == 50);
  }
  CHECK(s["residency"]["rf_bank2_slice3"]["on"] == 0);
  CHECK(s["residency"]["rf_bank2_slice3"]["gated"] == 100);
  CHECK(s["residency"]["rf_bank0_slice0"]["gated"] == 100);
  // 3 banks x 50 cycles on at 5.8 mW (4 KB, wc45) and gated at 0 mW, plus the
  // always-on units: 2 compressors x 0.12 mW + 4 decompressors x 0.08 mW.
  const double ns = bench.clock.ns_per_cycle();
  CHECK(s["bank_gating"]["bank_leakage_pj"].get<double>() == Approx(3 * 50 * 5.8 * ns));
  CHECK(s["bank_gating"]["all_on_leakage_pj"].get<double>() == Approx(32 * 100 * 5.8 * ns));
  CHECK(s["bank_gating"]["leakage_saved_pj"].get<double>() == Approx((3200 - 150) * 5.8 * ns));
  CHECK(s["leakage_pj"].get<double>() == Approx((3 * 50 * 5.8 + 100 * 0.56) * ns));
  const nlohmann::json rf = bench.rf.stats(100);
  CHECK(rf["leakage_pj"].get<double>() == 0.0);
  CHECK(rf["leakage_accounted_by"] == "wc");
}

TEST_CASE("wc stage: compressors and decompressors are contended", "[bdi][wc][module]") {
  WcBench bench({"wc.bank_gating=false", "wc.compressors=1", "wc.decompressors=1"});
  StubInitiator& init = bench.init;
  Driver driver("driver", [&] {
    // Two writes in one cycle, one compressor: the second starts a cycle later.
    init.buffer = ramp(5, 0);
    CHECK(init.access(RfAccessKind::Write, 0) == 3);  // compressed at 2, written at 2, ready 3
    init.buffer = ramp(9, 1);
    CHECK(init.access(RfAccessKind::Write, 1) == 4);
    init.wait_until(10);
    // Two reads in different banks, one decompressor: 10 -> banks ready 11 -> 12 and 13.
    CHECK(init.access(RfAccessKind::Read, 0) == 2);
    CHECK(init.buffer == ramp(5, 0));
    CHECK(init.access(RfAccessKind::Read, 1) == 3);
    CHECK(init.buffer == ramp(9, 1));
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.wc.stats(20);
  CHECK(s["compressors"]["contended"] == 1);
  CHECK(s["decompressors"]["contended"] == 1);
  CHECK(s["decompressors"]["wait_cycles"] == 1);
}

TEST_CASE("wc stage: a divergent write to a compressed register injects one dummy MOV",
          "[bdi][wc][module][divergence]") {
  WcBench bench({"wc.bank_gating=false"});
  StubInitiator& init = bench.init;
  const LaneMask upper = 0xffff0000u;
  Driver driver("driver", [&] {
    init.buffer = ramp(7, 0);  // <4,0>: one slice
    CHECK(init.access(RfAccessKind::Write, 0) == 3);
    CHECK(bench.wc.state().indicator(0) == 1);
    init.wait_until(10);
    // MOV: read slice 0 at 10 (ready 11), decompress (12), write 8 slices at 12; the
    // divergent write then waits for the write ports: granted 13, readable 14.
    init.buffer = ramp(100, 1);
    CHECK(init.access(RfAccessKind::Write, 0, upper) == 4);
    CHECK(bench.wc.counters().dummy_movs == 1);
    CHECK(bench.wc.state().indicator(0) == 0);  // stored uncompressed from now on
    CHECK(bench.rf.core().counters().reads == 1);
    CHECK(bench.rf.core().counters().writes == 3);
    init.wait_until(20);
    init.buffer = WarpRegister{};
    CHECK(init.access(RfAccessKind::Read, 0) == 1);
    for (unsigned i = 0; i < kWarpSize; ++i) CHECK(init.buffer.lane[i] == (i < 16 ? 7 : 100 + i));
    // The register is uncompressed now: the next divergent write needs no MOV.
    init.buffer = ramp(200, 1);
    CHECK(init.access(RfAccessKind::Write, 0, 0x0000ffffu) == 1);
    CHECK(bench.wc.counters().dummy_movs == 1);
    CHECK(bench.wc.counters().divergent_writes == 2);
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.wc.stats(30);
  CHECK(s["dummy_movs"] == 1);
  CHECK(s["events"]["decompressions"] == 1);
  CHECK(s["events"]["mov_flits"] == 1 + 8);
  // Figure 8's divergent ratio: both merged registers (7 | 100 + i, then 200 + i | 100 + i)
  // would have fitted <4,1>, three banks each.
  CHECK(s["compression_ratio"]["divergent_if_compressed"].get<double>() == Approx(256.0 / 96.0));
  // Figure 2's bins over active-lane pairs: 31 zero pairs (ramp(7, 0)), then 15 + 15 pairs
  // one apart in the two divergent writes.
  CHECK(s["similarity"]["non_divergent"]["zero"] == 31);
  CHECK(s["similarity"]["divergent"]["le_128"] == 30);
}

namespace {

/// Records what reaches the banks and answers after a fixed latency, or with an error.
struct StubTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<StubTarget> socket{"socket"};
  CycleClock clock;
  uint64_t latency = 3;
  tlm::tlm_response_status answer = tlm::TLM_OK_RESPONSE;
  struct Seen {
    RfAccessKind kind;
    uint64_t cycle;
    LaneMask active_mask, read_lanes;
    WarpRegister data;
  };
  std::vector<Seen> seen;
  WarpRegister stored;  ///< what a read returns

  StubTarget(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {
    socket.register_b_transport(this, &StubTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    const RfAccess& a = rf_access_of(p);
    const uint64_t cycle = clock.cycle_at(delay);
    if (a.kind == RfAccessKind::Read) register_of(p) = stored;
    seen.push_back({a.kind, cycle, a.active_mask, a.read_lanes, register_of(p)});
    if (a.kind == RfAccessKind::Write) stored = register_of(p);
    p.set_response_status(answer);
    clock.complete_at(delay, cycle + latency);
  }
};

struct StubTargetBench {
  const Params params = Params::load("wc", {"wc.bank_gating=false"});
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{params.real("sim.clock_mhz")};
  WcStage wc{"wc", WcStageConfig::from(params), tech, clock};
  StubInitiator init{"init", clock};
  StubTarget banks{"banks", clock};
  StubTargetBench() {
    init.socket.bind(wc.target);
    wc.initiator.bind(banks.socket);
  }
};

}  // namespace

TEST_CASE("wc stage: what reaches the banks is the image with narrowed masks",
          "[bdi][wc][module]") {
  StubTargetBench bench;
  StubInitiator& init = bench.init;
  StubTarget& banks = bench.banks;
  const WarpRegister value = ramp(0x500, 2);  // <4,1>: 3 banks, lanes 0..11
  Driver driver("driver", [&] {
    init.wait_until(5);
    init.buffer = value;
    // Compressed at 5 + 2; the target answers 3 cycles after it sees the write.
    const uint64_t write_cycles = init.access(RfAccessKind::Write, 1);
    CHECK(write_cycles == 2 + 3);
    sc_core::wait(bench.clock.cycles(write_cycles));
    CHECK(sc_core::sc_time_stamp() == bench.clock.cycles(10));
    REQUIRE(banks.seen.size() == 1);
    CHECK(banks.seen[0].kind == RfAccessKind::Write);
    CHECK(banks.seen[0].cycle == 7);
    CHECK(banks.seen[0].active_mask == 0x00000fffu);
    CHECK(banks.seen[0].data.lane[0] == 0x500);
    CHECK(banks.seen[0].data.lane[1] == 0x08060402u);
    CHECK(init.buffer == value);  // the SM's buffer is untouched

    // Read: only the image's lanes are asked for; the answer is decompressed.
    init.buffer = WarpRegister{};
    const uint64_t read_cycles = init.access(RfAccessKind::Read, 1);
    CHECK(read_cycles == 3 + 1);
    sc_core::wait(bench.clock.cycles(read_cycles));
    CHECK(sc_core::sc_time_stamp() == bench.clock.cycles(14));
    CHECK(banks.seen.back().read_lanes == 0x00000fffu);
    CHECK(init.buffer == value);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);

    // An error from the banks comes back to the initiator unchanged.
    banks.answer = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    init.access(RfAccessKind::Read, 1);
    CHECK(init.last_response == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
}

TEST_CASE("wc stage: power.rf_access_scale multiplies the bank access energy",
          "[bdi][wc][module][energy]") {
  WcBench bench({"power.rf_access_scale=2.5"});
  StubInitiator& init = bench.init;
  Driver driver("driver", [&] {
    init.buffer = ramp(0x1000, 3);  // <4,1>: three 16-byte slices written
    init.access(RfAccessKind::Write, 2);
    init.wait_until(20);
    init.access(RfAccessKind::Read, 2);  // and read
  });
  sc_core::sc_start();
  const nlohmann::json rf = bench.rf.stats(40);
  CHECK(rf["events"]["slice_writes"] == 3);
  CHECK(rf["events"]["slice_reads"] == 3);
  // wc45: 7 pJ per 16-byte access (seed 001 Table 3), x 2.5.
  CHECK(rf["dynamic_pj"].get<double>() == Approx(6 * 7.0 * 2.5));
}

// The Warped-Compression stage bound to a stub initiator and the register file (or a
// stub bank target): data, response, latency in sc_time_stamp(), unit contention, dummy
// MOVs, bank gating through the register file's StoragePower, physical ranges.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "designs/wc/wc_stage.h"
#include "modules/regfile/regfile_module.h"
#include "testbenches/bdi/wc_bench.h"
#include "testbenches/support/cli_runner.h"

using namespace warpreg;
using namespace warpreg::testing;
using sc_core::sc_time;

namespace {

/// Stub initiator -> wc stage -> register file, at preset wc plus `sets`.
struct WcBench {
  WcContext setup;
  const power::TechTable& tech = setup.context().tech;
  const CycleClock& clock = setup.context().clock;
  RegisterFileModule rf;
  const DesignContext context;
  WcStage wc;
  StubInitiator init;
  explicit WcBench(const std::vector<std::string>& sets)
      : setup(sets),
        rf("rf", setup.params, tech, clock),
        context(setup.with_storage(rf.storage_power())),
        wc("wc", context),
        init("init", clock) {
    init.socket.bind(wc.target);
    wc.initiator.bind(rf.socket);
  }
};

/// Stub initiator -> wc stage -> stub banks.
struct StubTargetBench {
  WcContext setup;
  const CycleClock& clock = setup.context().clock;
  WcStage wc;
  StubInitiator init;
  StubTarget banks;
  explicit StubTargetBench(const std::vector<std::string>& sets = {"wc.bank_gating=false"})
      : setup(sets), wc("wc", setup.context()), init("init", clock), banks("banks", clock) {
    init.socket.bind(wc.target);
    wc.initiator.bind(banks.socket);
  }
};

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
  CHECK(bench.wc.compressor().units().activations() == 2);
  CHECK(bench.wc.decompressor().units().activations() == 1);
  const nlohmann::json s = bench.wc.stats(100);
  CHECK(s["writes_by_encoding"]["<4,1>"] == 1);
  CHECK(s["writes_by_encoding"]["uncompressed"] == 1);
  CHECK(s["events"]["indicator_writes"] == 2);
  CHECK(s["events"]["indicator_reads"] == 2);
  CHECK(s["bank_gating"]["wakeups"] == 3 + 8);
  const auto gated = s["bank_gating"]["gated_cycles_per_bank"];
  CHECK(gated.size() == 32);
  CHECK(gated[0] == 100);    // bank 0 never used
  CHECK(gated[2 * 8] == 0);  // bank 2 slice 0 woken at cycle 0
  CHECK(gated[2 * 8 + 3] == 100);
  CHECK(gated[3 * 8 + 7] == 20);  // bank 3 woken at cycle 20
  const nlohmann::json d = bench.wc.describe();
  CHECK(d["storage_bits"]["range_indicators"] == 1024 * 2);
  CHECK(d["organisation"]["blocks"] ==
        nlohmann::json({"wc.bdi_compressor", "wc.bdi_decompressor"}));
}

TEST_CASE("wc stage: bank gating sets the register file's cells, which leak by their state",
          "[bdi][wc][module][leakage]") {
  WcBench bench({});
  StubInitiator& init = bench.init;
  Driver driver("driver", [&] {
    // R2 (bank 2) as <4,1>: its first three 16-byte banks wake at cycle 0.
    init.buffer = ramp(0x1000, 3);
    init.access(RfAccessKind::Write, 2);
    CHECK(bench.rf.power_map().state_of(2, 0) == power::PowerState::On);
    CHECK(bench.rf.power_map().state_of(2, 3) == power::PowerState::Gated);
    // The warp retires at cycle 50: those three banks hold no valid entry and gate again.
    init.wait_until(50);
    init.range(RfAccessKind::Retire, 0, 4);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(bench.rf.power_map().state_of(2, 0) == power::PowerState::Gated);
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.wc.stats(100);
  for (int slice = 0; slice < 3; ++slice) {
    INFO("slice " << slice);
    CHECK(s["bank_gating"]["gated_cycles_per_bank"][2 * 8 + slice] == 50);
  }
  // The stage owns no storage leakage; the codec units leak in their own blocks.
  CHECK(s["leakage_pj"].get<double>() == 0.0);
  CHECK_FALSE(s.contains("residency"));
  // The register file: its 4 x 256 x 8 cells, of which one column of 256 cells (16 B x
  // 256 entries = 4 KB, 5.8 mW in wc45) per slice of bank 2 was on for 50 cycles.
  const double ns = bench.clock.ns_per_cycle();
  const nlohmann::json rf = bench.rf.stats(100);
  CHECK(rf["power_controllers"] == nlohmann::json({"wc"}));
  CHECK(rf["residency"]["cells"]["on"] == 3 * 256 * 50);
  CHECK(rf["residency"]["cells"]["gated"] == 8192 * 100 - 3 * 256 * 50);
  CHECK(rf["leakage_pj"].get<double>() == Approx(3 * 50 * 5.8 * ns));
  // 2 compressors x 0.12 mW and 4 decompressors x 0.08 mW, always on.
  CHECK(bench.wc.compressor().stats(100)["leakage_pj"].get<double>() ==
        Approx(100 * 2 * 0.12 * ns));
  CHECK(bench.wc.decompressor().stats(100)["leakage_pj"].get<double>() ==
        Approx(100 * 4 * 0.08 * ns));
}

TEST_CASE("wc stage: without gating the stage sets no power state", "[bdi][wc][module][leakage]") {
  WcBench bench({"wc.bank_gating=false"});
  Driver driver("driver", [&] {
    bench.init.buffer = ramp(1, 0);
    bench.init.access(RfAccessKind::Write, 1);
  });
  sc_core::sc_start();
  const nlohmann::json rf = bench.rf.stats(10);
  CHECK(rf["power_controllers"].empty());
  // 4 banks of 32 KB at 5.8 mW per 4 KB, all on.
  CHECK(rf["leakage_pj"].get<double>() == Approx(10 * 4 * 8 * 5.8 * bench.clock.ns_per_cycle()));
  CHECK(bench.wc.stats(10)["bank_gating"]["gated_fraction"] == 0.0);
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
  const nlohmann::json c = bench.wc.compressor().stats(20);
  const nlohmann::json d = bench.wc.decompressor().stats(20);
  CHECK(c["contended"] == 1);
  CHECK(c["events"]["compressions"] == 2);
  CHECK(d["contended"] == 1);
  CHECK(d["wait_cycles"] == 1);
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
  CHECK(bench.wc.decompressor().stats(30)["events"]["decompressions"] == 1);
  CHECK(s["events"]["mov_flits"] == 1 + 8);
  // Figure 8 as the paper defines it, over Table 1's compressed sizes: the first write
  // (7 in every lane) is <4,0>, 4 bytes; both merged registers of the divergent writes
  // (7 | 100 + i, then 200 + i | 100 + i) would have fitted <4,1>, 35 bytes each. Rounded
  // to the 16-byte banks they occupy: 1 bank, then 3 banks each.
  CHECK(s["compression_ratio"]["non_divergent"].get<double>() == Approx(128.0 / 4.0));
  CHECK(s["compression_ratio"]["divergent_if_compressed"].get<double>() == Approx(256.0 / 70.0));
  CHECK(s["compression_ratio_banks"]["non_divergent"].get<double>() == Approx(128.0 / 16.0));
  CHECK(s["compression_ratio_banks"]["divergent_if_compressed"].get<double>() ==
        Approx(256.0 / 96.0));
  // Figure 2's bins over the 31 successive-lane pairs of each register written: 31 zero
  // pairs (ramp(7, 0)); the divergent writes leave 7 | 116..131 (15 zero pairs, then 16
  // pairs within 128: 116 - 7 = 109 at the seam) and 200..215 | 116..131 (31 within 128).
  CHECK(s["similarity"]["non_divergent"]["zero"] == 31);
  CHECK(s["similarity"]["divergent"]["zero"] == 15);
  CHECK(s["similarity"]["divergent"]["le_128"] == 47);
}

// The crossbar hands reads and writes to the stage at a cycle (DirectTransport::serve):
// the compressed write, the dummy MOV and the decompressed read take the cycles they take
// through the socket (the dummy-MOV test above).
TEST_CASE("wc stage: served at a cycle as through its socket", "[bdi][wc][module]") {
  WcBench bench({"wc.bank_gating=false"});
  StubInitiator& init = bench.init;
  const DirectTransport direct = bench.wc.direct();
  REQUIRE(direct.serve != nullptr);
  uint64_t ready = 0;
  Driver driver("driver", [&] {
    CHECK_FALSE(init.serve(direct, RfAccessKind::Wake, 0, 0, ready));
    CHECK_FALSE(init.serve(direct, RfAccessKind::Read, 2048, 0, ready));  // transport refuses
    init.buffer = ramp(7, 0);                                             // <4,0>: one slice
    REQUIRE(init.serve(direct, RfAccessKind::Write, 0, 0, ready));
    CHECK(ready == 3);
    CHECK(bench.wc.state().indicator(0) == 1);
    init.buffer = ramp(100, 1);
    REQUIRE(init.serve(direct, RfAccessKind::Write, 0, 10, ready, 0xffff0000u));
    CHECK(ready == 14);  // after the dummy MOV
    CHECK(bench.wc.counters().dummy_movs == 1);
    init.buffer = WarpRegister{};
    REQUIRE(init.serve(direct, RfAccessKind::Read, 0, 20, ready));
    CHECK(ready == 21);
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.last_length == 128);
    for (unsigned i = 0; i < kWarpSize; ++i) CHECK(init.buffer.lane[i] == (i < 16 ? 7 : 100 + i));
  });
  sc_core::sc_start();
  CHECK(bench.rf.core().counters().reads == 2);
  CHECK(bench.rf.core().counters().writes == 3);
  CHECK(bench.wc.decompressor().stats(30)["events"]["decompressions"] == 1);
}

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

TEST_CASE("wc stage: bad payloads get TLM error responses and never reach the banks",
          "[bdi][wc][module][errors]") {
  StubTargetBench bench;
  Driver driver("driver", [&] {
    sc_time delay = sc_core::SC_ZERO_TIME;
    // No RfAccess extension.
    tlm::tlm_generic_payload bare;
    WarpRegister data;
    bare.set_data_ptr(data.bytes());
    bare.set_data_length(kWarpRegisterBytes);
    bare.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bench.init.socket->b_transport(bare, delay);
    CHECK(bare.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    // A register past the register file's 1024.
    bench.init.access(RfAccessKind::Write, 0, kFullMask, 0, 1024);
    CHECK(bench.init.last_response == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    bench.init.access(RfAccessKind::Read, 0, kFullMask, 0, 5000);
    CHECK(bench.init.last_response == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // A write of less than one warp register.
    tlm::tlm_generic_payload& p = bench.init.txn.prepare(RfAccessKind::Write, &bench.init.buffer);
    bench.init.txn.access().phys_reg = 3;
    p.set_data_length(64);
    bench.init.socket->b_transport(p, delay);
    CHECK(p.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(delay == sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(bench.banks.seen.empty());
  CHECK(bench.wc.counters().writes == 0);
}

TEST_CASE("wc stage: state is kept by physical register, and Launch and Retire are physical ranges",
          "[bdi][wc][module][composition]") {
  // A translation stage before wc names registers as it likes: here warp 3's R5 lives in
  // physical register 2 and warp 1's R5 in physical register 9, and it launches and
  // retires single registers.
  StubTargetBench bench(std::vector<std::string>{});
  StubInitiator& init = bench.init;
  StubTarget& banks = bench.banks;
  const WarpRegister a = ramp(40, 1), b = ramp(7, 0);
  Driver driver("driver", [&] {
    init.range(RfAccessKind::Launch, 2, 1);
    init.range(RfAccessKind::Launch, 9, 1);
    init.buffer = a;
    init.access(RfAccessKind::Write, 5, kFullMask, 3, 2);
    init.buffer = b;
    init.access(RfAccessKind::Write, 5, kFullMask, 1, 9);
    CHECK(bench.wc.state().indicator(2) == 2);  // <4,1>
    CHECK(bench.wc.state().indicator(9) == 1);  // <4,0>
    // Bank of (warp 3, R5) under rf.bank_mapping=gpgpusim: (5 + 3) mod 4 = 0.
    CHECK(bench.wc.state().valid_slices(2) == 0x7);
    CHECK(bench.wc.state().awake_at(0, 0x7) == 10);
    // Retiring physical register 9 leaves physical register 2 as it is.
    init.wait_until(30);
    init.range(RfAccessKind::Retire, 9, 1);
    CHECK(bench.wc.state().indicator(9) == 0);
    CHECK(bench.wc.state().valid_slices(9) == 0);
    CHECK(bench.wc.state().indicator(2) == 2);
    banks.stored = banks.seen[2].data;  // the banks hold register 2's image
    init.buffer = WarpRegister{};
    init.access(RfAccessKind::Read, 5, kFullMask, 3, 2);
    CHECK(init.buffer == a);
    // Every range kind went on downstream unchanged.
    REQUIRE(banks.seen.size() == 6);
    CHECK(banks.seen[0].kind == RfAccessKind::Launch);
    CHECK(banks.seen[0].phys_reg == 2);
    CHECK(banks.seen[4].kind == RfAccessKind::Retire);
    CHECK(banks.seen[4].phys_reg == 9);
    CHECK(banks.seen[4].regs_per_warp == 1);
  });
  sc_core::sc_start();
  // Two registers allocated from cycle 0, one compressed until 30 (9) and one throughout.
  const nlohmann::json s = bench.wc.stats(60);
  CHECK(s["compressed_register_share"].get<double>() == Approx((30.0 + 60.0) / (60.0 + 30.0)));
}

TEST_CASE("wc stage: every statistic it and its blocks report is declared",
          "[bdi][wc][module][stats]") {
  WcBench bench({});
  Driver driver("driver", [&] {
    bench.init.buffer = ramp(1, 1);
    bench.init.access(RfAccessKind::Write, 1);
    bench.init.access(RfAccessKind::Read, 1);
  });
  sc_core::sc_start();
  for (ReportingBlock* block :
       std::vector<ReportingBlock*>{&bench.wc, &bench.wc.compressor(), &bench.wc.decompressor()}) {
    INFO(block->block_name());
    REQUIRE(block->statistics() != nullptr);
    CHECK(block->statistics()->block() == block->block_name());
    CHECK(undeclared_keys(block->stats(10), *block->statistics()).empty());
  }
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

TEST_CASE("wc stage: range-indicator accesses cost rule S3 of the table's coefficient",
          "[bdi][wc][module][energy]") {
  SECTION("wc45, 2-bit indicators of 1024 registers: the table's own array") {
    StubTargetBench bench;
    const nlohmann::json e = bench.wc.describe()["energy"]["events"];
    CHECK(e[0]["name"] == "indicator_reads");
    CHECK(e[0]["pj_per_event"].get<double>() == Approx(7.0 * 0.25 / 16 * 0.25).epsilon(1e-5));
  }
  SECTION("fermi40, original BDI's 4-bit indicators: twice the bits, sqrt(2) x the array") {
    StubTargetBench bench({"wc.variant=original", "power.tech=fermi40"});
    const nlohmann::json e = bench.wc.describe()["energy"]["events"];
    CHECK(e[1]["name"] == "indicator_writes");
    CHECK(e[1]["pj_per_event"].get<double>() ==
          Approx(0.0182812 * 2 * std::sqrt(2.0)).epsilon(1e-5));
  }
}

TEST_CASE("wc stage: a technology without the range-indicator coefficient is an error naming it",
          "[bdi][wc][module][energy]") {
  // wc45 without range_indicator_access, in a folder of its own ($WARPREG_TECH).
  Scratch dir;
  nlohmann::json table = nlohmann::json::parse(slurp(WARPREG_SOURCE_DIR "/power/tech/wc45.json"));
  table["values"].erase("range_indicator_access");
  std::ofstream(dir / "wc45.json") << table.dump(1);
  ::setenv("WARPREG_TECH", dir.path().c_str(), 1);
  CHECK_THROWS_WITH(StubTargetBench(),
                    Catch::Contains("wc needs the coefficient \"range_indicator_access\""));
}

TEST_CASE("wc stage: the similarity bins agree with 64-bit distances, at every edge",
          "[bdi][wc][core]") {
  // The reference: |lane i - lane i-1| of the lanes as signed 32-bit values, in 64 bits.
  const auto reference = [](const WarpRegister& r) {
    std::array<uint32_t, 4> bins{};
    for (unsigned i = 1; i < kWarpSize; ++i) {
      const int64_t d = std::llabs(int64_t(int32_t(r.lane[i])) - int64_t(int32_t(r.lane[i - 1])));
      ++bins[d == 0 ? 0 : d <= 128 ? 1 : d <= 32768 ? 2 : 3];
    }
    return bins;
  };
  static const int64_t edges[] = {0,
                                  1,
                                  -1,
                                  127,
                                  -127,
                                  128,
                                  -128,
                                  129,
                                  -129,
                                  32767,
                                  -32768,
                                  32768,
                                  -32769,
                                  32769,
                                  65536,
                                  0x7fffffff,
                                  -0x7fffffffll - 1,
                                  0xffffffffll};
  static const uint32_t bases[] = {0u,          1u,          0x7fffffffu, 0x80000000u,
                                   0xffffffffu, 0x7fffff80u, 0x80000080u};
  uint64_t s = 0x51;
  const auto next = [&s] {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (int n = 0; n < 100000; ++n) {
    WarpRegister r;
    uint32_t v = bases[next() % 7];
    for (unsigned i = 0; i < kWarpSize; ++i) {
      const uint64_t x = next();
      if (x % 4 == 0)
        v = static_cast<uint32_t>(x >> 32);  // anything
      else
        v += static_cast<uint32_t>(edges[(x >> 8) % 18]);  // a step at a threshold
      r.lane[i] = (x % 16 == 1) ? bases[(x >> 16) % 7] : v;
    }
    INFO("register " << n);
    REQUIRE(WcStage::similarity_bins(r) == reference(r));
  }
}

// Warped-Compression's compressor and decompressor blocks bound to a stub initiator:
// the image and register they return, the annotated delay (latency and queueing for a
// unit), error responses, statistics and energy.
#include <catch2/catch.hpp>

#include "modules/bdi/bdi_compressor.h"
#include "modules/bdi/bdi_decompressor.h"
#include "testbenches/bdi/wc_bench.h"

using namespace warpreg;
using namespace warpreg::testing;
using sc_core::sc_time;

namespace {

/// Sends codec transactions to one unit pool.
struct CodecInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<CodecInitiator> socket{"socket"};
  CycleClock clock;
  BdiTransaction txn;
  WarpRegister buffer;
  bdi::Encoding encoding;
  tlm::tlm_response_status last_response = tlm::TLM_INCOMPLETE_RESPONSE;

  CodecInitiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {}

  /// `buffer` through the unit now (+ `after` cycles of annotated delay); returns the
  /// cycles the annotated delay says the result is ready in.
  uint64_t send(bdi::Encoding image = bdi::kUncompressed, uint64_t after = 0) {
    tlm::tlm_generic_payload& p = txn.prepare(buffer, image);
    sc_time delay = clock.cycles(after);
    socket->b_transport(p, delay);
    last_response = p.get_response_status();
    encoding = txn.encoding();
    return clock.cycle_of(delay);
  }
  void wait_until(uint64_t cycle) { sc_core::wait(clock.cycles(cycle) - sc_core::sc_time_stamp()); }
};

template <class Unit>
struct UnitBench {
  WcContext setup;
  Unit unit;
  CodecInitiator init;
  explicit UnitBench(const std::vector<std::string>& sets)
      : setup(sets), unit("bdi_unit", setup.context()), init("init", setup.context().clock) {
    init.socket.bind(unit.target);
  }
};

}  // namespace

TEST_CASE("bdi compressor: returns the image and its encoding after its latency",
          "[bdi][units][module]") {
  UnitBench<BdiCompressor> bench({});
  CodecInitiator& init = bench.init;
  Driver driver("driver", [&] {
    init.wait_until(4);
    init.buffer = ramp(0x500, 2);
    CHECK(init.send() == 2);  // wc.compress_latency
    CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
    CHECK(init.encoding == bdi::Encoding{4, 1});
    CHECK(init.buffer.lane[0] == 0x500);
    CHECK(init.buffer.lane[1] == 0x08060402u);  // deltas 2, 4, 6, 8
    for (unsigned lane = 9; lane < kWarpSize; ++lane) CHECK(init.buffer.lane[lane] == 0);
    // An incompressible register is its own image.
    WarpRegister random;
    for (unsigned i = 0; i < kWarpSize; ++i) random.lane[i] = 0x9e3779b9u * (i + 1);
    init.buffer = random;
    CHECK(init.send() == 2);
    CHECK(init.encoding == bdi::kUncompressed);
    CHECK(init.buffer == random);
    CHECK(sc_core::sc_time_stamp() == bench.setup.context().clock.cycles(4));
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.unit.stats(10);
  CHECK(s["events"]["compressions"] == 2);
  CHECK(s["activations"] == 2);
  CHECK(s["contended"] == 0);  // two units, one operation each in cycle 4
  // wc45: 23 pJ per compression, 0.12 mW per unit.
  CHECK(s["dynamic_pj"].get<double>() == Approx(2 * 23.0));
  CHECK(s["leakage_pj"].get<double>() ==
        Approx(10 * 2 * 0.12 * bench.setup.context().clock.ns_per_cycle()));
  CHECK(undeclared_keys(s, *bench.unit.statistics()).empty());
  CHECK(bench.unit.block_name() == "bdi_unit");
}

TEST_CASE("bdi compressor: operations queue for busy units", "[bdi][units][module]") {
  UnitBench<BdiCompressor> bench(
      {"wc.compressors=1", "wc.compress_latency=3", "wc.unit_energy_scale=2"});
  CodecInitiator& init = bench.init;
  Driver driver("driver", [&] {
    // One pipelined unit: one register per cycle. Three in cycle 0, one at cycle 5.
    init.buffer = ramp(1, 0);
    CHECK(init.send() == 3);
    init.buffer = ramp(1, 0);
    CHECK(init.send() == 4);
    init.buffer = ramp(1, 0);
    CHECK(init.send() == 5);
    init.buffer = ramp(1, 0);
    CHECK(init.send(bdi::kUncompressed, 5) == 8);
  });
  sc_core::sc_start();
  const nlohmann::json s = bench.unit.stats(10);
  CHECK(s["contended"] == 2);
  CHECK(s["wait_cycles"] == 1 + 2);
  CHECK(s["units"] == 1);
  CHECK(s["dynamic_pj"].get<double>() == Approx(4 * 23.0 * 2));  // wc.unit_energy_scale
  const nlohmann::json d = bench.unit.describe();
  CHECK(d["latency_cycles"]["operation"] == 3);
  CHECK(d["organisation"]["variant"] == "warped");
  CHECK(d["organisation"]["choices"] == nlohmann::json({"<4,0>", "<4,1>", "<4,2>"}));
}

TEST_CASE("bdi decompressor: restores the register from any encoding's image",
          "[bdi][units][module]") {
  UnitBench<BdiDecompressor> bench({});
  CodecInitiator& init = bench.init;
  const bdi::Codec original(bdi::Variant::Original);
  Driver driver("driver", [&] {
    for (const WarpRegister& value : {ramp(0x7ffffff0u, 1), ramp(9, 0), ramp(0x10000, 300)}) {
      const bdi::Compressed c = original.compress(value);
      INFO(c.encoding.name());
      init.buffer = bdi::image_as_register(c);
      CHECK(init.send(c.encoding) == 1);  // wc.decompress_latency
      CHECK(init.last_response == tlm::TLM_OK_RESPONSE);
      CHECK(init.buffer == value);
    }
  });
  sc_core::sc_start();
  CHECK(bench.unit.stats(5)["events"]["decompressions"] == 3);
  CHECK(bench.unit.stats(5)["units"] == 4);
}

TEST_CASE("bdi units: bad transactions get error responses and leave everything untouched",
          "[bdi][units][module][errors]") {
  UnitBench<BdiDecompressor> bench({});
  CodecInitiator& init = bench.init;
  Driver driver("driver", [&] {
    sc_time delay = sc_core::SC_ZERO_TIME;
    // No BdiImage extension.
    tlm::tlm_generic_payload bare;
    bare.set_data_ptr(init.buffer.bytes());
    bare.set_data_length(kWarpRegisterBytes);
    init.socket->b_transport(bare, delay);
    CHECK(bare.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    // Not one warp register.
    tlm::tlm_generic_payload& p = init.txn.prepare(init.buffer, bdi::Encoding{4, 1});
    p.set_data_length(48);
    init.socket->b_transport(p, delay);
    CHECK(p.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
    // An encoding BDI does not have.
    init.buffer = ramp(3, 3);
    init.send(bdi::Encoding{3, 1});
    CHECK(init.last_response == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(init.buffer == ramp(3, 3));
    CHECK(delay == sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(bench.unit.units().activations() == 0);
}

TEST_CASE("bdi units: a technology without their coefficients is an error naming the block",
          "[bdi][units][module][energy]") {
  // rfv40 (seed 000) has no compressor.
  CHECK_THROWS_WITH(UnitBench<BdiCompressor>({"power.tech=rfv40"}),
                    Catch::Contains("bdi_unit") && Catch::Contains("compressor_activation"));
}

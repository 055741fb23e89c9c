// The register file built with a technology a design states (RegFileTechnology): more
// banks of the same capacity, a scaled latency in the annotated delay, and energy and
// leakage multiplied; two designs that state one are refused.
#include <tlm_utils/simple_initiator_socket.h>

#include <catch2/catch.hpp>
#include <systemc>

#include "common/params.h"
#include "designs/design_registry.h"
#include "modules/interfaces/rf_access.h"
#include "modules/regfile/regfile_module.h"
#include "testbenches/support/thread_driver.h"

using namespace warpreg;
using sc_core::sc_time;

namespace {

RegFileTechnology slow_dense() {
  RegFileTechnology t;
  t.stated_by = "a test";
  t.bank_multiplier = 8;
  t.latency_multiplier = 6.3;
  t.access_energy_multiplier = 0.65;
  t.leakage_multiplier = 0.65 / 8;
  return t;
}

struct Reader : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Reader> socket{"socket"};
  RfTransaction txn;
  WarpRegister buffer;
  explicit Reader(sc_core::sc_module_name name) : sc_module(name) {}
  tlm::tlm_generic_payload& read(uint32_t phys) {
    tlm::tlm_generic_payload& p = txn.prepare(RfAccessKind::Read, &buffer);
    txn.access().phys_reg = phys;
    txn.access().arch_reg = static_cast<uint16_t>(phys);
    return p;
  }
};

}  // namespace

TEST_CASE("register file technology: banks, latency and energy as the design states them",
          "[regfile][module]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock{params.real("sim.clock_mhz")};
  RegisterFileModule plain("plain", params, tech, clock);
  RegisterFileModule rf("rf", params, tech, clock, slow_dense());
  Reader reader("reader"), unused("unused");
  reader.socket.bind(rf.socket);
  unused.socket.bind(plain.socket);

  const RegFileConfig& c = rf.core().config();
  CHECK(c.banks == 16 * 8);
  CHECK(c.physical_registers() == plain.core().config().physical_registers());
  CHECK(c.read_latency == 6);  // round(6.3 x rf.read_latency = 1)
  CHECK(c.write_latency == 6);

  uint64_t cycles = 0;
  warpreg::testing::ThreadDriver driver("driver", [&] {
    sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload& p = reader.read(5);
    reader.socket->b_transport(p, delay);
    CHECK(p.get_response_status() == tlm::TLM_OK_RESPONSE);
    cycles = clock.cycle_of(delay);
  });
  sc_core::sc_start();
  CHECK(cycles == 6);

  const nlohmann::json e = rf.describe()["energy"];
  const nlohmann::json base = plain.describe()["energy"];
  // One 128 B slice per access: Table 2's power multiplier on the access energy.
  CHECK(e["events"][0]["pj_per_event"].get<double>() ==
        Approx(base["events"][0]["pj_per_event"].get<double>() * 0.65));
  // Banks 8x smaller: per bank 1/8 of the leakage, times 0.65 / 8 per byte.
  CHECK(e["residency"][0]["mw_per_unit"]["on"].get<double>() ==
        Approx(base["residency"][0]["mw_per_unit"]["on"].get<double>() / 8 * 0.65 / 8));
  CHECK(rf.describe()["technology"]["stated_by"] == "a test");
  CHECK_FALSE(plain.describe().contains("technology"));
  CHECK(rf.stats(10)["technology"] == "a test");
}

TEST_CASE("register file technology: a base latency replaces rf.*, a bad split names the design",
          "[regfile][module]") {
  const Params params;
  RegFileTechnology t = slow_dense();
  t.base_latency = 2;
  t.latency_multiplier = 1.5;
  CHECK(RegisterFileModule::config_from(params, t).read_latency == 3);
  t.bank_multiplier = 3;  // 1024 warp registers do not split into 48 banks
  CHECK_THROWS_WITH(RegisterFileModule::config_from(params, t),
                    Catch::Contains("rf.banks x 3 for a test"));
}

TEST_CASE("register file technology: two designs that state one are refused", "[regfile][design]") {
  DesignSpec a, b;
  a.name = "a";
  b.name = "b";
  a.regfile_technology = b.regfile_technology = [](const Params&) { return slow_dense(); };
  const Params params;
  CHECK(regfile_technology_of({&a}, params).bank_multiplier == 8);
  CHECK_FALSE(regfile_technology_of({}, params).stated());
  CHECK_THROWS_WITH(regfile_technology_of({&a, &b}, params),
                    Catch::Contains("designs 'a' and 'b' cannot be combined"));
}

// Rule S3 (docs/power.md): a bank is built of sub-arrays as wide as the table's reference
// access (fermi40: seed 000's 16-byte sub-bank of 4 KB), and an access costs the table's
// energy x the bytes moved x sqrt(sub-array bytes / 4096).
TEST_CASE("register file: access energy scales with the square root of the sub-array's size",
          "[regfile][module][power]") {
  const power::TechTable tech = power::TechTable::load("fermi40");
  const CycleClock clock{1400.0};
  const auto read_pj = [](const RegisterFileModule& rf) {
    return rf.describe()["energy"]["events"][0]["pj_per_event"].get<double>();
  };
  // 4 banks of 256 entries: 16-byte sub-arrays of 4 KB, seed 000's own; 8 per 128 B access.
  RegisterFileModule paper("paper", Params::load("baseline", {"rf.banks=4"}), tech, clock);
  CHECK(read_pj(paper) == Approx(8 * 4.68));
  // Half the capacity (RFV's 64 KB point): sub-arrays of 2 KB, x sqrt(1/2).
  RegisterFileModule half("half", Params::load("baseline", {"rf.banks=4", "sm.registers=16384"}),
                          tech, clock);
  CHECK(read_pj(half) == Approx(8 * 4.68 * std::sqrt(0.5)));
  // The baseline's 16 banks of 64 entries: 1 KB sub-arrays, half the reference's energy.
  RegisterFileModule baseline("baseline", Params::load("baseline", {}), tech, clock);
  CHECK(read_pj(baseline) == Approx(8 * 4.68 * 0.5));
  // 16-byte lane slices of the same 4 KB sub-arrays: one sub-array per slice.
  RegisterFileModule sliced("sliced", Params::load("baseline", {"rf.banks=4", "rf.lane_slices=8"}),
                            tech, clock);
  CHECK(read_pj(sliced) == Approx(4.68));
}

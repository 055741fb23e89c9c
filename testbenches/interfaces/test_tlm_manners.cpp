// TLM-2.0 base-protocol manners of every block with a target socket: a payload the block
// cannot serve (no extension, a command that does not match the access, data that is not
// one warp register, byte enables) gets the error response the standard names, one
// warning naming the block, and goes no further down the path; the payload's attributes
// a target must not touch (command, address, data pointer, length) stay as they were, and
// the annotated delay never goes backwards (the checks of a tlm2_base_protocol_checker).
// The memory blocks' refusals are in testbenches/memory/test_memory_modules.cpp.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/params.h"
#include "designs/ltrf/ltrf_stage.h"
#include "designs/regmutex/regmutex_stage.h"
#include "designs/rfv/rfv_stage.h"
#include "designs/wc/wc_stage.h"
#include "modules/bdi/bdi_compressor.h"
#include "modules/bdi/bdi_decompressor.h"
#include "modules/interfaces/rf_access.h"
#include "modules/interfaces/tlm_refusal.h"
#include "modules/memory/l1_cache.h"
#include "modules/operand_path/crossbar.h"
#include "modules/regfile/regfile_module.h"
#include "modules/wrf/coma_module.h"
#include "modules/wrf/tric_module.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

/// Sends payloads and checks what a base-protocol checker checks of every answer.
struct Prober : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Prober> socket{"socket"};
  WarpRegister buffer;
  RfTransaction txn;

  explicit Prober(sc_core::sc_module_name name) : sc_module(name) {
    // Refusals are warnings; the test reads the last one instead of stderr.
    sc_core::sc_report_handler::set_actions(kRefusedPayload, sc_core::SC_CACHE_REPORT);
  }

  /// The response to `p`, after checking the target left the attributes it must not touch.
  tlm::tlm_response_status send(tlm::tlm_generic_payload& p) {
    const tlm::tlm_command command = p.get_command();
    const uint64_t address = p.get_address();
    unsigned char* data = p.get_data_ptr();
    const unsigned length = p.get_data_length();
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const sc_core::sc_time before = sc_core::sc_time(3, sc_core::SC_NS);
    sc_core::sc_time delay = before;
    socket->b_transport(p, delay);
    CHECK(p.get_command() == command);
    CHECK(p.get_address() == address);
    CHECK(p.get_data_ptr() == data);
    CHECK(p.get_data_length() == length);
    CHECK(delay >= before);
    CHECK(p.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE);
    return p.get_response_status();
  }

  /// A plain generic payload, as any TLM initiator would send: a 128-byte read.
  tlm::tlm_response_status bare() {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_data_ptr(buffer.bytes());
    p.set_data_length(kWarpRegisterBytes);
    p.set_streaming_width(kWarpRegisterBytes);
    return send(p);
  }

  tlm::tlm_generic_payload& access(RfAccessKind kind) {
    const bool data = kind == RfAccessKind::Read || kind == RfAccessKind::Write;
    tlm::tlm_generic_payload& p = txn.prepare(kind, data ? &buffer : nullptr);
    txn.access().warp_slot = 0;
    txn.access().arch_reg = 1;
    txn.access().phys_reg = 1;
    txn.access().collector = 0;
    return p;
  }
};

/// Counts what reaches it; serves everything.
struct Sink : sc_core::sc_module {
  tlm_utils::simple_target_socket<Sink> socket{"socket"};
  unsigned seen = 0;
  explicit Sink(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &Sink::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    ++seen;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

/// The last refusal's warning.
std::string last_refusal() {
  const sc_core::sc_report* report = sc_core::sc_report_handler::get_cached_report();
  return report != nullptr ? report->get_msg() : std::string();
}

/// Every malformed operand-path payload, each refused with its status by `block` (its
/// full name) and never passed to `sink` (when the block has one).
void check_rf_refusals(Prober& prober, const std::string& block, const Sink* sink) {
  const int warnings = sc_core::sc_report_handler::get_count(kRefusedPayload);
  int refused = 0;
  const auto expect = [&](tlm::tlm_response_status got, tlm::tlm_response_status want,
                          const char* what, const char* fault) {
    INFO(block << ": " << what);
    CHECK(got == want);
    ++refused;
    CHECK(sc_core::sc_report_handler::get_count(kRefusedPayload) == warnings + refused);
    const std::string message = last_refusal();
    CHECK(message.rfind(block + " refused a ", 0) == 0);
    CHECK(message.find(fault) != std::string::npos);
  };

  expect(prober.bare(), tlm::TLM_GENERIC_ERROR_RESPONSE, "no RfAccess extension",
         "no RfAccess extension");

  tlm::tlm_generic_payload& read_as_write = prober.access(RfAccessKind::Read);
  read_as_write.set_command(tlm::TLM_WRITE_COMMAND);
  expect(prober.send(read_as_write), tlm::TLM_COMMAND_ERROR_RESPONSE,
         "a read with the write command", "expected a read command");

  tlm::tlm_generic_payload& release_as_read = prober.access(RfAccessKind::Release);
  release_as_read.set_command(tlm::TLM_READ_COMMAND);
  expect(prober.send(release_as_read), tlm::TLM_COMMAND_ERROR_RESPONSE,
         "a release with the read command", "release access carries the ignore command");

  tlm::tlm_generic_payload& short_read = prober.access(RfAccessKind::Read);
  short_read.set_data_length(64);
  expect(prober.send(short_read), tlm::TLM_BURST_ERROR_RESPONSE, "a read of 64 bytes",
         "data of 64 bytes, expected 128");

  tlm::tlm_generic_payload& no_data = prober.access(RfAccessKind::Write);
  no_data.set_data_ptr(nullptr);
  expect(prober.send(no_data), tlm::TLM_BURST_ERROR_RESPONSE, "a write without data",
         "no data pointer");

  tlm::tlm_generic_payload& narrow = prober.access(RfAccessKind::Read);
  narrow.set_streaming_width(4);
  expect(prober.send(narrow), tlm::TLM_BURST_ERROR_RESPONSE, "a streaming width of 4 bytes",
         "streaming width 4");

  unsigned char enables[kWarpRegisterBytes] = {};
  tlm::tlm_generic_payload& masked = prober.access(RfAccessKind::Write);
  masked.set_byte_enable_ptr(enables);
  masked.set_byte_enable_length(kWarpRegisterBytes);
  expect(prober.send(masked), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "a write with byte enables",
         "byte enables are not supported");
  masked.set_byte_enable_ptr(nullptr);

  if (sink != nullptr) CHECK(sink->seen == 0);
}

/// A design's view of `preset` on `workload`, without the platform.
struct Context {
  Params params;
  std::unique_ptr<Workload> workload;
  DesignBench bench;
  Context(const std::string& preset, const std::string& workload_name,
          const std::vector<std::string>& sets = {})
      : params(Params::load(preset, sets)),
        workload(open_workload(workload_name, params)),
        bench(params, *workload) {}
  const DesignContext& context() const { return bench.context(); }
};

/// Prober -> Stage -> Sink, the stage built from `args`.
template <class Stage>
struct StageBench {
  Prober prober{"prober"};
  Stage stage;
  Sink sink{"sink"};
  template <class... Args>
  explicit StageBench(Args&&... args) : stage(std::forward<Args>(args)...) {
    prober.socket.bind(stage.target);
    stage.initiator.bind(sink.socket);
  }
  void check() {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    check_rf_refusals(prober, stage.name(), &sink);
  }
};

}  // namespace

TEST_CASE("tlm manners: the register file refuses malformed payloads", "[tlm][regfile]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  const CycleClock clock(params.real("sim.clock_mhz"));
  RegisterFileModule rf("rf", params, tech, clock);
  Prober prober("prober");
  prober.socket.bind(rf.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  check_rf_refusals(prober, "rf", nullptr);
  // A well-formed access beyond the file is an address error, also reported.
  tlm::tlm_generic_payload& beyond = prober.access(RfAccessKind::Read);
  prober.txn.access().phys_reg = 1u << 30;
  CHECK(prober.send(beyond) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(last_refusal().find("physical register 1073741824 beyond") != std::string::npos);
  // And a good one still works after every refusal.
  CHECK(prober.send(prober.access(RfAccessKind::Write)) == tlm::TLM_OK_RESPONSE);
  CHECK(prober.send(prober.access(RfAccessKind::Read)) == tlm::TLM_OK_RESPONSE);
}

TEST_CASE("tlm manners: the crossbar refuses malformed payloads", "[tlm][crossbar]") {
  const Params params;
  const power::TechTable tech = power::TechTable::load(params.text("power.tech"));
  StageBench<Crossbar> bench("crossbar", params, tech, 1.0);
  bench.check();
  CHECK(bench.prober.send(bench.prober.access(RfAccessKind::Read)) == tlm::TLM_OK_RESPONSE);
  CHECK(bench.sink.seen == 1);
}

TEST_CASE("tlm manners: tric refuses malformed payloads", "[tlm][tric]") {
  const Context setup("wrf", "synthetic");
  StageBench<TricModule> bench("tric", setup.context());
  bench.check();
}

TEST_CASE("tlm manners: coma refuses malformed payloads", "[tlm][coma]") {
  const Context setup("wrf", "synthetic");
  StageBench<ComaModule> bench("coma", setup.context());
  bench.check();
}

TEST_CASE(
    "tlm manners: the rfv stage (renaming table, release flag cache) refuses malformed "
    "payloads",
    "[tlm][rfv]") {
  const Context setup("rfv", "rfv-hotspot", {"profile.ctas=2"});
  StageBench<RfvStage> bench("rfv", setup.context());
  bench.check();
}

TEST_CASE("tlm manners: the wc stage refuses malformed payloads", "[tlm][wc]") {
  const Context setup("wc", "synthetic", {"wc.bank_gating=false"});
  StageBench<WcStage> bench("wc", setup.context());
  bench.check();
}

TEST_CASE("tlm manners: the regmutex stage (srp allocator) refuses malformed payloads",
          "[tlm][regmutex]") {
  const Context setup("regmutex", "regmutex-bfs", {"profile.ctas=6"});
  StageBench<RegMutexStage> bench("regmutex", setup.context());
  bench.check();
}

TEST_CASE(
    "tlm manners: the ltrf stage (address allocation unit, register file cache) refuses "
    "malformed payloads",
    "[tlm][ltrf]") {
  LtrfConfig config;
  config.main_rf_config = 7;
  config.core.mode = LtrfMode::Ltrf;
  config.core.max_warps = 2;
  config.core.regs_per_warp = 8;
  config.allocation.max_warps = 2;
  RegisterSet interval;
  interval.set(1);
  const power::TechTable tech = power::TechTable::load("wc45");
  const CycleClock clock(1000.0);
  StageBench<LtrfStage> bench("ltrf", config, clock, tech, LtrfProgram({interval}, {{0x10, 0}}));
  bench.check();
}

TEST_CASE("tlm manners: the bdi compressor and decompressor refuse malformed payloads",
          "[tlm][bdi]") {
  const Context setup("wc", "synthetic");
  BdiCompressor compressor("compressor", setup.context());
  BdiDecompressor decompressor("decompressor", setup.context());
  Prober to_compressor("to_compressor"), to_decompressor("to_decompressor");
  to_compressor.socket.bind(compressor.target);
  to_decompressor.socket.bind(decompressor.target);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  for (Prober* prober : {&to_compressor, &to_decompressor}) {
    const std::string block = prober == &to_compressor ? "compressor" : "decompressor";
    INFO(block);
    CHECK(prober->bare() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(last_refusal() == block +
                                " refused a read payload: no BdiImage extension "
                                "(TLM_GENERIC_ERROR_RESPONSE)");
    BdiTransaction txn;
    tlm::tlm_generic_payload& read = txn.prepare(prober->buffer);
    read.set_command(tlm::TLM_READ_COMMAND);
    CHECK(prober->send(read) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(last_refusal().find("expected a write command") != std::string::npos);
    tlm::tlm_generic_payload& short_image = txn.prepare(prober->buffer);
    short_image.set_data_length(16);
    CHECK(prober->send(short_image) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(last_refusal().find("data of 16 bytes, expected 128") != std::string::npos);
    CHECK(prober->send(txn.prepare(prober->buffer)) == tlm::TLM_OK_RESPONSE);
  }
}

TEST_CASE("tlm manners: a memory block's refusal names it", "[tlm][memory]") {
  memory::L1Cache l1("l1");
  Prober prober("prober");
  Sink below("below");
  prober.socket.bind(l1.cpu_side);
  l1.mem_side.bind(below.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK(prober.bare() == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(last_refusal() ==
        "l1 refused a read payload: no MemRequest extension (modules/memory/mem_request.h) "
        "(TLM_GENERIC_ERROR_RESPONSE)");
  CHECK(below.seen == 0);
}

// A standalone testbench of one warpreg block: the BDI compressor pool of
// Warped-Compression (wc.compressors units of wc.compress_latency cycles) behind its TLM
// target socket, driven by this file's initiator with the codec protocol of
// modules/bdi/bdi_unit_pool.h (a 128-byte write whose buffer comes back as the image,
// the encoding in the BdiImage extension). It checks the image, the encoding, the
// annotated delay and the queueing when more registers arrive than units, and that a
// plain payload is refused. Exit status 0 when every check holds.
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdio>
#include <systemc>

#include "common/params.h"
#include "modules/bdi/bdi_compressor.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

using namespace warpreg;

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  const CycleClock& clock;
  BdiTransaction txn;
  WarpRegister buffer;

  SC_HAS_PROCESS(Initiator);
  Initiator(sc_core::sc_module_name name, const CycleClock& c) : sc_module(name), clock(c) {
    SC_THREAD(run);
  }

  /// Compresses `buffer` now; the cycles until its image is ready.
  uint64_t compress() {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(txn.prepare(buffer), delay);
    return clock.cycle_of(delay);
  }

  void run() {
    wait(clock.cycles(10));
    // 32 addresses 4 bytes apart: base 0x1000 and one-byte deltas, <4,1>.
    for (unsigned lane = 0; lane < kWarpSize; ++lane) buffer.lane[lane] = 0x1000 + 4 * lane;
    const uint64_t latency = compress();
    check(txn.payload().is_response_ok(), "the compressor accepts a 128-byte write");
    check(txn.encoding() == bdi::Encoding{4, 1}, "addresses 4 bytes apart compress as <4,1>");
    check(buffer.lane[0] == 0x1000 && buffer.lane[1] == 0x100c0804u,
          "the image is the base, then one-byte deltas 4, 8, 12, 16 ...");
    check(latency == 2, "the image is ready after wc.compress_latency = 2 cycles");

    // Next cycle, three registers at once on two units: the third waits one cycle.
    wait(clock.cycles(1));
    uint64_t ready[3];
    for (uint64_t& r : ready) {
      for (unsigned lane = 0; lane < kWarpSize; ++lane) buffer.lane[lane] = 7;
      r = compress();
    }
    check(ready[0] == 2 && ready[1] == 2 && ready[2] == 3,
          "two pipelined units: the third register in a cycle is ready one cycle later");
    check(txn.encoding() == bdi::Encoding{4, 0}, "a register of equal lanes is <4,0>");

    // A plain payload without the BdiImage extension gets an error response.
    tlm::tlm_generic_payload plain;
    plain.set_command(tlm::TLM_WRITE_COMMAND);
    plain.set_data_ptr(buffer.bytes());
    plain.set_data_length(kWarpRegisterBytes);
    plain.set_streaming_width(kWarpRegisterBytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(plain, delay);
    check(plain.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE,
          "a payload without the extension is refused");
    check(sc_core::sc_time_stamp() == clock.cycles(11),
          "the initiator never blocked: the units answer with annotated delays");
  }
};

}  // namespace

int sc_main(int, char*[]) {
  // The refusal above is expected: keep its warning off the output.
  sc_core::sc_report_handler::set_actions("warpreg/refused_payload", sc_core::SC_DO_NOTHING);
  // What the blocks of the wc preset see, without a platform.
  const Params params = Params::load("wc", {"wc.compressors=2", "wc.compress_latency=2"});
  std::unique_ptr<Workload> workload = open_workload("synthetic", params);
  const DesignBench bench(params, *workload);
  BdiCompressor compressor("compressor", bench.context());
  Initiator initiator("initiator", bench.context().clock);
  initiator.socket.bind(compressor.target);
  sc_core::sc_start();

  const nlohmann::json stats = compressor.stats(20);
  std::printf("compressor stats: %s\n", stats.dump().c_str());
  check(stats["events"]["compressions"] == 4, "four compressions counted");
  check(stats["contended"] == 1, "one compression waited for a unit");
  std::printf("%s\n", failures == 0 ? "all checks passed" : "checks failed");
  return failures == 0 ? 0 : 1;
}

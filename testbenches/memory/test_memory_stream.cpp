// Streaming kernels through L1 -> interconnect -> L2 -> DRAM: SMs issue 128-byte line
// loads as fast as their L1 accepts them (grid-stride over one array, so the channels see
// one sequential stream), and the achieved bandwidth must be within 5 % of the peak of
// the resource that bounds it.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "modules/memory/l1_cache.h"
#include "modules/memory/memory_system.h"

using namespace warpreg;
using namespace warpreg::memory;
using sc_core::sc_time;

namespace {

/// An SM's load/store unit streaming line loads: line i of SM s is array line i x sms + s.
struct Streamer : sc_core::sc_module {
  SC_HAS_PROCESS(Streamer);
  tlm_utils::simple_initiator_socket<Streamer> socket{"socket"};
  MemTransaction txn;
  uint32_t sm, sms;
  uint64_t lines;
  sc_time period;  ///< the L1's cycle
  sc_time last_done = sc_core::SC_ZERO_TIME;
  uint64_t errors = 0;

  Streamer(sc_core::sc_module_name name, uint32_t sm_id, uint32_t sm_count, uint64_t line_count,
           const sc_time& l1_period)
      : sc_module(name), sm(sm_id), sms(sm_count), lines(line_count), period(l1_period) {
    SC_THREAD(run);
  }

  void run() {
    tlm_utils::tlm_quantumkeeper keeper;
    keeper.reset();
    for (uint64_t i = 0; i < lines; ++i) {
      tlm::tlm_generic_payload& p =
          txn.prepare(MemKind::Load, MemSpace::Global, (i * sms + sm) * 128, 128);
      txn.request().sm = static_cast<uint16_t>(sm);
      sc_time delay = keeper.get_local_time();
      socket->b_transport(p, delay);
      if (p.is_response_error()) ++errors;
      last_done = std::max(last_done, sc_core::sc_time_stamp() + delay);
      // The next request may go once the L1 took this one (its port takes one a cycle).
      keeper.set(txn.request().accepted + period - sc_core::sc_time_stamp());
      if (keeper.need_sync()) keeper.sync();
    }
  }
};

struct Stream {
  double bytes_per_ns = 0;
  nlohmann::json memory;  ///< MemorySystem::stats_at the end
  nlohmann::json l1;      ///< SM 0's L1 stats
};

/// `sms` SMs each streaming `lines` lines through their L1 into `system`, each running up
/// to `quantum` ahead of SystemC time.
Stream stream(uint32_t sms, uint64_t lines, MemorySystemConfig system,
              const CacheConfig& l1_config = CacheConfig::gtx480_l1d(),
              const sc_time& quantum = sc_time(100, sc_core::SC_NS)) {
  system.interconnect.sm_ports = sms;
  tlm::tlm_global_quantum::instance().set(quantum);
  MemorySystem memory("memory", system);
  std::vector<std::unique_ptr<L1Cache>> l1s;
  std::vector<std::unique_ptr<Streamer>> streamers;
  for (uint32_t s = 0; s < sms; ++s) {
    l1s.push_back(std::make_unique<L1Cache>(("l1_" + std::to_string(s)).c_str(), l1_config));
    streamers.push_back(std::make_unique<Streamer>(("sm" + std::to_string(s)).c_str(), s, sms,
                                                   lines, l1s.back()->clock().period()));
    streamers.back()->socket.bind(l1s.back()->cpu_side);
    l1s.back()->mem_side.bind(memory.sm_side);
  }
  sc_core::sc_start();
  sc_time end = sc_core::SC_ZERO_TIME;
  for (const auto& s : streamers) {
    CHECK(s->errors == 0);
    end = std::max(end, s->last_done);
  }
  Stream out;
  out.bytes_per_ns = double(sms) * lines * 128 / end.to_seconds() * 1e-9;
  out.memory = memory.stats_at(end);
  out.l1 = l1s[0]->stats(cycle_not_before(l1s[0]->clock(), end));
  return out;
}

}  // namespace

TEST_CASE("memory stream: one DRAM channel streams within 5 % of its peak", "[memory][stream]") {
  MemorySystemConfig system;
  system.address_map.channels = 1;
  system.interconnect.slice_ports = 2;
  // Peak: one 64-byte atom every 2 DRAM cycles at 924 MHz = 29.568 GB/s. Four SMs with
  // 32 L1 MSHRs each keep more than enough lines in flight.
  const double peak = system.dram.peak_bytes_per_cycle() * system.dram.clock_mhz * 1e-3;
  const Stream s = stream(4, 4096, system);
  INFO("achieved " << s.bytes_per_ns << " GB/s of " << peak);
  CHECK(s.bytes_per_ns >= 0.95 * peak);
  CHECK(s.bytes_per_ns <= peak);
  const nlohmann::json& dram = s.memory["memory.dram0"];
  CHECK(dram["bytes_read"] == 4 * 4096 * 128);
  CHECK(dram["bus_utilisation"].get<double>() >= 0.95);
  CHECK(dram["queue_occupancy_mean"].get<double>() > 1.0);  // the queue holds the backlog
  CHECK(s.l1["read_misses"] == 4096);
  CHECK(s.l1["stalls"]["mshr_full"]["requests"].get<uint64_t>() > 0);  // SMs are held back
}

TEST_CASE("memory stream: with a 731 ns quantum one channel keeps 80 % of its peak",
          "[memory][stream]") {
  // The SM platform's default quantum, 1024 cycles at 1400 MHz: SMs run up to 731 ns
  // apart, so requests reach a DRAM bank out of time order and reopen rows (the bank's
  // open row is the one the last processed request left, whatever its time).
  MemorySystemConfig system;
  system.address_map.channels = 1;
  system.interconnect.slice_ports = 2;
  const double peak = system.dram.peak_bytes_per_cycle() * system.dram.clock_mhz * 1e-3;
  const Stream s = stream(4, 4096, system, CacheConfig::gtx480_l1d(), sc_time(731, sc_core::SC_NS));
  INFO("achieved " << s.bytes_per_ns << " GB/s of " << peak);
  CHECK(s.bytes_per_ns >= 0.80 * peak);
  CHECK(s.bytes_per_ns <= peak);
}

TEST_CASE("memory stream: one SM streams within 5 % of its interconnect port's peak",
          "[memory][stream]") {
  // With enough MSHRs, one SM is bound by its reply port: 32-byte flits, one per cycle,
  // a 128-byte line with its 8 control bytes in 5 flits: 25.6 data bytes per 700 MHz cycle.
  CacheConfig l1 = CacheConfig::gtx480_l1d();
  l1.mshr_entries = 256;
  const MemorySystemConfig system;
  const double flits =
      std::ceil((128.0 + system.interconnect.control_bytes) / system.interconnect.flit_bytes);
  const double peak = 128.0 / flits * system.interconnect.clock_mhz * 1e-3;
  const Stream s = stream(1, 8192, system, l1);
  INFO("achieved " << s.bytes_per_ns << " GB/s of " << peak);
  CHECK(s.bytes_per_ns >= 0.95 * peak);
  CHECK(s.bytes_per_ns <= peak);
  CHECK(s.memory["memory.interconnect"]["replies"]["flits"] == 8192 * 5);
}

TEST_CASE("memory stream: 15 GTX480 SMs reach most of the 177.4 GB/s peak", "[memory][stream]") {
  // The GTX480 defaults: 6 channels. 32 L1 MSHRs per SM and 32 L2 MSHRs per slice bound
  // what is in flight; docs/memory.md records the figure.
  const MemorySystemConfig system;
  const double peak = system.dram.peak_bytes_per_cycle() * system.dram.clock_mhz * 1e-3 *
                      system.address_map.channels;
  CHECK(peak == Approx(177.408));
  const Stream s = stream(15, 2048, system);
  INFO("achieved " << s.bytes_per_ns << " GB/s of " << peak);
  CHECK(s.bytes_per_ns >= 0.80 * peak);
  CHECK(s.bytes_per_ns <= peak);
}

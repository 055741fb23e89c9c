#pragma once
// The crossbar between the SMs and the L2 slices: two networks (requests towards the
// slices, replies towards the SMs), each port moving one flit per cycle. A packet is
// injected in the first free gap of its source port, travels `latency` cycles, and is
// ejected in the first free gap of its destination port; a port holds a packet for one
// cycle per flit. Ports are Timelines: a reply computed early (a miss) does not hold up
// one computed later for an earlier cycle (a hit). Packets
// carry GPGPU-Sim's sizes (mem_fetch::get_num_flits): a read request or a write
// acknowledgement is its control bytes only; a write, an atomic or a read reply carries
// the data as well.
#include <cstdint>
#include <string_view>
#include <vector>

#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

/// Energy per flit (pJ) and leakage (mW) of the interconnect, supplied by a technology
/// model (0 until one does).
struct InterconnectEnergy {
  double flit_pj = 0;     ///< one flit from a source port to a destination port
  double leakage_mw = 0;  ///< the whole crossbar, on
};

struct InterconnectConfig {
  uint32_t sm_ports = 15;     ///< -gpgpu_n_clusters 15 x -gpgpu_n_cores_per_cluster 1
  uint32_t slice_ports = 12;  ///< -gpgpu_n_mem 6 x -gpgpu_n_sub_partition_per_mchannel 2
  uint32_t flit_bytes = 32;  ///< flit_size = 32 (config_fermi_islip.icnt): bytes per port per cycle
  uint32_t latency = 4;      ///< zero-load traversal in cycles (an estimate, see docs/memory.md)
  uint32_t control_bytes = 8;  ///< READ_PACKET_SIZE = WRITE_PACKET_SIZE = 8
  double clock_mhz = 700;      ///< -gpgpu_clock_domains 700.0:700.0:... (interconnect clock)
  InterconnectEnergy energy;
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;
};

struct Traversal {
  uint64_t injected = 0;   ///< cycle the head flit left the source port (the packet was accepted)
  uint64_t delivered = 0;  ///< cycle the tail flit reached the destination
};

class InterconnectCore {
 public:
  explicit InterconnectCore(const InterconnectConfig& config,
                            std::string_view name = "interconnect");

  const InterconnectConfig& config() const { return config_; }
  uint32_t flits(uint32_t packet_bytes) const {
    return (packet_bytes + config_.flit_bytes - 1) / config_.flit_bytes;
  }
  /// A packet of `bytes` from SM port `sm` to slice port `slice` at `cycle`.
  Traversal request(uint32_t sm, uint32_t slice, uint32_t bytes, uint64_t cycle);
  /// A packet of `bytes` from slice port `slice` back to SM port `sm` at `cycle`.
  Traversal reply(uint32_t slice, uint32_t sm, uint32_t bytes, uint64_t cycle);

  struct Direction {
    uint64_t packets = 0;
    uint64_t flits = 0;
    uint64_t bytes = 0;        ///< packet bytes (control and data)
    uint64_t wait_cycles = 0;  ///< time integral of packets waiting for a port
  };
  const Direction& requests() const { return requests_; }
  const Direction& replies() const { return replies_; }
  /// Forgets port reservations that ended before `cycle` (no packet arrives earlier).
  void forget_before(uint64_t cycle);

 private:
  Traversal send(Timeline& source, Timeline& destination, uint32_t bytes, uint64_t cycle,
                 Direction& counters);

  InterconnectConfig config_;
  std::vector<Timeline> sm_inject_, slice_eject_;  // request network
  std::vector<Timeline> slice_inject_, sm_eject_;  // reply network
  Direction requests_, replies_;
};

}  // namespace warpreg::memory

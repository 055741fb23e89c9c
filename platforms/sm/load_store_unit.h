#pragma once
// The SM's load/store unit towards a memory system (mem.model = memory_system): per
// memory instruction it finds the lanes' addresses (an Accel-Sim trace's own, the
// workload's address model, or the default model), coalesces them per warp into line
// requests (memory::Coalescer, GPGPU-Sim's Fermi rule) and sends one request per cycle
// to the L1 through a RequestPort (constant loads, in 64-byte lines, to the constant
// cache: the port routes by MemRequest::space). Shared memory costs its bank-conflict
// passes and no request.
// docs/memory.md, "The SM's load/store unit".
#include <array>
#include <cstdint>

#include "modules/interfaces/design_context.h"
#include "modules/interfaces/workload.h"
#include "modules/memory/address_model.h"
#include "modules/memory/coalescer.h"
#include "modules/memory/mem_request.h"
#include "platforms/sm/sm_core.h"

namespace warpreg {

/// Where the unit's requests go: the SM module's memory socket.
class RequestPort {
 public:
  virtual ~RequestPort() = default;
  /// Sends `txn` at `cycle` (SM cycles) to the L1, or the constant cache for a constant
  /// request; returns the cycle its answer is back and sets
  /// `accepted` to the cycle the L1 took it. Throws std::runtime_error for an error response.
  virtual uint64_t send(memory::MemTransaction& txn, uint64_t cycle, uint64_t& accepted) = 0;
};

struct LoadStoreConfig {
  uint32_t sm = 0;               ///< this SM's index (local addresses)
  uint32_t shared_latency = 24;  ///< l1.shared_latency (SM cycles)
  memory::CoalescerConfig coalescer;
  memory::LocalLayout local;
};

class LoadStoreUnit final : public MemoryPort, public LocalMemoryPort {
 public:
  LoadStoreUnit(const LoadStoreConfig& config, Workload& workload, RequestPort& port);

  MemoryTiming access(const MemoryAccess& access, uint64_t cycle) override;
  /// A design's spill or fill of a whole warp register: a 4-byte local access of every
  /// lane to frame word kDesignFrameWord + reg (apart from the compiler's spill slots),
  /// sent at `cycle` without waiting for the SM's memory pipeline.
  uint64_t transfer(uint32_t warp, uint16_t reg, bool store, uint64_t cycle) override;
  static constexpr uint32_t kDesignFrameWord = 256;

  struct Counters {
    uint64_t instructions = 0;     ///< memory instructions executed
    uint64_t requests = 0;         ///< line requests sent to the L1
    uint64_t bytes_requested = 0;  ///< bytes of those requests
    uint64_t shared_passes = 0;    ///< shared-memory bank passes (1 per access without conflicts)
    uint64_t constant_loads = 0;   ///< constant loads (their requests go to the constant cache)
    uint64_t modelled = 0;         ///< instructions whose addresses an address model made
    uint64_t traced = 0;           ///< instructions with the trace's own addresses
    uint64_t local = 0;  ///< local-space instructions (compiler spills and fills among them)
    uint64_t design_transfers = 0;  ///< designs' spills and fills (LocalMemoryPort), in `local`
  };
  const Counters& counters() const { return counters_; }

  /// The default model's array for a PC: global loads and stores without a model each
  /// stream over their own 64 MiB region (docs/memory.md).
  static uint64_t default_base(uint64_t pc);

 private:
  /// Fills access_.address for the active lanes; false for a space without requests.
  void find_addresses(const MemoryAccess& a, memory::MemSpace space, uint32_t bytes);

  LoadStoreConfig config_;
  Workload& workload_;
  RequestPort& port_;
  memory::Coalescer coalescer_;
  memory::WarpAccess access_;
  memory::CoalescedAccess coalesced_;
  memory::MemTransaction txn_;
  std::array<uint64_t, kWarpSize> lanes_{};
  Counters counters_;
};

}  // namespace warpreg

#pragma once
// What a design's blocks may know when they are elaborated: the parameters, the
// technology model and clock, the kernel's launch and compiler metadata, the SM's
// limits and occupancy, and the register file's geometry. The SM platform fills it;
// designs never include the platform.
#include <memory>
#include <string>

#include "common/cycle_clock.h"
#include "common/errors.h"
#include "modules/interfaces/kernel_metadata.h"
#include "modules/interfaces/occupancy.h"
#include "modules/interfaces/regfile_geometry.h"
#include "modules/interfaces/storage_power.h"
#include "modules/interfaces/workload.h"
#include "power/energy.h"

namespace warpreg {

class Params;

/// The SM facts a design may depend on (not its pipeline, beyond the latencies of what
/// a design issues itself).
struct MachineShape {
  SmLimits limits;
  uint32_t memory_latency = 400;   ///< cycles of a load that misses: spill and fill traffic
  uint32_t load_hit_latency = 28;  ///< cycles of a load that hits the L1 data cache
  /// Cycles from an ALU instruction's dispatch to its writeback: the MOVs a design
  /// issues itself (RegMutex's per-release compaction).
  uint32_t alu_latency = 4;
  uint32_t collector_units = 16;  ///< operand collector units of all types (collector.*)
};

/// A design's way to local memory with mem.model = memory_system: whole warp registers
/// stored (spilled) or loaded (filled) as the SM's local accesses, through its L1 and the
/// memory system. Absent (nullptr) with the probability model, where a design charges
/// MachineShape::memory_latency instead.
class LocalMemoryPort {
 public:
  virtual ~LocalMemoryPort() = default;
  /// A store (`store`) or load of warp slot `warp`'s register `reg` issued at `cycle`;
  /// returns the cycle it completes.
  virtual uint64_t transfer(uint32_t warp, uint16_t reg, bool store, uint64_t cycle) = 0;
};

struct DesignContext {
  const Params& params;
  const power::TechTable& tech;
  const CycleClock& clock;
  const KernelShape& kernel;
  const std::string& workload;  ///< the workload's describe(), for messages
  const MachineShape& machine;
  const Occupancy& occupancy;  ///< the SM's occupancy of this kernel without any design
  const RegFileGeometry& regfile;
  MetadataSource& metadata;
  /// The register file's cells, for designs that put them into low-power states.
  StoragePower& storage_power;
  /// Spill and fill traffic through the memory system (nullptr: none; see LocalMemoryPort).
  LocalMemoryPort* local_memory = nullptr;

  /// The compiler metadata of `kind` (see kernel_metadata.h). `design` names the
  /// design for the error thrown when the workload has no static code.
  template <class T>
  std::shared_ptr<const T> require(const std::string& kind, const std::string& design,
                                   const std::string& why) const {
    auto result = metadata.get<T>(kind, pass_context());
    if (!result)
      throw ConfigError(design + " needs the kernel's static code for " + why + "; workload '" +
                        workload +
                        "' has none (use a profile, a .dot or cuobjdump kernel, or a .traceg "
                        "trace)");
    return result;
  }
  /// As require(), but nullptr when the workload has no static code.
  template <class T>
  std::shared_ptr<const T> optional(const std::string& kind) const {
    return metadata.get<T>(kind, pass_context());
  }
  PassContext pass_context() const { return {params, kernel, machine.limits, occupancy, regfile}; }
};

}  // namespace warpreg

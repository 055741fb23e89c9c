#pragma once
// Register banks and their arbiter: B banks x S lane slices x E entries of warp
// registers, bit-exact contents, and per (bank, slice) port reservations so
// bank conflicts cost time without a cycle-by-cycle handshake.
#include <cstdint>
#include <string>
#include <vector>

#include "common/warp_register.h"
#include "modules/interfaces/lane_slices.h"
#include "modules/interfaces/regfile_geometry.h"

namespace warpreg {

struct RegFileConfig : RegFileGeometry {
  /// Throws std::invalid_argument naming the offending field.
  void validate() const;
};

/// Where an access lands and when it is served.
struct BankGrant {
  uint32_t bank = 0;
  uint64_t grant_cycle = 0;  ///< cycle the port serves the access (>= requested cycle)
  uint64_t ready_cycle = 0;  ///< grant + latency
  uint32_t slices = 0;       ///< lane slices touched
};

class RegFileCore {
 public:
  explicit RegFileCore(const RegFileConfig& config);

  const RegFileConfig& config() const { return config_; }

  uint32_t bank_of(uint32_t phys_reg, uint16_t warp_slot, uint16_t arch_reg) const {
    return config_.bank_of(phys_reg, warp_slot, arch_reg);
  }
  /// Lane slices holding any lane of `mask`: an access touches only those.
  uint32_t slice_mask(LaneMask mask) const { return slices_.slices_of(mask); }

  /// Reads the slices holding the lanes of `lanes` into `out` (its other lanes are
  /// left as they were) through the bank's read port, at `cycle` or the first cycle
  /// after it that every touched slice's read port is free.
  BankGrant read(uint32_t phys_reg, uint32_t bank, uint64_t cycle, WarpRegister& out,
                 LaneMask lanes = kFullMask);
  /// Writes the lanes of `mask` through the bank's write port (writes and reads use
  /// separate ports; within a cycle the write happens first).
  BankGrant write(uint32_t phys_reg, uint32_t bank, uint64_t cycle, const WarpRegister& value,
                  LaneMask mask);

  /// Direct access for debuggers and tests: no timing, no counting.
  const WarpRegister& peek(uint32_t phys_reg) const { return data_[phys_reg]; }

  struct Counters {
    uint64_t reads = 0;             ///< read accesses
    uint64_t writes = 0;            ///< write accesses
    uint64_t slice_reads = 0;       ///< lane slices read
    uint64_t slice_writes = 0;      ///< lane slices written
    uint64_t conflicted_reads = 0;  ///< reads not served in the cycle they were asked for
    uint64_t conflict_cycles = 0;   ///< sum of cycles reads waited for a port
    uint64_t conflicted_writes = 0;
  };
  const Counters& counters() const { return counters_; }
  /// Accesses each bank served (reads + writes), for imbalance reports.
  const std::vector<uint64_t>& bank_accesses() const { return bank_accesses_; }

 private:
  /// One kind of port (read or write) of every (bank, slice).
  /// Slices of a bank whose ports a partial access left busy until `free`.
  struct Group {
    uint32_t slices = 0;
    uint64_t free = 0;
  };
  struct Ports {
    /// Per bank: every slice is busy until then (set by whole-warp accesses).
    std::vector<uint64_t> bank_floor;
    /// Per bank: the latest free cycle of its slices.
    std::vector<uint64_t> bank_max;
    /// Per bank, room for lane_slices groups: the slices whose port is free later than the
    /// floor, grouped by free cycle, their masks disjoint. A slice in no group is free at
    /// the floor. Partial accesses (COMA's gated reads) share a few masks, so a port look-up
    /// takes a step per group instead of one per slice (32 with COMA).
    std::vector<Group> groups;
    std::vector<uint8_t> group_count;  ///< per bank
  };
  /// The first cycle from `cycle` on at which every port of `slices` is free; the ports
  /// are then busy for one cycle, or for `latency` when the banks are not pipelined.
  uint64_t reserve(Ports& ports, uint32_t bank, uint32_t slices, uint64_t cycle, uint32_t latency);
  /// reserve() for some slices of the bank, each port then busy for `busy` cycles (out of
  /// line: whole-warp accesses need none of its registers).
  [[gnu::noinline]] uint64_t reserve_slices(Ports& ports, uint32_t bank, uint32_t slices,
                                            uint64_t cycle, uint64_t busy);
  RegFileConfig config_;
  LaneSlices slices_;
  std::vector<WarpRegister> data_;
  Ports read_ports_;
  Ports write_ports_;
  std::vector<uint64_t> bank_accesses_;
  Counters counters_;
};

}  // namespace warpreg

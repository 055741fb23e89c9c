#pragma once
// LTRF's address allocation unit as a block (child "address_allocation_unit" of the ltrf
// stage): the per-warp units of register-file-cache banks, the global unit of
// warp-offset slots and the warp control blocks' address tables (AddressAllocationCore).
// The controller reaches it through core(), bound at elaboration: every cached operand
// read looks up its location here, so a socket hop per access would buy nothing.
// docs/blocks/ltrf.md.
#include <systemc>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/ltrf/address_allocation_core.h"
#include "power/energy.h"

namespace warpreg {

/// The warp control block's address-table parameters (ltrf.*). The unit's bank and
/// offset counts are the cache's organisation (RegisterFileCacheParams).
struct AddressAllocationParams : ParamSet {
  explicit AddressAllocationParams(const Params* values = nullptr) : ParamSet("ltrf", values) {}
  Param<uint32_t> max_regs_per_thread{
      this,
      "max_regs_per_thread",
      256,
      {1, 256},
      "registers",
      "Architected registers per warp the WCB's address table and bit-vectors cover (hardware "
      "size; sets the WCB storage).",
      "seed 004 §4.1: 'a 256-entry table per warp'; §4.3 storage cost"};
  Param<uint32_t> lookup_cycles{
      this,
      "lookup_cycles",
      1,
      {0, 8},
      "cycles",
      "Extra cycles of a WCB lookup on every cached access.",
      "seed 004 §4.3: 'the WCB can be accessed within one extra clock cycle'"};
  Param<uint32_t> wcb_read_ports{
      this,
      "wcb_read_ports",
      2,
      {1, 8},
      "ports",
      "WCB read ports: an instruction with more operands looks them up over several cycles.",
      "seed 004 §4.1: 'we provide two read ports for each register cache address table'"};
};

struct AddressAllocationStats : StatSet {
  AddressAllocationStats() : StatSet("ltrf.address_allocation_unit") {}
  Counter wcb_lookups{this, "wcb_lookups", "lookups",
                      "Address-table lookups by operand collectors (every operand read)."};
  Counter wcb_port_stalls{this, "wcb_port_stalls", "lookups",
                          "Lookups that waited for a WCB read port (third operand and later)."};
  Counter bank_allocations{this, "bank_allocations", "allocations",
                           "Cache banks taken from a warp's unused queue."};
  Counter bank_releases{this, "bank_releases", "releases",
                        "Cache banks returned to a warp's unused queue."};
  Counter offset_allocations{this, "offset_allocations", "allocations",
                             "Warp-offset slots given to warps entering the active pool."};
  Counter offset_releases{this, "offset_releases", "releases",
                          "Warp-offset slots returned by warps leaving the active pool."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "Address tables, warp-offset fields and queues."};
};

class AddressAllocationModule : public sc_core::sc_module, public ReportingBlock {
 public:
  /// Throws std::invalid_argument naming the field of a bad configuration.
  /// Throws TechError naming the block and key when `tech` lacks wcb_lookup.
  AddressAllocationModule(sc_core::sc_module_name name, const AddressAllocationConfig& config,
                          const power::TechTable& tech, const CycleClock& clock);

  /// The unit itself, for the LTRF controller (bound at elaboration).
  AddressAllocationCore& core() { return core_; }
  const AddressAllocationCore& core() const { return core_; }

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  uint64_t storage_bits() const;

  AddressAllocationCore core_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId lookups_;
  bool counted_ = false;  ///< the core's lookups are charged once, at the first stats()
  AddressAllocationStats stats_;
};

}  // namespace warpreg

#pragma once
// The RFV renaming table (seed 000 §7.1) as a block: per (warp, architected register)
// the physical warp register, in `rfv.table_banks` banks looked up in parallel, with
// the per-bank availability vectors the allocator fills from the bottom. The core is
// RenamingTable (plain C++); this module adds the lookup timing, counters and energy.
//
// Interface (no socket): the RFV stage calls it directly, bound at elaboration (the
// module is the stage's child and the stage holds it). One lookup per renamed operand
// access is the hot path:
//   translate(warp, reg, unit, cycle) -> {physical register, extra lookup cycles}
//   allocate(warp, reg) / release(warp, reg)  -> a table write (mapping made or freed)
//   core()                                    -> the state, for the stage's decisions
#include <systemc>
#include <vector>

#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/rfv/renaming_table.h"
#include "power/energy.h"

namespace warpreg {

/// The renaming table's parameters (rfv.*).
struct RenamingTableParams : ParamSet {
  explicit RenamingTableParams(const Params* values = nullptr) : ParamSet("rfv", values) {}
  Param<uint32_t> table_bytes{
      this,
      "table_bytes",
      1024,
      {0, 1 << 20},
      "bytes",
      "Renaming-table budget; registers that do not fit are exempt (mapped directly, never "
      "released). 0: the full table (every warp x every register).",
      "seed 000 §7.1: 'we limit the renaming table size to 1KB, which is 25% of the full "
      "renaming table'"};
  Param<uint32_t> table_banks{
      this,
      "table_banks",
      4,
      {1, 32},
      "banks",
      "Renaming-table banks looked up in parallel; same-bank lookups in one cycle serialise. "
      "Register r of a warp is in bank r mod banks.",
      "seed 000 §7.1 and Table 2: 'The renaming table consists of four banks'"};
  Param<uint32_t> lookup_cycles{this,
                                "lookup_cycles",
                                1,
                                {0, 16},
                                "cycles",
                                "Extra pipeline cycles of a renaming-table lookup on every "
                                "renamed register access.",
                                "seed 000 §7.1: 0.22 ns access, conservatively 'one extra cycle "
                                "pipeline latency'"};
  Param<uint32_t> max_regs_per_thread{
      this,
      "max_regs_per_thread",
      63,
      {1, 255},
      "registers",
      "Architected registers per thread the table can name (the full table is max_warps x this "
      "x log2(physical registers) bits).",
      "seed 000 §7.1: 'each warp can have a maximum of 63 registers'"};
  Param<uint32_t> subarrays_per_bank{
      this,
      "subarrays_per_bank",
      4,
      {1, 256},
      "sub-arrays",
      "Sub-arrays per register bank: the renaming allocator fills the lowest free entry of a "
      "bank so whole sub-arrays stay empty (and can be gated, rfv.power_gating).",
      "seed 000 §8.2 Figure 8 (four sub-arrays per bank in the example)"};

  /// The core's configuration for the register file `regfile` and `max_warps` warp
  /// slots. Throws ConfigError naming the option that does not fit.
  RenamingConfig core_config(const RegFileGeometry& regfile, uint32_t max_warps) const;
  /// Bits of the table as built: the budget, or the full table when it is 0.
  uint64_t table_bits(const RenamingConfig& config) const {
    return table_bytes == 0u ? config.full_table_bits() : uint64_t{table_bytes} * 8;
  }
};

struct RenamingTableStats : StatSet {
  RenamingTableStats() : StatSet("rfv.renaming_table") {}
  Counter lookups{this, "lookups", "lookups",
                  "Table lookups: one per access of a renamed register (exempt registers "
                  "bypass the table)."};
  Counter lookup_conflicts{this, "lookup_conflicts", "lookups",
                           "Lookups that waited for another of the same unit and cycle in "
                           "the same table bank."};
  Counter allocations{this, "allocations", "registers", "Mappings made (table writes)."};
  Counter releases{this, "releases", "registers", "Mappings freed (table writes)."};
  Counter allocation_failures{this, "allocation_failures", "writes",
                              "Mappings asked for in a bank with no free register."};
  Statistic<uint64_t> max_mapped_registers{this, "max_mapped_registers", "registers",
                                           "Most renamed registers mapped at once.",
                                           StatSet::Combine::Max};
  Statistic<uint64_t> exempt_registers{
      this, "exempt_registers", "registers per thread",
      "Architected registers the compiler left out of the table (mapped "
      "directly, never released).",
      StatSet::Combine::Mean};
  Statistic<uint64_t> renamed_registers{this, "renamed_registers", "registers per thread",
                                        "Architected registers the table renames.",
                                        StatSet::Combine::Mean};
  Statistic<uint64_t> storage_bits{
      this, "storage_bits", "bits",
      "Table entries plus the availability vectors (one bit per physical "
      "register)."};
};

class RenamingTableModule : public sc_core::sc_module, public ReportingBlock {
 public:
  /// The unit of a writeback: it looks up one register and never waits for another.
  static constexpr uint16_t kWritebackUnit = 0xfffe;
  struct Translation {
    uint32_t phys;    ///< kNoPhysical when a renamed register has no mapping
    uint32_t cycles;  ///< extra cycles of the lookup (0 for an exempt register)
  };

  /// Builds the table for a kernel of `regs_per_thread` registers of which `exempt`
  /// (per register) are mapped directly. Throws ConfigError naming the option when
  /// the kernel or its exempt area does not fit.
  RenamingTableModule(sc_core::sc_module_name name, const DesignContext& context,
                      uint32_t regs_per_thread, const std::vector<bool>& exempt);

  /// One operand access of (warp, reg) by `unit` (a collector, or kWritebackUnit) at
  /// `cycle`. Renamed registers of one unit and cycle that fall in the same table bank
  /// (reg mod banks) serialise (seed 000 §7.1); exempt registers bypass the table.
  Translation translate(uint16_t warp, uint16_t reg, uint16_t unit, uint64_t cycle);
  /// Maps an unmapped renamed (warp, reg) in its compiler bank: the physical register,
  /// or kNoPhysical when that bank is full (nothing changes then).
  uint32_t allocate(uint16_t warp, uint16_t reg);
  /// Frees (warp, reg)'s mapping: the physical register it had, or kNoPhysical when it
  /// had none (or is exempt).
  uint32_t release(uint16_t warp, uint16_t reg);

  /// The table's state (mappings, availability, sub-array occupancy) for decisions that
  /// the hardware makes from its valid bits and free counts; no energy.
  const RenamingTable& core() const { return core_; }
  const RenamingTableParams& params() const { return params_; }
  /// Dynamic and leakage energy up to `end_cycle` (closes the leakage integration).
  double energy_pj(uint64_t end_cycle);

  // ReportingBlock
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 private:
  RenamingTableParams params_;
  RenamingTable core_;
  /// Lookups per table bank of the unit and cycle being looked up.
  std::vector<uint32_t> lookups_in_bank_;
  uint16_t lookup_unit_ = 0xffff;
  uint64_t lookup_cycle_ = ~uint64_t(0);
  RenamingTableStats stats_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId lookups_, updates_;
  power::EnergyAccount::GroupId banks_;
};

}  // namespace warpreg

#include "modules/rfv/renaming_table_module.h"

#include <algorithm>
#include <stdexcept>

#include "common/errors.h"

namespace warpreg {

WARPREG_REGISTER_STATS(RenamingTableStats);

RenamingConfig RenamingTableParams::core_config(const RegFileGeometry& regfile,
                                                uint32_t max_warps) const {
  RenamingConfig c;
  c.physical_registers = regfile.physical_registers();
  c.max_warps = max_warps;
  c.max_regs_per_thread = max_regs_per_thread;
  c.rf_banks = regfile.banks;
  c.table_banks = table_banks;
  const uint32_t entries = regfile.entries_per_bank;
  if (entries % subarrays_per_bank != 0)
    throw ConfigError("rfv.subarrays_per_bank = " + std::to_string(subarrays_per_bank.get()) +
                      " does not divide the " + std::to_string(entries) +
                      " entries of a register bank");
  c.subarray_entries = entries / subarrays_per_bank;
  return c;
}

namespace {

RenamingConfig checked_config(const RenamingTableParams& params, const DesignContext& context,
                              uint32_t regs_per_thread) {
  if (regs_per_thread > params.max_regs_per_thread)
    throw ConfigError("the kernel uses " + std::to_string(regs_per_thread) +
                      " registers per thread but rfv.max_regs_per_thread = " +
                      std::to_string(params.max_regs_per_thread.get()));
  return params.core_config(context.regfile, context.machine.limits.max_warps);
}

}  // namespace

RenamingTableModule::RenamingTableModule(sc_core::sc_module_name name, const DesignContext& context,
                                         uint32_t regs_per_thread, const std::vector<bool>& exempt)
    : sc_core::sc_module(name),
      params_(&context.params),
      core_(checked_config(params_, context, regs_per_thread)),
      lookups_in_bank_(params_.table_banks, 0),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  try {
    core_.start_kernel(regs_per_thread, exempt);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("rfv: ") + e.what());
  }
  const power::TechTable& tech = context.tech;
  const double access_pj = tech.value_for(this->name(), "renaming_table_access");
  lookups_ =
      energy_.add_event("lookups", "renaming-table lookups (one per renamed operand)", access_pj);
  updates_ = energy_.add_event("updates", "renaming-table writes: a mapping allocated or released",
                               access_pj);
  const double bank_mw = tech.value_for(this->name(), "renaming_table_leakage");
  const double mw[power::kPowerStateCount] = {bank_mw, bank_mw, 0.0, 0.0};
  banks_ = energy_.add_residency("table_banks", "renaming-table banks", params_.table_banks,
                                 power::PowerState::On, mw);
}

RenamingTableModule::Translation RenamingTableModule::translate(uint16_t warp, uint16_t reg,
                                                                uint16_t unit, uint64_t cycle) {
  const uint32_t phys = core_.lookup(warp, reg);
  if (core_.is_exempt(reg)) return {phys, 0};
  if (unit != lookup_unit_ || cycle != lookup_cycle_) {
    lookup_unit_ = unit;
    lookup_cycle_ = cycle;
    std::fill(lookups_in_bank_.begin(), lookups_in_bank_.end(), 0);
  }
  const uint32_t queued = lookups_in_bank_[reg % lookups_in_bank_.size()]++;
  if (queued != 0) ++stats_.lookup_conflicts;
  energy_.count(lookups_);
  core_.count_lookups(1);
  return {phys, queued + params_.lookup_cycles};
}

uint32_t RenamingTableModule::allocate(uint16_t warp, uint16_t reg) {
  const uint64_t before = core_.counters().allocations;
  const uint32_t phys = core_.map_for_write(warp, reg);
  if (core_.counters().allocations != before) energy_.count(updates_);
  return phys;
}

uint32_t RenamingTableModule::release(uint16_t warp, uint16_t reg) {
  const uint32_t phys = core_.lookup(warp, reg);
  if (!core_.release(warp, reg)) return kNoPhysical;
  energy_.count(updates_);
  return phys;
}

double RenamingTableModule::energy_pj(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  return energy_.dynamic_pj() + energy_.leakage_pj();
}

nlohmann::json RenamingTableModule::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const RenamingTable::Counters& c = core_.counters();
  stats_.lookups.set(c.lookups);
  stats_.allocations.set(c.allocations);
  stats_.releases.set(c.releases);
  stats_.allocation_failures.set(c.allocation_failures);
  stats_.max_mapped_registers.set(c.max_mapped);
  stats_.exempt_registers.set(core_.exempt_count());
  stats_.renamed_registers.set(core_.renamed_per_warp());
  stats_.storage_bits.set(params_.table_bits(core_.config()) + core_.config().physical_registers);
  stats_.write(j);
  return j;
}

nlohmann::json RenamingTableModule::describe() const {
  const RenamingConfig& c = core_.config();
  const uint64_t table_bits = params_.table_bits(c);
  const uint64_t availability_bits = c.physical_registers;
  return {{"storage_bits",
           {{"table", table_bits},
            {"full_table", c.full_table_bits()},
            {"availability_vectors", availability_bits},
            {"total", table_bits + availability_bits}}},
          {"ports",
           {{"interface", "direct calls from the rfv stage: translate, allocate, release"},
            {"table_banks", c.table_banks},
            {"lookups_per_bank_per_cycle", 1},
            {"availability_vectors", c.rf_banks}}},
          {"latency_cycles", {{"lookup", params_.lookup_cycles.get()}}},
          {"parameters",
           {{"table_bytes", params_.table_bytes.get()},
            {"physical_registers", c.physical_registers},
            {"entry_bits", c.entry_bits()},
            {"max_regs_per_thread", c.max_regs_per_thread},
            {"subarray_entries", c.subarray_entries},
            {"exempt_registers", core_.exempt_count()},
            {"renamed_registers_per_warp", core_.renamed_per_warp()}}},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

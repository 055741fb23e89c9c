#include "platforms/sm/memory_params.h"

#include "power/tech_scaling.h"

namespace warpreg {

namespace {
memory::CacheEnergy cache_energy(const power::TechTable& tech, const std::string& level) {
  const std::string block = "memory system (" + level + ")";
  memory::CacheEnergy e;
  e.tag_lookup_pj = tech.value_for(block, level + "_tag_lookup");
  e.data_read_pj = tech.value_for(block, level + "_data_read");
  e.data_write_pj = tech.value_for(block, level + "_data_write");
  e.mshr_access_pj = tech.value_for(block, level + "_mshr_access");
  e.leakage_mw = tech.value_for(block, level + "_leakage");
  return e;
}
}  // namespace

power::TechTable memory_tech(const power::TechTable& run_tech) {
  return run_tech.has("l1_data_read") ? run_tech : power::TechTable::load("fermi40");
}

memory::CacheConfig l1_config(const Params& params, const power::TechTable& tech) {
  const L1Params l1(&params);
  memory::CacheConfig c = memory::CacheConfig::gtx480_l1d();
  c.sets = l1.sets;
  c.ways = l1.ways;
  c.mshr_entries = l1.mshr_entries;
  c.mshr_max_merge = l1.mshr_max_merge;
  c.latency = l1.latency;
  c.clock_mhz = l1.clock_mhz;
  c.energy = cache_energy(tech, "l1");
  c.validate("l1");
  return c;
}

memory::CacheConfig l1c_config(const Params& params, const power::TechTable& tech) {
  const L1Params l1(&params);
  const L1cParams l1c(&params);
  memory::CacheConfig c = memory::CacheConfig::gtx480_constant();
  c.sets = l1c.sets;
  c.ways = l1c.ways;
  c.latency = l1c.latency;
  c.clock_mhz = l1.clock_mhz;
  // The L1's coefficients resized to the constant cache's arrays (4-byte tag entries and
  // 16-byte MSHR entries, as the L1's).
  const double tags = double(c.sets) * c.ways * 4, data = double(c.sets) * c.ways * c.line_bytes;
  const double mshrs = double(c.mshr_entries) * 16;
  c.energy.tag_lookup_pj = power::sram_access_pj(tech, "l1_tag_lookup", c.ways * 4.0, tags);
  c.energy.data_read_pj = power::sram_access_pj(tech, "l1_data_read", c.line_bytes, data);
  c.energy.data_write_pj = power::sram_access_pj(tech, "l1_data_write", c.line_bytes, data);
  c.energy.mshr_access_pj = power::sram_access_pj(tech, "l1_mshr_access", 16, mshrs);
  c.energy.leakage_mw = power::scaled(tech, "l1_leakage", "array_bytes", tags + data + mshrs);
  c.validate("l1c");
  return c;
}

memory::MemorySystemConfig memory_system_config(const Params& params, uint32_t sms,
                                                const power::TechTable& tech) {
  const IcntParams icnt(&params);
  const L2Params l2(&params);
  const DramParams dram(&params);
  memory::MemorySystemConfig c;
  c.address_map.channels = dram.channels;
  c.interconnect.sm_ports = sms;
  c.interconnect.slice_ports = c.address_map.slices();
  c.interconnect.flit_bytes = icnt.flit_bytes;
  c.interconnect.latency = icnt.latency;
  c.l2.sets = l2.sets;
  c.l2.ways = l2.ways;
  c.l2.mshr_entries = l2.mshr_entries;
  c.l2.latency = l2.latency;
  c.dram.queue_entries = dram.queue_entries;
  c.dram.controller_latency = dram.controller_latency;
  c.l2.energy = cache_energy(tech, "l2");
  c.interconnect.energy.flit_pj = tech.value_for("memory system (icnt)", "icnt_flit");
  c.dram.energy.read_atom_pj = tech.value_for("memory system (dram)", "dram_read_atom");
  c.dram.energy.write_atom_pj = tech.value_for("memory system (dram)", "dram_write_atom");
  c.dram.energy.activate_pj = tech.value_for("memory system (dram)", "dram_activate");
  c.dram.energy.background_mw = tech.value_for("memory system (dram)", "dram_background");
  c.validate();
  return c;
}

}  // namespace warpreg

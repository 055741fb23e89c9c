#include "platforms/sm/memory_params.h"

namespace warpreg {

memory::CacheConfig l1_config(const Params& params) {
  const L1Params l1(&params);
  memory::CacheConfig c = memory::CacheConfig::gtx480_l1d();
  c.sets = l1.sets;
  c.ways = l1.ways;
  c.mshr_entries = l1.mshr_entries;
  c.mshr_max_merge = l1.mshr_max_merge;
  c.latency = l1.latency;
  c.clock_mhz = l1.clock_mhz;
  c.validate("l1");
  return c;
}

memory::MemorySystemConfig memory_system_config(const Params& params, uint32_t sms) {
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
  c.validate();
  return c;
}

}  // namespace warpreg

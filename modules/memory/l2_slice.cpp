#include "modules/memory/l2_slice.h"

#include "common/errors.h"
#include "modules/memory/mem_timing.h"

namespace warpreg::memory {

L2Slice::L2Slice(sc_core::sc_module_name name, uint32_t slice, const CacheConfig& config,
                 const AddressMapConfig& map)
    : sc_core::sc_module(name),
      icnt_side("icnt_side"),
      dram_side("dram_side"),
      slice_(slice),
      core_(config, "l2"),
      map_(map, "address_map"),
      clock_(config.clock_mhz),
      energy_(this->name(), clock_.ns_per_cycle()) {
  if (slice_ >= map_.config().slices())
    throw ConfigError(std::string(this->name()) + ": slice " + std::to_string(slice_) +
                      " beyond the address map's " + std::to_string(map_.config().slices()) +
                      " slices (address_map.channels x address_map.sub_partitions_per_channel)");
  rules_.line_bytes = config.line_bytes;
  rules_.spaces =
      space_bit(MemSpace::Global) | space_bit(MemSpace::Local) | space_bit(MemSpace::Constant);
  activity_.declare(energy_, config);
  icnt_side.register_b_transport(this, &L2Slice::b_transport);
}

void L2Slice::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  MemRequest* ext = accept_request(payload, rules_, *this);
  if (ext == nullptr) return;
  if (map_.slice_of(payload.get_address()) != slice_) {
    ++misrouted_;
    refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this, "an address of another slice");
    return;
  }
  CacheRequest request;
  request.address = payload.get_address();
  request.index_address = map_.partition_address(request.address);
  request.bytes = line_bytes_of(payload, *ext, core_.config().line_bytes);
  request.kind = ext->kind;
  request.space = ext->space;
  CacheParts parts{core_, clock_, down_, energy_, activity_, MemLevel::L2};
  const uint64_t done =
      serve(parts, *dram_side.operator->(), payload, *ext, request, arrival_cycle(clock_, delay));
  if (payload.is_response_error()) return;
  delay = time_of(clock_, done) - sc_core::sc_time_stamp();
}

nlohmann::json L2Slice::stats(uint64_t end_cycle) {
  nlohmann::json j = cache_stats(energy_, core_, activity_, end_cycle);
  j["slice"] = slice_;
  j["misrouted_requests"] = misrouted_;
  return j;
}

nlohmann::json L2Slice::describe() const {
  nlohmann::json j = cache_describe(core_.config(), energy_);
  j["slice"] = slice_;
  j["set_index_address"] = "partition address (channel and sub-partition bits removed)";
  return j;
}

}  // namespace warpreg::memory

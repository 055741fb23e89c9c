#include "modules/rfv/rfv_vectors.h"

#include <nlohmann/json.hpp>

#include "modules/rfv/release_flag_cache.h"
#include "modules/rfv/renaming_table.h"
#include "stimuli/driver/value_model.h"

namespace warpreg {

namespace {
void line(std::ostream& out, const nlohmann::ordered_json& j) { out << j.dump() << '\n'; }
int64_t physical(uint32_t p) { return p == kNoPhysical ? -1 : int64_t{p}; }
}  // namespace

uint64_t write_rename_table_vectors(std::ostream& out, uint64_t count, uint64_t seed) {
  RenamingConfig config;
  config.max_warps = 4;
  config.max_regs_per_thread = 16;
  config.physical_registers = 64;
  config.rf_banks = 4;
  config.subarray_entries = 4;
  RenamingTable table(config);
  std::vector<bool> exempt(16, false);
  exempt[0] = exempt[1] = true;
  table.start_kernel(16, exempt);
  line(out,
       {{"block", "rename-table"},
        {"seed", seed},
        {"config",
         {{"warps", config.max_warps},
          {"registers", config.max_regs_per_thread},
          {"physical_registers", config.physical_registers},
          {"banks", config.rf_banks},
          {"exempt", {0, 1}},
          {"exempt_mapping", "warp * 2 + slot"},
          {"allocation", "bank (reg + warp) mod 4, lowest free entry; phys = entry * 4 + bank"}}}});
  Rng rng(seed);
  for (uint64_t i = 0; i < count; ++i) {
    const auto warp = static_cast<uint16_t>(rng.below(config.max_warps));
    const auto reg = static_cast<uint16_t>(rng.below(config.max_regs_per_thread));
    const uint32_t kind = rng.below(16);
    nlohmann::ordered_json j = {{"op", ""}, {"warp", warp}, {"reg", reg}};
    if (kind < 7) {
      j["op"] = "write";
      j["phys"] = physical(table.map_for_write(warp, reg));
    } else if (kind < 11) {
      j["op"] = "read";
      j["phys"] = physical(table.lookup(warp, reg));
    } else if (kind < 15) {
      j["op"] = "release";
      j["freed"] = table.release(warp, reg);
    } else {
      j = {{"op", "exit"}, {"warp", warp}, {"freed", table.release_warp(warp)}};
    }
    nlohmann::ordered_json free = nlohmann::ordered_json::array();
    for (uint32_t b = 0; b < config.rf_banks; ++b) free.push_back(table.free_in_bank(b));
    j["free_per_bank"] = std::move(free);
    line(out, j);
  }
  return count;
}

uint64_t write_release_flag_cache_vectors(std::ostream& out, uint64_t count, uint64_t seed) {
  ReleaseFlagCacheConfig config;
  ReleaseFlagCache cache(config);
  line(out, {{"block", "release-flag-cache"},
             {"seed", seed},
             {"config",
              {{"entries", config.entries},
               {"inst_bytes", config.inst_bytes},
               {"index", "(pc / inst_bytes) mod entries"},
               {"flag_bits", ReleaseFlagCacheConfig::kFlagBits}}}});
  Rng rng(seed);
  // pirs of a kernel of 40 metadata instructions, visited with locality like warps do.
  uint64_t pc = 0;
  for (uint64_t i = 0; i < count; ++i) {
    pc = rng.chance(0.7) ? (pc + 19 * 8) % (40 * 19 * 8) : uint64_t{rng.below(40)} * 19 * 8;
    nlohmann::ordered_json j = {{"op", "probe"}, {"pc", pc}};
    const bool hit = cache.probe(pc);
    j["hit"] = hit;
    if (!hit) {
      const uint64_t flags = rng.next() & ((uint64_t{1} << ReleaseFlagCacheConfig::kFlagBits) - 1);
      cache.fill(pc, flags);
      j["fill_flags"] = flags;
    } else {
      j["flags"] = cache.flags(pc);
    }
    line(out, j);
  }
  return count;
}

}  // namespace warpreg

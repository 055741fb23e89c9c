#include "modules/rfv/rfv_vectors.h"

#include "modules/rfv/release_flag_cache.h"
#include "modules/rfv/renaming_table.h"

namespace warpreg {

namespace {

RenamingConfig rename_table_config() {
  RenamingConfig config;
  config.max_warps = 4;
  config.max_regs_per_thread = 16;
  config.physical_registers = 64;
  config.rf_banks = 4;
  config.subarray_entries = 4;
  return config;
}

void write_rename_table_steps(vectors::RecordSink& out, uint64_t count, uint64_t seed) {
  const RenamingConfig config = rename_table_config();
  RenamingTable table(config);
  std::vector<bool> exempt(16, false);
  exempt[0] = exempt[1] = true;
  table.start_kernel(16, exempt);
  vectors::Xoshiro256 rng(seed);
  for (uint64_t i = 0; i < count; ++i) {
    const auto warp = static_cast<uint16_t>(rng.below(config.max_warps));
    const auto reg = static_cast<uint16_t>(rng.below(config.max_regs_per_thread));
    const uint32_t kind = rng.below(16);
    vectors::Record& r = out.next();
    r.set("warp", warp);
    uint32_t phys = kNoPhysical;
    if (kind < 7) {
      r.set_enum("op", "write");
      phys = table.map_for_write(warp, reg);
    } else if (kind < 11) {
      r.set_enum("op", "read");
      phys = table.lookup(warp, reg);
    } else if (kind < 15) {
      r.set_enum("op", "release");
      r.set("freed", table.release(warp, reg) ? 1 : 0);
    } else {
      r.set_enum("op", "exit");
      r.set("freed", table.release_warp(warp));
    }
    if (kind < 15) r.set("reg", reg);
    if (phys != kNoPhysical) r.set("mapped", true).set("phys", phys);
    for (uint32_t b = 0; b < config.rf_banks; ++b)
      r.set("free_bank" + std::to_string(b), table.free_in_bank(b));
    out.emit();
  }
}

void write_release_flag_cache_steps(vectors::RecordSink& out, uint64_t count, uint64_t seed) {
  ReleaseFlagCache cache{ReleaseFlagCacheConfig{}};
  vectors::Xoshiro256 rng(seed);
  // pirs of a kernel of 40 metadata instructions, visited with locality like warps do.
  uint64_t pc = 0;
  for (uint64_t i = 0; i < count; ++i) {
    pc = rng.chance(0.7) ? (pc + 19 * 8) % (40 * 19 * 8) : uint64_t{rng.below(40)} * 19 * 8;
    vectors::Record& r = out.next();
    r.set("pc", pc);
    const bool hit = cache.probe(pc);
    r.set("hit", hit);
    if (hit) {
      r.set("flags", cache.flags(pc));
    } else {
      const uint64_t flags = rng.next() & ((uint64_t{1} << ReleaseFlagCacheConfig::kFlagBits) - 1);
      cache.fill(pc, flags);
      r.set("fill_flags", flags);
    }
    out.emit();
  }
}

}  // namespace

vectors::VectorGenerator rename_table_vector_generator() {
  const RenamingConfig config = rename_table_config();
  vectors::VectorGenerator g;
  g.name = "rename-table";
  g.block = "rfv-renaming-table";
  g.description =
      "RFV renaming table: seeded write / read / release / warp-exit operations with the "
      "physical register or release each returns and the free registers per bank";
  g.doc = "docs/vectors.md#rename-table";
  g.count_meaning = "operations";
  g.parameters = {
      {"warps", config.max_warps},
      {"registers", config.max_regs_per_thread},
      {"physical_registers", config.physical_registers},
      {"banks", config.rf_banks},
      {"exempt", {0, 1}},
      {"exempt_mapping", "warp * 2 + slot"},
      {"allocation", "bank (reg + warp) mod 4, lowest free entry; phys = entry * 4 + bank"}};
  using namespace vectors;
  g.fields = {enum_field("op", {"write", "read", "release", "exit"}),
              unsigned_field("warp", 2),
              unsigned_field("reg", 4),
              bool_field("mapped"),
              unsigned_field("phys", 6),
              unsigned_field("freed", 5)};
  for (uint32_t b = 0; b < config.rf_banks; ++b)
    g.fields.push_back(unsigned_field("free_bank" + std::to_string(b), 5));
  g.records = [](uint64_t count) { return count; };
  g.write = write_rename_table_steps;
  return g;
}

vectors::VectorGenerator release_flag_cache_vector_generator() {
  const ReleaseFlagCacheConfig config;
  vectors::VectorGenerator g;
  g.name = "release-flag-cache";
  g.block = "rfv-release-flag-cache";
  g.description =
      "RFV release flag cache: seeded pir probes with hit or miss, the flags a hit returns and "
      "the fill after a miss";
  g.doc = "docs/vectors.md#release-flag-cache";
  g.count_meaning = "probes";
  g.parameters = {{"entries", config.entries},
                  {"inst_bytes", config.inst_bytes},
                  {"pc_bits", config.pc_bits},
                  {"index", "(pc / inst_bytes) mod entries"},
                  {"flag_bits", ReleaseFlagCacheConfig::kFlagBits}};
  using namespace vectors;
  g.fields = {unsigned_field("pc", config.pc_bits), bool_field("hit"),
              unsigned_field("flags", ReleaseFlagCacheConfig::kFlagBits),
              unsigned_field("fill_flags", ReleaseFlagCacheConfig::kFlagBits)};
  g.records = [](uint64_t count) { return count; };
  g.write = write_release_flag_cache_steps;
  return g;
}

}  // namespace warpreg

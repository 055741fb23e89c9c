#pragma once
// Addresses for kernels that bring none (nvdisasm .dot, cuobjdump listings, profiles):
// each memory instruction gets a model that turns (warp, dynamic instance, lane) into a
// byte address. Models are pure functions of their inputs and the seed (a counter-based
// hash, no generator state), so the addresses do not depend on the order in which warps
// execute: a design that reorders issue sees the same addresses.
//
// A thread's index in the grid-stride sense is t = (instance x grid_warps + warp) x 32 +
// lane: instance k of a warp touches the k-th tile of the grid. Patterns:
//   coalesced  base + t x access_bytes                 (a[t]: one segment per 32 lanes)
//   strided    base + t x stride_bytes                 (a[t * s]: lanes stride_bytes apart)
//   random     base + hash(seed, pc, warp, k, lane) mod footprint, aligned to access_bytes
//   uniform    base + k x access_bytes                 (every lane the same word: a[k])
// With footprint_bytes > 0 an offset wraps within [base, base + footprint): a small
// footprint is cache-resident, a large one streams. With own_array (global, constant)
// the region starts at the instruction's own array (array_base) instead of address 0,
// and without a footprint wraps at the array's end. Spaces:
//   global, constant  as above (constant: usually uniform);
//   shared   offsets within a CTA's shared memory (footprint <= its size); bank conflicts
//            follow from the lanes' words (Coalescer);
//   local    per-thread private words laid out as GPGPU-Sim translate_local_memaddr does
//            (word w of hardware thread h at base_local + (w x threads + h) x 4): a warp's
//            4-byte local access is always one 128-byte segment. `base` is the variable's
//            offset in the thread's local frame (e.g. spill slot x 4); the pattern must be
//            coalesced.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "modules/memory/coalescer.h"

namespace warpreg::memory {

enum class AddressPattern : uint8_t { Coalesced, Strided, Random, Uniform };
std::string_view to_string(AddressPattern pattern);

/// The address model of one memory instruction.
struct AddressModelConfig {
  MemSpace space = MemSpace::Global;
  AddressPattern pattern = AddressPattern::Coalesced;
  uint32_t access_bytes = 4;  ///< bytes per lane: 1, 2, 4, 8 or 16
  uint64_t base = 0;          ///< first byte of the region (local: offset in the thread's frame)
  uint64_t stride_bytes = 4;  ///< strided: distance between consecutive threads
  uint64_t footprint_bytes =
      0;  ///< region size the offsets wrap in; 0 = no wrap (random needs > 0)
  /// Global and constant: `base` is an offset into the instruction's own array
  /// (array_base(space, pc)), so that instructions drawing one model do not share data.
  bool own_array = false;
  /// Throws ConfigError naming `name`.FIELD.
  void validate(std::string_view name) const;
};

/// The own array of the instruction at `pc` (AddressModelConfig::own_array): global
/// instructions one of 32 arrays of 64 MiB from 256 MiB up; constant ones one of 16
/// tables of 4 KiB (the 64 KiB constant space) at 240 MiB. Both below the local region.
uint64_t array_base(MemSpace space, uint64_t pc);
/// The size of each own array of `space` (64 MiB global, 4 KiB constant; 0 otherwise).
uint64_t array_bytes(MemSpace space);

/// Where in the machine a warp executes (what local addresses depend on) and which
/// execution of the instruction this is.
struct AccessSite {
  uint64_t warp = 0;        ///< warp index in the grid (CTA x warps per CTA + warp in CTA)
  uint64_t grid_warps = 1;  ///< warps in the grid
  uint64_t instance = 0;    ///< how many times this warp executed the instruction before
  uint32_t sm = 0;          ///< SM the warp runs on (local space)
  uint32_t warp_slot = 0;   ///< its hardware warp slot there (local space)
};

/// Geometry of the local-memory layout (GPGPU-Sim: -gpgpu_n_clusters x
/// -gpgpu_shader_core_pipeline threads).
struct LocalLayout {
  uint64_t base = 0xC0000000ull;  ///< start of the local region in the modelled address space
  uint32_t sms = 15;
  uint32_t threads_per_sm = 1536;
  uint64_t threads() const { return uint64_t(sms) * threads_per_sm; }
};

class AddressModel {
 public:
  AddressModel(const AddressModelConfig& config, uint64_t seed, uint64_t pc,
               const LocalLayout& local = {}, std::string_view name = "address_model");

  const AddressModelConfig& config() const { return config_; }
  /// The addresses of the active lanes; fills `out`'s address, active, bytes and space
  /// (kind and the rest are the caller's). Inactive lanes get address 0.
  void generate(const AccessSite& site, LaneMask active, WarpAccess& out) const;
  uint64_t address(const AccessSite& site, uint32_t lane) const;

 private:
  AddressModelConfig config_;
  uint64_t seed_;
  uint64_t pc_;
  LocalLayout local_;
};

/// The SM's default model of a space, as its load/store unit applies it to an instruction
/// without a model: global coalesced over the instruction's own array, constant uniform
/// over its own table, shared and local coalesced (4 bytes per lane).
AddressModelConfig default_model(MemSpace space);

/// The region a shared-memory model without a footprint wraps in: the CTA's shared
/// memory (at least 512 bytes), whole `access_bytes` words.
uint64_t shared_region_bytes(uint64_t shared_mem_per_cta, uint32_t access_bytes);

/// A share of a benchmark's memory instructions, drawn by PC, and the model they take.
struct AddressShare {
  double share = 0;  ///< fraction of the static memory instructions, (0, 1]
  AddressModelConfig model;
};

/// A benchmark's address models: one per memory instruction it names by PC, shares of
/// the others drawn by PC, and one default per space for the rest. JSON:
/// {"benchmark": "bfs", "seed": 1, "rationale": "...",
///  "defaults": {"global": {MODEL}, "local": {MODEL}, ...},
///  "shares": [{"share": 0.3, "space": "global", MODEL...}, ...],
///  "instructions": [{"pc": 72, MODEL...}, ...]}
/// where MODEL = {"pattern": "coalesced|strided|random|uniform", "access_bytes": 4,
///                "base": 0, "stride_bytes": 4, "footprint_bytes": 0,
///                "array": "fixed|own"} (omitted fields keep their defaults; a "space"
/// field is required in "shares" and "instructions").
struct AddressMix {
  std::string benchmark;
  std::string rationale;  ///< why the benchmark's accesses look like this
  uint64_t seed = 1;
  std::map<MemSpace, AddressModelConfig> defaults;
  std::vector<AddressShare> shares;  ///< global, shared or constant; at most 1 in all
  std::map<uint64_t, AddressModelConfig> instructions;  ///< by PC

  /// The model of the instruction at `pc`: its own; else, by a draw on (seed, pc) over
  /// the shares (an instruction whose code declares `space` among the shares of that
  /// space, one without (`declared` false: profiles) among all of them; a store never
  /// draws a constant share); else the mix's default of its space (global when
  /// undeclared), else default_model of that space.
  AddressModelConfig model_for(uint64_t pc, MemSpace space, bool declared = true,
                               bool store = false) const;
  /// Throws ConfigError naming `name`.FIELD (e.g. "bfs.instructions[2].pattern").
  void validate(std::string_view name) const;
  nlohmann::json to_json() const;
  /// Throws ConfigError naming the offending field of `where` (a file name or label).
  static AddressMix from_json(const nlohmann::json& j, std::string_view where);
};

}  // namespace warpreg::memory

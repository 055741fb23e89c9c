#include "modules/regmutex/regmutex_vectors.h"

#include <algorithm>
#include <memory>

#include "modules/regmutex/regmutex_core.h"

namespace warpreg::regmutex {

namespace {

constexpr uint32_t kMaxWarps = 48;  // N_w of the paper's baseline (seed 003 §III-B1)
constexpr uint32_t kWarpBits = 6;   // ceil(log2 N_w)
constexpr uint32_t kIndexBits = 8;  // architected register index X
constexpr uint32_t kPhysBits = 10;  // 1024 warp registers (the 128 KB file)
constexpr uint32_t kRestartEvery = 512;

RegMutexGeometry paper_geometry() {
  RegMutexGeometry g;
  g.mode = RegMutexMode::Shared;
  g.max_warps = kMaxWarps;
  g.bs = 18;
  g.es = 6;
  g.sections = 26;
  g.srp_offset = kMaxWarps * g.bs;
  return g;
}

/// A random launch geometry whose physical registers fit kPhysBits.
RegMutexGeometry random_geometry(vectors::SplitMix64& rng) {
  RegMutexGeometry g;
  g.max_warps = kMaxWarps;
  g.bs = 1 + rng.below(16);
  if (rng.below(4) == 0) {
    g.mode = RegMutexMode::Paired;  // (N_w / 2) × (2|B_s| + |E_s|) <= 1024
    g.es = 1 + rng.below(42 - 2 * g.bs);
    return g;
  }
  g.mode = RegMutexMode::Shared;
  g.es = 1 + rng.below(16);
  const uint32_t room = ((1u << kPhysBits) - kMaxWarps * g.bs) / g.es;
  g.sections = 1 + rng.below(std::min(kMaxWarps, room));
  g.srp_offset = kMaxWarps * g.bs;
  return g;
}

class Stepper {
 public:
  explicit Stepper(vectors::RecordSink& out) : out_(out) {}

  void start(const RegMutexGeometry& g) {
    alloc_ = std::make_unique<RegMutexAllocator>(g);
    emit("start", 0, 0, "none", false);
  }
  void acquire(uint32_t warp, uint32_t x) {
    const bool held = alloc_->holds(warp);
    const char* outcome = "stall";
    switch (alloc_->acquire(warp, 0)) {
      case AcquireOutcome::Acquired:
        outcome = "acquired";
        break;
      case AcquireOutcome::AlreadyHeld:
        outcome = "no_effect";
        break;
      case AcquireOutcome::NoSection:
        break;
    }
    emit("acquire", warp, x, outcome, held);
  }
  void release(uint32_t warp, uint32_t x) {
    const bool held = alloc_->holds(warp);
    emit("release", warp, x, alloc_->release(warp) ? "released" : "no_effect", held);
  }
  const RegMutexGeometry& geometry() const { return alloc_->geometry(); }

 private:
  void emit(const char* op, uint32_t warp, uint32_t x, const char* outcome, bool held_before) {
    const RegMutexGeometry& g = alloc_->geometry();
    vectors::Record& r = out_.next();
    r.set_enum("op", op);
    r.set("warp", warp);
    r.set("x", x);
    r.set_enum("mode", to_string(g.mode));
    r.set("sections", g.sections);
    r.set("bs", g.bs);
    r.set("es", g.es);
    r.set("srp_offset", g.srp_offset);
    r.set_enum("outcome", outcome);
    const bool holds = alloc_->holds(warp);
    r.set("holds", holds);
    if (holds || held_before) r.set("section", alloc_->section_of(warp));
    uint32_t srp[2] = {0, 0}, status[2] = {0, 0};
    for (uint32_t i = 0; i < kMaxWarps; ++i) {
      srp[i / 32] |= uint32_t{alloc_->srp_bit(i)} << (i % 32);
      status[i / 32] |= uint32_t{alloc_->holds(i)} << (i % 32);
    }
    r.set_words("srp_bitmask", srp, 2);
    r.set_words("warp_status", status, 2);
    const bool extended = x >= g.bs;
    const bool fault = extended && !holds;
    r.set("extended", extended);
    r.set("fault", fault);
    if (!fault) r.set("phys", alloc_->physical(warp, x));
    out_.emit();
  }

  vectors::RecordSink& out_;
  std::unique_ptr<RegMutexAllocator> alloc_;
};

/// Architected index k of a boundary step: the first and last base and extended register.
uint32_t edge_index(const RegMutexGeometry& g, uint32_t k) {
  const uint32_t edges[] = {0, g.bs - 1, g.bs, g.bs + g.es - 1};
  return edges[k % 4];
}

void write_boundary(Stepper& s) {
  uint64_t steps = 0;
  const auto acquire = [&](uint32_t warp) { s.acquire(warp, edge_index(s.geometry(), steps++)); };
  const auto release = [&](uint32_t warp) { s.release(warp, edge_index(s.geometry(), steps++)); };
  const auto start = [&](const RegMutexGeometry& g) {
    s.start(g);
    ++steps;
  };
  // The paper's example: 26 sections, the SRP bits of sections 26..47 preset.
  start(paper_geometry());
  for (uint32_t warp = 0; warp < 27; ++warp) acquire(warp);  // the 27th stalls
  acquire(3);                                                // held: no effect
  release(5);
  release(5);   // not held: no effect
  acquire(26);  // find-first-zero: section 5
  release(40);  // never acquired
  for (uint32_t warp = 0; warp < kMaxWarps; ++warp) release(warp);
  // A start while warps hold sections clears them.
  acquire(7);
  acquire(8);
  start(paper_geometry());
  acquire(8);  // section 0 again
  // A pool of N_w sections: no preset bit, every warp gets one.
  RegMutexGeometry full = paper_geometry();
  full.bs = 15;
  full.sections = kMaxWarps;
  full.srp_offset = kMaxWarps * full.bs;
  start(full);
  for (uint32_t warp = kMaxWarps; warp-- > 0;) acquire(warp);
  release(0);
  acquire(0);
  // A single section.
  RegMutexGeometry one = paper_geometry();
  one.sections = 1;
  start(one);
  acquire(1);
  acquire(0);  // stall
  release(1);
  acquire(0);
  // Paired warps: warps 2p and 2p+1 share unit p's extended set.
  RegMutexGeometry paired = paper_geometry();
  paired.mode = RegMutexMode::Paired;
  paired.sections = 0;
  paired.srp_offset = 0;
  start(paired);
  acquire(0);
  acquire(1);  // its partner holds the set: stall
  acquire(2);
  release(1);  // not held: no effect
  release(0);
  acquire(1);
  acquire(1);  // held: no effect
  acquire(47);
  acquire(46);  // stall
  for (uint32_t warp = 0; warp < kMaxWarps; ++warp) release(warp);
  // The random steps run in the paper's geometry until their first restart.
  start(paper_geometry());
}

}  // namespace

vectors::VectorGenerator vector_generator() {
  vectors::VectorGenerator g;
  g.name = "regmutex";
  g.block = "srp-allocator";
  g.description =
      "RegMutex SRP allocator and mapping unit (N_w = 48): kernel start, acquire, release -> "
      "outcome, section, SRP and warp-status bitmasks, the physical register of one index";
  g.doc = "docs/vectors.md#regmutex";
  g.count_meaning = "random acquire/release steps after the fixed boundary set";
  g.parameters = {{"max_warps", kMaxWarps}, {"warp_bits", kWarpBits}, {"index_bits", kIndexBits},
                  {"phys_bits", kPhysBits}, {"response_latency", 1},  {"mapping_latency", 0}};
  using namespace vectors;
  g.fields = {enum_field("op", {"start", "acquire", "release"}),
              unsigned_field("warp", kWarpBits),
              unsigned_field("x", kIndexBits),
              enum_field("mode", {"shared", "paired"}),
              unsigned_field("sections", kWarpBits),
              unsigned_field("bs", kIndexBits),
              unsigned_field("es", kIndexBits),
              unsigned_field("srp_offset", kPhysBits),
              enum_field("outcome", {"none", "acquired", "released", "no_effect", "stall"}),
              bool_field("holds"),
              unsigned_field("section", kWarpBits),
              unsigned_field("srp_bitmask", kMaxWarps),
              unsigned_field("warp_status", kMaxWarps),
              bool_field("extended"),
              bool_field("fault"),
              unsigned_field("phys", kPhysBits)};
  g.write = [](RecordSink& out, uint64_t count, uint64_t seed) {
    Stepper s(out);
    write_boundary(s);
    SplitMix64 rng(seed);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t r = rng.next();
      if ((r >> 40) % kRestartEvery == 0) {
        s.start(random_geometry(rng));
        continue;
      }
      const auto warp = static_cast<uint32_t>(r % kMaxWarps);
      const auto x = static_cast<uint32_t>((r >> 16) % (s.geometry().bs + s.geometry().es));
      if ((r >> 8) & 1)
        s.acquire(warp, x);
      else
        s.release(warp, x);
    }
  };
  return g;
}

}  // namespace warpreg::regmutex

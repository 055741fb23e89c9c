#include "modules/regmutex/regmutex_vectors.h"

#include <cstdio>

#include "modules/regmutex/regmutex_core.h"

namespace warpreg::regmutex {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Writer {
 public:
  Writer(std::ostream& out, RegMutexAllocator& alloc) : out_(out), alloc_(alloc) {}
  void step(bool acquire, uint32_t warp) {
    const char* outcome;
    if (acquire) {
      switch (alloc_.acquire(warp, 0)) {
        case AcquireOutcome::Acquired:
          outcome = "acquired";
          break;
        case AcquireOutcome::AlreadyHeld:
          outcome = "no_effect";
          break;
        default:
          outcome = "stall";
      }
    } else {
      outcome = alloc_.release(warp) ? "released" : "no_effect";
    }
    const uint32_t nw = alloc_.geometry().max_warps;
    uint64_t mask = 0;
    for (uint32_t i = 0; i < nw && i < 64; ++i) mask |= uint64_t(alloc_.srp_bit(i)) << i;
    const bool holds = alloc_.holds(warp);
    char line[200];
    std::snprintf(
        line, sizeof line, "%llu,%s,%u,%s,%d,%012llx,%u,%lld\n",
        static_cast<unsigned long long>(rows_), acquire ? "acquire" : "release", warp, outcome,
        holds ? int(alloc_.section_of(warp)) : -1, static_cast<unsigned long long>(mask),
        alloc_.physical(warp, 0),
        holds ? static_cast<long long>(alloc_.physical(warp, alloc_.geometry().bs)) : -1LL);
    out_ << line;
    ++rows_;
  }
  uint64_t rows() const { return rows_; }

 private:
  std::ostream& out_;
  RegMutexAllocator& alloc_;
  uint64_t rows_ = 0;
};

}  // namespace

uint64_t write_vectors(std::ostream& out, uint64_t count, uint64_t seed) {
  RegMutexGeometry g;
  g.mode = RegMutexMode::Shared;
  g.max_warps = 48;
  g.bs = 18;
  g.es = 6;
  g.sections = 26;
  g.srp_offset = 48 * 18;
  RegMutexAllocator alloc(g);
  out << "# RegMutex SRP allocator (seed 003 Fig. 5): N_w=48 B_s=18 E_s=6 sections=26 "
         "SRP_offset=864\n"
         "step,op,warp,outcome,section,srp_bitmask_hex,phys_x0,phys_x_bs\n";
  Writer w(out, alloc);
  for (uint32_t warp = 0; warp < 27; ++warp) w.step(true, warp);  // the 27th stalls
  w.step(true, 3);                                                // double acquire
  w.step(false, 5);
  w.step(false, 5);   // double release
  w.step(true, 26);   // takes section 5
  w.step(false, 40);  // never acquired
  for (uint32_t warp = 0; warp < 48; ++warp) w.step(false, warp);
  uint64_t state = seed;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t r = splitmix64(state);
    w.step((r >> 8) & 1, static_cast<uint32_t>(r % 48));
  }
  return w.rows();
}

}  // namespace warpreg::regmutex

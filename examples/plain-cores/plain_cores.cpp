// warpreg's plain-C++ cores without SystemC: compress a warp register with the BDI codec
// of Warped-Compression and take a shared-register-pool section with the RegMutex
// allocator, checking what each returns. warpreg_bdi_compress has the shape of a DPI-C
// import (C types only), the way an RTL testbench calls a core as its reference model:
//   import "DPI-C" function int warpreg_bdi_compress(input byte unsigned value[128],
//                                                    output byte unsigned image[128]);
// Exit status 0 when every check holds.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "modules/bdi/bdi_core.h"
#include "modules/regmutex/regmutex_core.h"

extern "C" int warpreg_bdi_compress(const uint8_t* value, uint8_t* image) {
  warpreg::WarpRegister reg;
  std::memcpy(reg.bytes(), value, warpreg::kWarpRegisterBytes);
  const warpreg::bdi::Compressed c = warpreg::bdi::Codec().compress(reg);
  std::memcpy(image, c.bytes.data(), c.bytes.size());
  return static_cast<int>(c.banks());
}

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

}  // namespace

int main() {
  using namespace warpreg;

  // Addresses of 32 threads, 4 bytes apart: base 0x1000, deltas 0..124 fit one byte.
  WarpRegister addresses;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) addresses.lane[lane] = 0x1000 + 4 * lane;
  const bdi::Codec codec;
  const bdi::Compressed c = codec.compress(addresses);
  std::printf("BDI: %s, %u bytes in %u of %u banks\n", c.encoding.name().c_str(),
              c.encoding.bytes(), c.banks(), bdi::kUncompressedBanks);
  check(c.encoding == bdi::Encoding{4, 1}, "32 addresses 4 bytes apart compress as <4,1>");
  check(c.banks() == 3, "<4,1> takes 4 + 31 bytes: 3 banks of 16 bytes");
  check(bdi::unpack(c) == addresses, "decompression returns the register bit for bit");

  uint8_t image[kWarpRegisterBytes];
  check(warpreg_bdi_compress(addresses.bytes(), image) == 3 &&
            std::memcmp(image, c.bytes.data(), sizeof image) == 0,
        "the DPI-C shaped wrapper returns the same image");

  WarpRegister noise;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) noise.lane[lane] = lane * 0x9e3779b9u;
  check(!codec.compress(noise).encoding.compressed(), "unrelated values stay uncompressed");

  // RegMutex (seed 003): 8 warps, 10 base registers each, a pool of 2 sections of 6.
  RegMutexGeometry g;
  g.mode = RegMutexMode::Shared;
  g.max_warps = 8;
  g.bs = 10;
  g.es = 6;
  g.sections = 2;
  g.srp_offset = g.max_warps * g.bs;
  RegMutexAllocator srp(g);
  srp.start_kernel();
  check(srp.acquire(3, 0) == AcquireOutcome::Acquired, "warp 3 takes a section");
  check(srp.acquire(5, 0) == AcquireOutcome::Acquired, "warp 5 takes the other");
  check(srp.acquire(6, 0) == AcquireOutcome::NoSection, "warp 6 waits: the pool is empty");
  std::printf("RegMutex: warp 3 holds section %u; its register 12 is physical %u\n",
              srp.section_of(3), srp.physical(3, 12));
  check(srp.physical(3, 4) == 3 * 10 + 4, "a base register maps to the warp's base set");
  check(srp.physical(3, 12) == g.srp_offset + srp.section_of(3) * 6 + 2,
        "an extended register maps into the warp's SRP section");
  check(srp.release(3) && srp.acquire(6, 0) == AcquireOutcome::Acquired,
        "a released section goes to the waiting warp");

  std::printf("%s\n", failures == 0 ? "all checks passed" : "checks failed");
  return failures == 0 ? 0 : 1;
}

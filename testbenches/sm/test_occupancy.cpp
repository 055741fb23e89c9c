// Occupancy: how many CTAs fit, which resource limits, and the error when none fits.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "modules/interfaces/occupancy.h"

using namespace warpreg;

namespace {
KernelShape kernel(uint32_t threads, uint32_t regs, uint32_t smem = 0) {
  KernelShape k;
  k.name = "k";
  k.ctas = 100;
  k.threads_per_cta = threads;
  k.regs_per_thread = regs;
  k.shared_mem_per_cta = smem;
  return k;
}
}  // namespace

TEST_CASE("registers are rounded to the allocation granularity and limit CTAs", "[occupancy]") {
  const Occupancy o = compute_occupancy(SmLimits{}, kernel(256, 21));
  CHECK(o.regs_per_thread == 24);
  CHECK(o.warps_per_cta == 8);
  CHECK(o.ctas == 5);  // 32768 / (24 x 256)
  CHECK(o.limiter == "registers");
}

TEST_CASE("threads warps CTA slots and shared memory each limit occupancy", "[occupancy]") {
  SmLimits fewer_threads;
  fewer_threads.max_threads = 1024;  // 1024/512 = 2 CTAs, below the 48/16 = 3 of warp slots
  CHECK(compute_occupancy(fewer_threads, kernel(512, 8)).limiter == "threads");
  CHECK(compute_occupancy(fewer_threads, kernel(512, 8)).ctas == 2);
  CHECK(compute_occupancy(SmLimits{}, kernel(512, 8)).ctas == 3);
  CHECK(compute_occupancy(SmLimits{}, kernel(64, 8)).limiter == "ctas");
  CHECK(compute_occupancy(SmLimits{}, kernel(64, 8)).ctas == 8);
  const Occupancy smem = compute_occupancy(SmLimits{}, kernel(64, 8, 20000));
  CHECK(smem.ctas == 2);
  CHECK(smem.limiter == "shared memory");
  // A partial warp takes a whole warp slot.
  CHECK(compute_occupancy(SmLimits{}, kernel(33, 8)).warps_per_cta == 2);
}

TEST_CASE("a register file too small for one CTA is a clear error", "[occupancy][bad-input]") {
  SmLimits small;
  small.registers = 1024;
  try {
    compute_occupancy(small, kernel(256, 63));
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("registers too small for one CTA") != std::string::npos);
    CHECK(msg.find("sm.registers = 1024") != std::string::npos);
  }
}

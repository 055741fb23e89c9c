// The compiler-spill model: registers above the limit move to local memory with a
// load before each read and a store after each write, values unchanged.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "stimuli/driver/spilling_workload.h"

using namespace warpreg;

namespace {

class TwoInstructions : public Workload {
 public:
  TwoInstructions() {
    shape_.name = "two";
    shape_.threads_per_cta = 32;
    shape_.regs_per_thread = 8;
    WarpInst write;  // R7 = A
    write.pc = 0x0;
    write.num_dst = 1;
    write.dst[0] = 7;
    WarpInst read;  // R1 = f(R7, R0)
    read.pc = 0x8;
    read.num_dst = 1;
    read.dst[0] = 1;
    read.num_src = 2;
    read.src[0] = 7;
    read.src[1] = 0;
    read.value_index = 1;
    WarpInst exit;
    exit.pc = 0x10;
    exit.cls = InstClass::Exit;
    stream_.insts = {write, read, exit};
    stream_.values.resize(2);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      stream_.values[0].lane[l] = 100 + l;
      stream_.values[1].lane[l] = 200 + l;
    }
  }
  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t, uint32_t) override {
    return slots_.play(slot, stream_);
  }
  std::string describe() const override { return "two"; }

 private:
  KernelShape shape_;
  WarpTrace stream_;
  StoredStreamSlots slots_;
};

}  // namespace

TEST_CASE("spilling: spilled registers go through scratch registers and memory",
          "[stimuli][spill]") {
  SpillingWorkload spilled(std::make_unique<TwoInstructions>(), 6);  // keep R0, R1
  CHECK(spilled.shape().regs_per_thread == 6);
  CHECK(spilled.kept_registers() == 2);
  const WarpTrace s = record(spilled.load_warp(0, 0, 0));
  REQUIRE(s.insts.size() == 5);   // write, store, load, read, exit
  CHECK(s.insts[0].dst[0] == 2);  // R7 written to scratch R2
  CHECK(s.insts[1].cls == InstClass::Store);
  CHECK(s.insts[1].src[0] == 2);
  CHECK(s.insts[2].cls == InstClass::Load);
  CHECK(s.insts[2].dst[0] == 2);
  CHECK(s.values[s.insts[2].value_index] == s.values[s.insts[0].value_index]);  // reloads A
  CHECK(s.insts[3].src[0] == 2);
  CHECK(s.insts[3].src[1] == 0);  // kept registers are untouched
  CHECK(s.insts[3].dst[0] == 1);
  CHECK(s.values[s.insts[3].value_index].lane[5] == 205);
  CHECK(s.insts[4].cls == InstClass::Exit);
}

TEST_CASE("spilling: the limit keeps the reference occupancy", "[stimuli][spill]") {
  KernelShape k;
  k.threads_per_cta = 256;
  k.regs_per_thread = 22;
  k.ctas = 100;
  // 128 KB: 5 CTAs of 8 warps x 24 registers fit (40 warps); 64 KB keeps 40 warps
  // with 16384 / 32 / 40 = 12 registers.
  const Params half = Params::load("rfv-baseline", {"sm.registers=16384"});
  CHECK(recompiled_register_limit(k, half, 32768) == 12);
  const Params full = Params::load("rfv-baseline", {});
  CHECK(recompiled_register_limit(k, full, 32768) == 22);
  CHECK_THROWS_AS(SpillingWorkload(std::make_unique<TwoInstructions>(), 4), WorkloadError);
  CHECK_THROWS_AS(SpillingWorkload(std::make_unique<TwoInstructions>(), 8), WorkloadError);
}

// The compiler-spill model: the cheapest registers move to local memory; a value is
// filled once per basic block and stored after each write, values unchanged.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/spilling_workload.h"
#include "testbenches/support/kernel_builder.h"

using namespace warpreg;

namespace {

WarpInst op(uint64_t pc, std::initializer_list<uint16_t> dst, std::initializer_list<uint16_t> src,
            InstClass cls = InstClass::Alu) {
  WarpInst i;
  i.pc = pc;
  i.cls = cls;
  for (uint16_t r : dst) i.dst[i.num_dst++] = r;
  for (uint16_t r : src) i.src[i.num_src++] = r;
  return i;
}

/// A trace without static code, eight registers:
///   0x00 R1 = f(R0)           0x08 R2 = f(R1, R0)       0x10 R3 = f(R1, R0)
///   0x18 BRA (reads R3)       0x20 R4 = f(R1, R3, R0)   0x28 EXIT
/// Uses in the stream: R0 4, R1 4, R3 3, R2 1, R4 1, the others none.
class SixInstructions : public Workload {
 public:
  SixInstructions() {
    shape_.name = "six";
    shape_.threads_per_cta = 32;
    shape_.regs_per_thread = 8;
    stream_.insts = {op(0x00, {1}, {0}),       op(0x08, {2}, {1, 0}),
                     op(0x10, {3}, {1, 0}),    op(0x18, {}, {3}, InstClass::Branch),
                     op(0x20, {4}, {1, 3, 0}), op(0x28, {}, {}, InstClass::Exit)};
    uint32_t value = 0;
    for (WarpInst& i : stream_.insts) {
      i.value_index = static_cast<uint32_t>(stream_.values.size());
      for (unsigned k = 0; k < i.num_dst; ++k) {
        WarpRegister v;
        for (unsigned l = 0; l < kWarpSize; ++l) v.lane[l] = 100 * ++value + l;
        stream_.values.push_back(v);
      }
    }
  }
  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t slot, uint32_t, uint32_t) override {
    return slots_.play(slot, stream_);
  }
  std::string describe() const override { return "six"; }

 private:
  KernelShape shape_;
  WarpTrace stream_;
  StoredStreamSlots slots_;
};

}  // namespace

// Chaitin's cost on the trace's own uses: R0 and R1 (4 uses each) stay in registers;
// R3, written once and read twice, goes to local memory. A value is filled once per
// basic block: the branch reads R3 from the scratch register its write left it in, and
// only after the branch is it loaded again.
TEST_CASE("spilling: the cheapest registers go to local memory and a fill serves its block",
          "[stimuli][spill]") {
  SpillingWorkload spilled(std::make_unique<SixInstructions>(), 6);  // 2 kept + 4 scratch
  CHECK(spilled.shape().regs_per_thread == 6);
  CHECK(spilled.kept_registers() == 2);
  CHECK_FALSE(spilled.spilled().test(0));
  CHECK_FALSE(spilled.spilled().test(1));
  CHECK(spilled.spilled().test(3));
  const WarpTrace s = record(spilled.load_warp(0, 0, 0));
  // R0 -> R0, R1 -> R1; scratch registers are R2..R5.
  std::vector<InstClass> classes;
  for (const WarpInst& i : s.insts) classes.push_back(i.cls);
  const std::vector<InstClass> expected = {
      InstClass::Alu,    InstClass::Alu,  InstClass::Store, InstClass::Alu,   InstClass::Store,
      InstClass::Branch, InstClass::Load, InstClass::Alu,   InstClass::Store, InstClass::Exit};
  REQUIRE(classes == expected);
  CHECK(s.insts[0].dst[0] == 1);
  CHECK(s.insts[0].src[0] == 0);
  const uint16_t r3 = s.insts[3].dst[0];  // R3's value, in a scratch register
  CHECK(r3 >= 2);
  CHECK(s.insts[4].src[0] == r3);  // stored
  CHECK(s.insts[5].src[0] == r3);  // the branch reads it without a fill
  CHECK(s.insts[6].dst[0] >= 2);   // after the branch: filled again
  CHECK(s.insts[7].src[1] == s.insts[6].dst[0]);
  CHECK(s.values[s.insts[6].value_index] == s.values[s.insts[3].value_index]);
  // Spill and fill name R3's local-memory word; other instructions none.
  CHECK(s.insts[4].local_word == s.insts[6].local_word);
  CHECK(s.insts[4].local_word != kNoLocalWord);
  CHECK(s.insts[3].local_word == kNoLocalWord);
  CHECK(s.insts[7].dst[0] >= 2);  // R4 is spilled too: written to scratch, stored
  CHECK(s.insts[8].cls == InstClass::Store);
}

// With static code the cost weighs each use by 10^(loop depth): loop_kernel's R4 (two
// uses in the loop body) stays in a register and R8 (one use in the loop's header, one
// before it) is spilled, where numbering alone would have spilled R4 and kept R2.
TEST_CASE("spilling: a register used inside a loop costs more than one used outside",
          "[stimuli][spill]") {
  KernelRunConfig config;
  config.shape.name = "loop";
  config.shape.threads_per_cta = 32;
  config.shape.regs_per_thread = 9;
  auto inner = std::make_unique<KernelWorkload>(warpreg::testing::loop_kernel(), config, "loop");
  SpillingWorkload spilled(std::move(inner), 7);  // 3 kept + 4 scratch
  const std::vector<double>& cost = spilled.spill_costs();
  CHECK(cost[0] == 41);  // a write before the loop, 4 uses in it
  CHECK(cost[8] == 11);
  CHECK(cost[4] == 20);
  CHECK_FALSE(spilled.spilled().test(0));
  CHECK_FALSE(spilled.spilled().test(1));
  CHECK_FALSE(spilled.spilled().test(4));
  CHECK(spilled.spilled().test(8));
  CHECK(record(spilled.load_warp(0, 0, 0)).insts.size() > 0);
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
  CHECK_THROWS_AS(SpillingWorkload(std::make_unique<SixInstructions>(), 4), WorkloadError);
  CHECK_THROWS_AS(SpillingWorkload(std::make_unique<SixInstructions>(), 8), WorkloadError);
}

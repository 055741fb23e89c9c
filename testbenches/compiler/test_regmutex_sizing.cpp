#include <catch2/catch.hpp>
#include <iterator>
#include <string>
#include <vector>

#include "designs/regmutex/compiler/regmutex_sizing.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "stimuli/kernel/kernel_ir.h"

using namespace warpreg;

namespace {

RegMutexSizingInput input(uint32_t regs, uint32_t threads = 256, uint32_t live_at_barrier = 0) {
  RegMutexSizingInput in;
  in.regs_per_thread = regs;
  in.threads_per_cta = threads;
  in.live_at_barrier = live_at_barrier;
  return in;
}

const RegMutexCandidate& candidate(const RegMutexSizing& s, uint32_t es) {
  for (const RegMutexCandidate& c : s.candidates)
    if (c.es == es && c.warps != 0) return c;
  FAIL("no evaluated candidate with E_s = " << es);
  return s.candidates.front();
}

/// One block: R0..R23 written, then `body` (SASS lines), then EXIT.
Kernel straight_kernel(const std::vector<std::string>& body) {
  Kernel k;
  k.name = "synthetic";
  BasicBlock b;
  uint64_t pc = 0;
  for (int r = 0; r < 24; ++r) {
    b.insts.push_back(parse_sass("MOV R" + std::to_string(r) + ", c[0x0][0x20]", pc));
    pc += 8;
  }
  for (const std::string& line : body) {
    b.insts.push_back(parse_sass(line, pc));
    pc += 8;
  }
  b.insts.push_back(parse_sass("EXIT", pc));
  k.blocks.push_back(b);
  return k;
}

/// IADD R0 chain reading R1..R23 once each, so each dies at its read.
std::vector<std::string> reduce_into_r0() {
  std::vector<std::string> lines;
  for (int r = 1; r < 24; ++r) lines.push_back("IADD R0, R0, R" + std::to_string(r));
  return lines;
}

}  // namespace

TEST_CASE("regmutex sizing: seed 003 worked example") {
  // 24 registers on a 48-warp 32K-register SM; 256-thread CTAs make registers the only
  // limiter (baseline 5 CTAs = 40 warps), as the example assumes.
  const RegMutexSizing s = choose_regmutex_sizing(input(24));
  CHECK(s.allocated_regs == 24);
  CHECK(s.baseline.warps() == 40);
  CHECK(s.baseline.limiter == "registers");

  std::vector<uint32_t> es;
  for (const RegMutexCandidate& c : s.candidates) es.push_back(c.es);
  CHECK(es == std::vector<uint32_t>{2, 3, 4, 6, 7, 8});  // floor(24 x {0.1 .. 0.35})
  CHECK(candidate(s, 2).warps == 40);
  CHECK(candidate(s, 2).verdict == "occupancy 40 warps < best 48");
  // The example's figures: |B_s| 20, 18, 16 at full occupancy leave 16, 26, 32 sections.
  CHECK(candidate(s, 4).bs == 20);
  CHECK(candidate(s, 4).warps == 48);
  CHECK(candidate(s, 4).sections == 16);
  CHECK(candidate(s, 6).bs == 18);
  CHECK(candidate(s, 6).warps == 48);
  CHECK(candidate(s, 6).sections == 26);
  CHECK(candidate(s, 8).bs == 16);
  CHECK(candidate(s, 8).warps == 48);
  CHECK(candidate(s, 8).sections == 32);
  CHECK(candidate(s, 8).verdict == "a smaller E_s already exceeds half the warps");
  CHECK(candidate(s, 4).verdict == "16 sections <= half of 48 warps");

  CHECK(s.es == 6);
  CHECK(s.bs == 18);
  CHECK(s.sections == 26);
  CHECK(candidate(s, 6).chosen);
  CHECK(s.occupancy.warps() == 48);
  CHECK(s.occupancy.ctas == 6);
  CHECK(s.srp_offset == 48 * 18);
  CHECK(s.srp_registers == 26 * 6);
  CHECK(s.srp_offset + s.srp_registers <= 1024);
}

TEST_CASE("regmutex sizing: registers are rounded up to the allocation granularity") {
  // Table I: BFS and MRI-Q ask for 21 registers, allocated 24, base set 18.
  const RegMutexSizing s = choose_regmutex_sizing(input(21));
  CHECK(s.allocated_regs == 24);
  CHECK(s.bs == 18);
  CHECK(s.es == 6);
  // Table I: CUTCP asks for 25, allocated 28, base set 20.
  const RegMutexSizing cutcp = choose_regmutex_sizing(input(25));
  CHECK(cutcp.allocated_regs == 28);
  CHECK(cutcp.bs == 20);
  CHECK(cutcp.es == 8);
}

TEST_CASE("regmutex sizing: no occupancy gain means no extended set") {
  // 16 registers x 1536 threads fit: registers do not limit, every register is base.
  const RegMutexSizing s = choose_regmutex_sizing(input(16));
  CHECK(s.baseline.warps() == 48);
  CHECK(s.es == 0);
  CHECK(s.bs == 16);
  CHECK(s.sections == 0);
  CHECK(s.occupancy.warps() == s.baseline.warps());
  for (const RegMutexCandidate& c : s.candidates) CHECK_FALSE(c.chosen);
  CHECK(s.decision.find("not applied") != std::string::npos);
}

TEST_CASE("regmutex sizing: live registers at a barrier force a larger base set") {
  // 19 live at a barrier rules out |B_s| = 18 and 16: |E_s| = 4 is left at full
  // occupancy, with 16 sections (not above half, but the most available).
  const RegMutexSizing s19 = choose_regmutex_sizing(input(24, 256, 19));
  CHECK(candidate(s19, 6).verdict == "deadlock: B_s 18 < 19 registers live at a barrier");
  CHECK(candidate(s19, 8).verdict == "deadlock: B_s 16 < 19 registers live at a barrier");
  CHECK(s19.es == 4);
  CHECK(s19.bs == 20);
  CHECK(s19.sections == 16);
  CHECK(s19.occupancy.warps() == 48);
  // 21 live leaves only |B_s| = 22, which does not beat the baseline 40 warps.
  const RegMutexSizing s21 = choose_regmutex_sizing(input(24, 256, 21));
  CHECK(s21.es == 0);
  CHECK(s21.bs == 24);
  // 18 live is exactly |B_s| = 18: allowed.
  CHECK(choose_regmutex_sizing(input(24, 256, 18)).es == 6);
}

TEST_CASE("regmutex sizing: barrier liveness of a kernel drives the rule") {
  // Same 24 registers; only where the barrier sits differs.
  std::vector<std::string> late = reduce_into_r0();
  late.push_back("BAR.SYNC 0x0");
  late.push_back("STS [R0], R0");
  const Kernel quiet = straight_kernel(late);
  std::vector<std::string> early{"BAR.SYNC 0x0"};
  for (const std::string& line : reduce_into_r0()) early.push_back(line);
  early.push_back("STS [R0], R0");
  const Kernel busy = straight_kernel(early);
  REQUIRE(quiet.regs_used() == 24);
  REQUIRE(busy.regs_used() == 24);

  const BarrierLiveness bq = max_live_at_barriers(quiet);
  CHECK(bq.barriers == 1);
  CHECK(bq.max_live == 1);
  CHECK(bq.pc == (24 + 23) * 8);
  const BarrierLiveness bb = max_live_at_barriers(busy);
  CHECK(bb.barriers == 1);
  CHECK(bb.max_live == 24);
  CHECK(bb.pc == 24 * 8);
  CHECK(max_live_at_barriers(straight_kernel(reduce_into_r0())).barriers == 0);

  const RegMutexSizing sq = choose_regmutex_sizing(quiet, 256, SmLimits{});
  CHECK(sq.es == 6);
  CHECK(sq.sections == 26);
  const RegMutexSizing sb = choose_regmutex_sizing(busy, 256, SmLimits{});
  CHECK(sb.es == 0);
  CHECK(sb.bs == 24);
  CHECK(sb.decision == "RegMutex not applied: every candidate is rejected");
}

TEST_CASE("regmutex sizing: the pool must hold at least one extended set") {
  // One-warp CTAs on 576 warp registers: the base sets of 18 and 16 fill the file
  // exactly and 14 leaves 2 < 6, so each would raise occupancy above the baseline 28
  // warps but leave no E_s in the pool.
  RegMutexSizingInput in = input(20, 32);
  in.sm.max_ctas = 48;
  in.sm.registers = 576 * 32;
  const RegMutexSizing s = choose_regmutex_sizing(in);
  CHECK(s.baseline.warps() == 28);
  for (uint32_t es : {2u, 4u, 6u}) {
    const RegMutexCandidate& c = candidate(s, es);
    CHECK(c.warps > s.baseline.warps());
    CHECK(c.sections == 0);
    CHECK(c.verdict == "deadlock: the SRP cannot hold one E_s");
  }
  CHECK(s.es == 0);
  CHECK(s.bs == 20);
  // 6 more warp registers: every base set leaves a pool again; |B_s| = 14 gives the
  // most warps (41) and leaves 582 - 574 = 8, one section of 6.
  in.sm.registers = (576 + 6) * 32;
  const RegMutexSizing t = choose_regmutex_sizing(in);
  CHECK(t.es == 6);
  CHECK(t.sections == 1);
  CHECK(t.occupancy.warps() == 41);
}

TEST_CASE("regmutex sizing: candidates are even and within the fraction range") {
  const SmLimits sm;
  for (uint32_t threads : {64u, 128u, 256u, 384u, 512u}) {
    for (uint32_t regs = 1; regs <= 63; ++regs) {
      const RegMutexSizing s = choose_regmutex_sizing(input(regs, threads));
      const uint32_t r = s.allocated_regs;
      INFO("regs " << regs << " threads " << threads);
      REQUIRE(s.candidates.size() == 6);
      for (const RegMutexCandidate& c : s.candidates) {
        CHECK(c.es * 100 <= c.percent * r);  // floor(R x fraction)
        CHECK((c.es + 1) * 100 > c.percent * r);
        CHECK(c.bs + c.es == r);
        if (c.warps != 0) {  // evaluated: even, non-zero, not a repeat
          CHECK(c.es % 2 == 0);
          CHECK(c.es > 0);
        }
      }
      if (s.es == 0) {
        CHECK(s.bs == r);
        CHECK(s.occupancy.warps() == s.baseline.warps());
        continue;
      }
      CHECK(s.es % 2 == 0);
      CHECK(s.es * 100 <= 35 * r);
      CHECK((s.es + 1) * 100 > 10 * r);
      CHECK(s.sections >= 1);
      CHECK(s.sections <= sm.max_warps);
      CHECK(s.occupancy.warps() > s.baseline.warps());
      CHECK(s.srp_offset + s.srp_registers <= sm.registers / 32);
    }
  }
}

namespace {

struct CfgRow {
  const char* file;
  const char* function;
  uint32_t regs, barriers, live_at_barrier;
  uint32_t baseline_warps, bs, es, sections, warps;
};

}  // namespace

TEST_CASE("regmutex sizing: real nvdisasm cfgs at 256 threads per cta") {
  // Default SmLimits (Fermi: 48 warps, 32K registers, granularity 4).
  const CfgRow rows[] = {
      {"BFS_ispass.dot", "_Z6KernelP4NodePiPbS2_S1_S2_i", 18, 0, 0, 48, 20, 0, 0, 48},
      {"LPS.dot", "_Z13GPU_laplace3diiiiPfS_", 18, 2, 11, 48, 20, 0, 0, 48},
      {"bfs_parboil.dot", "_Z26BFS_kernel_multi_blk_inGPUPiS_P4int2S1_S_S_S_S_iiS_S_S_S_", 31, 7,
       18, 32, 24, 8, 8, 40},
      {"bfs_parboil.dot", "_Z17BFS_in_GPU_kernelPiS_P4int2S1_S_S_iS_iiS_", 23, 4, 11, 40, 18, 6, 26,
       48},
      {"bfs_parboil.dot", "_Z10BFS_kernelPiS_P4int2S1_S_S_iS_iiS_", 20, 3, 6, 48, 20, 0, 0, 48},
      {"cutcp.dot", "_Z37cuda_cutoff_potential_lattice6overlapiiP6float4fffPfi", 26, 2, 14, 32, 20,
       8, 8, 48},
      {"hotspot.dot", "_Z14calculate_tempiPfS_S_iiiiffffff", 36, 3, 24, 24, 24, 12, 5, 40},
      {"hotspot.dot", "$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_div_rn_f32", 13, 0, 0, 48,
       16, 0, 0, 48},
      {"hotspot.dot", "$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_div_rn_noftz_f32_slowpath",
       17, 0, 0, 48, 20, 0, 0, 48},
      {"hotspot.dot", "$_Z14calculate_tempiPfS_S_iiiiffffff$__cuda_sm20_rcp_rn_f32_slowpath", 23, 0,
       0, 40, 18, 6, 26, 48},
  };
  size_t seen = 0;
  for (const char* file :
       {"BFS_ispass.dot", "LPS.dot", "bfs_parboil.dot", "cutcp.dot", "hotspot.dot"}) {
    const std::string path = std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/" + file;
    for (const Kernel& k : read_nvdisasm_dot_functions(path)) {
      INFO(file << " " << k.name);
      REQUIRE(seen < std::size(rows));
      const CfgRow& row = rows[seen++];
      CHECK(row.file == std::string(file));
      CHECK(k.name == row.function);
      CHECK(k.regs_used() == row.regs);
      const BarrierLiveness bl = max_live_at_barriers(k);
      CHECK(bl.barriers == row.barriers);
      CHECK(bl.max_live == row.live_at_barrier);
      const RegMutexSizing s = choose_regmutex_sizing(k, 256, SmLimits{});
      CHECK(s.baseline.warps() == row.baseline_warps);
      CHECK(s.bs == row.bs);
      CHECK(s.es == row.es);
      CHECK(s.sections == row.sections);
      CHECK(s.occupancy.warps() == row.warps);
      CHECK(s.bs >= bl.max_live);
    }
  }
  CHECK(seen == std::size(rows));
}

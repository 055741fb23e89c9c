// The Accel-Sim .traceg importer: the real sample, a hand-written trace covering every
// line form, one bad file per error kind, value determinism and a platform run.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/params.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/kernel/kernel_ir.h"

using namespace warpreg;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kSamplePath =
    std::string(WARPREG_SHARED_DATA_DIR) + "/accelsim/kernel-593-ctx_0x55c28dad19e0.traceg";

std::string data_path(const std::string& name) {
  return std::string(WARPREG_TESTDATA_DIR) + "/accelsim/" + name;
}

bool same_values(const WarpTrace& a, const WarpTrace& b) {
  if (a.values.size() != b.values.size()) return false;
  for (size_t i = 0; i < a.values.size(); ++i)
    if (a.values[i].lane != b.values[i].lane) return false;
  return true;
}

}  // namespace

TEST_CASE("accelsim: the real sample imports with its shape and the nregs warning",
          "[import][accelsim]") {
  AccelSimTraceWorkload workload(kSamplePath, 1);
  const KernelShape& shape = workload.shape();
  CHECK_THAT(shape.name, StartsWith("_ZN2at6native29vectorized_elementwise_kernel"));
  CHECK(shape.ctas == 55);
  CHECK(shape.threads_per_cta == 128);
  CHECK(shape.warps_per_cta() == 4);
  CHECK(shape.shared_mem_per_cta == 1);
  CHECK(shape.regs_per_thread == 18);
  CHECK(workload.header_nregs() == 21955);
  CHECK(workload.total_instructions() == 55 * 4 * 33);
  REQUIRE(workload.warnings().size() == 1);
  CHECK_THAT(workload.warnings()[0], StartsWith(kSamplePath + ":6: -nregs = 21955"));
  CHECK_THAT(workload.warnings()[0], Contains("regs_per_thread = 18"));

  for (uint32_t cta = 0; cta < shape.ctas; ++cta) {
    for (uint32_t warp = 0; warp < shape.warps_per_cta(); ++warp) {
      const WarpTrace stream = record(workload.load_warp(0, cta, warp));
      REQUIRE(stream.insts.size() == 33);
      CHECK(stream.insts.back().cls == InstClass::Exit);
    }
  }
  const WarpTrace first = record(workload.load_warp(0, 0, 0));
  CHECK(first.insts[5].cls == InstClass::Branch);  // BRA, mask 0
  CHECK(first.insts[5].active == 0);
  CHECK(first.insts[10].cls == InstClass::Load);  // LDG.E.128.SYS R12 <- R2
  CHECK(first.insts[10].num_dst == 1);
  CHECK(first.insts[10].dst[0] == 12);
  CHECK(first.insts[10].pc == 0xa0);
  CHECK(first.insts[30].cls == InstClass::Store);  // STG.E.128.SYS R8 R12
  CHECK(first.insts[30].num_src == 2);
  CHECK(first.insts[2].src[1] == kZeroRegister);  // SHF.L.U32 R0, R0, R255
}

TEST_CASE("accelsim: every line form of a small trace", "[import][accelsim]") {
  AccelSimTraceWorkload workload(data_path("tiny.traceg"), 7);
  const KernelShape& shape = workload.shape();
  CHECK(shape.name == "tiny_kernel");
  CHECK(shape.ctas == 2);
  CHECK(shape.threads_per_cta == 64);
  CHECK(shape.shared_mem_per_cta == 256);
  CHECK(shape.regs_per_thread == 8);
  CHECK(workload.warnings().empty());
  CHECK(workload.total_instructions() == 19);

  const WarpTrace w00 = record(workload.load_warp(0, 0, 0));
  const std::vector<InstClass> classes00 = {InstClass::Alu,   InstClass::Alu, InstClass::Alu,
                                            InstClass::Load,  InstClass::Sfu, InstClass::Branch,
                                            InstClass::Store, InstClass::Exit};
  REQUIRE(w00.insts.size() == classes00.size());
  for (size_t i = 0; i < classes00.size(); ++i) {
    INFO("instruction " << i);
    CHECK(w00.insts[i].cls == classes00[i]);
  }
  CHECK(w00.insts[5].num_dst == 0);   // the early EXIT writes nothing
  CHECK(w00.insts[6].active == 0);    // predicated-off STS
  CHECK(w00.insts[6].num_src == 2);   // its mode-2 address list is read
  CHECK(w00.insts[3].active == 0xf);  // LDG with four listed addresses
  // One value per destination, and two (address low and high words) per LDG and STS.
  CHECK(w00.values.size() == 5 + 2 + 2);

  const WarpTrace w01 = record(workload.load_warp(0, 0, 1));
  REQUIRE(w01.insts.size() == 6);
  CHECK(w01.insts[1].cls == InstClass::Load);  // ATOMG with a destination
  CHECK(w01.insts[2].cls == InstClass::Store);
  CHECK(w01.insts[3].cls == InstClass::Barrier);
  CHECK(w01.insts[4].num_src == 2);  // the uniform register UR4 is dropped
  CHECK(w01.insts[4].src[0] == 1);
  CHECK(w01.insts[4].src[1] == kZeroRegister);

  // Block 1,0,0 lists warp 1 before warp 0.
  const WarpTrace w11 = record(workload.load_warp(0, 1, 1));
  REQUIRE(w11.insts.size() == 2);
  CHECK(w11.insts[0].num_dst == 2);
  CHECK(w11.insts[0].dst[1] == 3);
  CHECK(w11.insts[0].value_index == 0);
  const WarpTrace w10 = record(workload.load_warp(0, 1, 0));
  REQUIRE(w10.insts.size() == 3);
  CHECK(w10.insts[1].cls == InstClass::Store);  // RED without a destination

  CHECK_THROWS_AS(workload.load_warp(0, 2, 0), WorkloadError);
  CHECK_THROWS_AS(workload.load_warp(0, 0, 2), WorkloadError);
}

TEST_CASE("accelsim: opcode classes follow the base mnemonic", "[import][accelsim]") {
  struct Case {
    const char* opcode;
    bool has_destination;
    InstClass cls;
  };
  const Case cases[] = {
      {"LDG.E.128.SYS", true, InstClass::Load},
      {"LDS.U.128", true, InstClass::Load},
      {"LDL", true, InstClass::Load},
      {"LDC.64", true, InstClass::Load},
      {"LD.E", true, InstClass::Load},
      {"ATOMG.E.ADD", true, InstClass::Load},
      {"ATOM.E.CAS", false, InstClass::Store},
      {"RED.E.ADD", false, InstClass::Store},
      {"ST.E", false, InstClass::Store},
      {"STG.E.128.SYS", false, InstClass::Store},
      {"STS", false, InstClass::Store},
      {"STL.64", false, InstClass::Store},
      {"BRA", false, InstClass::Branch},
      {"BRX", false, InstClass::Branch},
      {"JMP", false, InstClass::Branch},
      {"CALL.REL", false, InstClass::Branch},
      {"RET.REL.NODEC", false, InstClass::Branch},
      {"SSY", false, InstClass::Branch},
      {"PBK", false, InstClass::Branch},
      {"BRK", false, InstClass::Branch},
      {"SYNC", false, InstClass::Branch},
      {"BSSY", false, InstClass::Branch},
      {"BSYNC", false, InstClass::Branch},
      {"WARPSYNC", false, InstClass::Branch},
      {"BAR.SYNC", false, InstClass::Barrier},
      {"EXIT", false, InstClass::Exit},
      {"MUFU.RSQ", true, InstClass::Sfu},
      {"RRO.EX2", true, InstClass::Sfu},
      {"FMUL", true, InstClass::Alu},
      {"IMAD.WIDE.U32", true, InstClass::Alu},
      {"S2R", true, InstClass::Alu},
      {"MEMBAR.GPU", false, InstClass::Alu},
      {"BARX", false, InstClass::Alu},
      {"STSX", false, InstClass::Alu},
  };
  for (const Case& c : cases) {
    INFO(c.opcode);
    CHECK(classify_opcode(c.opcode, c.has_destination) == c.cls);
  }
}

TEST_CASE("accelsim: destination values are deterministic per seed", "[import][accelsim]") {
  AccelSimTraceWorkload a(kSamplePath, 1);
  AccelSimTraceWorkload b(kSamplePath, 1);
  AccelSimTraceWorkload other_seed(kSamplePath, 2);
  bool any_seed_difference = false;
  bool any_warp_difference = false;
  bool any_uniform = false;
  bool any_lane_varying = false;
  for (uint32_t cta = 0; cta < a.shape().ctas; ++cta) {
    for (uint32_t warp = 0; warp < a.shape().warps_per_cta(); ++warp) {
      const WarpTrace stream = record(a.load_warp(0, cta, warp));
      CHECK(same_values(stream, record(b.load_warp(0, cta, warp))));
      any_seed_difference |= !same_values(stream, record(other_seed.load_warp(0, cta, warp)));
      any_warp_difference |= !same_values(stream, record(a.load_warp(0, 0, 0)));
      for (const WarpRegister& value : stream.values) {
        bool uniform = true;
        for (unsigned lane = 1; lane < kWarpSize; ++lane)
          uniform = uniform && value.lane[lane] == value.lane[0];
        any_uniform |= uniform;
        any_lane_varying |= !uniform;
      }
    }
  }
  CHECK(any_seed_difference);
  CHECK(any_warp_difference);
  CHECK(any_uniform);
  CHECK(any_lane_varying);
}

TEST_CASE("accelsim: each malformed file names its file and line",
          "[import][accelsim][bad-input]") {
  struct Case {
    const char* file;
    int line;
    const char* says;
  };
  const Case cases[] = {
      {"bad_header_value.traceg", 2, "-grid dim must be (x,y,z)"},
      {"bad_missing_header.traceg", 6, "no '-block dim = (x,y,z)' line"},
      {"bad_too_few_insts.traceg", 14, "has 3 instructions but 'insts = 4' at line 10"},
      {"bad_too_many_insts.traceg", 13, "beyond the 2 that 'insts = 2' at line 10"},
      {"bad_unknown_line.traceg", 9, "expected 'warp = N' or #END_TB, got 'wrap = 0'"},
      {"bad_pc.traceg", 11, "PC must be up to 16 hex digits"},
      {"bad_mask.traceg", 11, "active mask must be up to 8 hex digits"},
      {"bad_register.traceg", 11, "bad register 'R1x'"},
      {"bad_dest_count.traceg", 11, "dest_num = 2 but destination 2 is 'MOV'"},
      {"bad_src_count.traceg", 12, "src_num = 1 but another register follows: 'R0'"},
      {"bad_too_many_dests.traceg", 11, "more than 4 destination registers"},
      {"bad_too_many_sources.traceg", 12, "more than 4 source registers"},
      {"bad_addresses.traceg", 12, "memory address list ends after 1 of 3 entries"},
      {"bad_address_mode.traceg", 12, "address compression mode must be 0, 1 or 2"},
      {"bad_no_exit.traceg", 9, "does not end with EXIT"},
      {"bad_block_range.traceg", 8, "thread block 1,0,0 is outside the grid"},
      {"bad_duplicate_block.traceg", 16, "appears twice (first at line 8)"},
      {"bad_warp_range.traceg", 9, "has 1 warps"},
      {"bad_duplicate_warp.traceg", 14, "warp 0 of thread block 0,0,0 appears twice"},
      {"bad_missing_warp.traceg", 8, "thread block 0,0,0 has no warp 1"},
      {"bad_missing_block.traceg", 2, "no thread block 1,0,0 (1 missing)"},
      {"bad_unterminated.traceg", 13, "ends inside the thread block opened at line 7"},
  };
  for (const Case& c : cases) {
    const std::string path = data_path(c.file);
    INFO(c.file);
    std::string message;
    try {
      AccelSimTraceWorkload workload(path, 1);
    } catch (const WorkloadError& e) {
      message = e.what();
    }
    CHECK_THAT(message, StartsWith(path + ":" + std::to_string(c.line) + ": "));
    CHECK_THAT(message, Contains(c.says));
  }
}

TEST_CASE("accelsim: lineinfo numbers and a short nregs are handled", "[import][accelsim]") {
  std::istringstream in(
      "-kernel name = k\n"
      "-grid dim = (1,1,1)\n"
      "-block dim = (32,1,1)\n"
      "-nregs = 2\n"
      "-enable lineinfo = 1\n"
      "#BEGIN_TB\r\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 2\n"
      "12 0000 ffffffff 1 R4 MOV 0 0 0\n"
      "13 0010 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n");
  AccelSimTraceWorkload workload(in, "inline.traceg", 3);
  CHECK(workload.shape().regs_per_thread == 5);
  CHECK(workload.shape().shared_mem_per_cta == 0);
  REQUIRE(workload.warnings().size() == 1);
  CHECK_THAT(workload.warnings()[0], StartsWith("inline.traceg:4: -nregs = 2"));
  CHECK(record(workload.load_warp(0, 0, 0)).insts[0].dst[0] == 4);
  CHECK(workload.describe() == "accelsim trace inline.traceg seed 3");
}

TEST_CASE("accelsim: open_workload picks the importer for .traceg names", "[import][accelsim]") {
  const Params params = Params::load("baseline", {"sim.seed=5"});
  auto workload = open_workload(data_path("tiny.traceg"), params);
  CHECK_THAT(workload->describe(), StartsWith("accelsim trace "));
  CHECK_THAT(workload->describe(), Contains("seed 5"));
  CHECK_THROWS_WITH(open_workload(data_path("absent.traceg"), params),
                    Contains("cannot open Accel-Sim trace"));
}

TEST_CASE("accelsim: the real sample runs on the baseline platform",
          "[import][accelsim][platform]") {
  const Params params = Params::load("baseline", {});
  SmPlatform platform(params, open_workload(kSamplePath, params));
  const auto stats = platform.run();
  CHECK(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  CHECK(stats["integrity"]["checked_reads"].get<uint64_t>() > 0);
  CHECK(stats["warp_instructions"] == 55 * 4 * 33);
}

TEST_CASE("accelsim: the static CFG is rebuilt from the PCs the warps executed",
          "[import][accelsim][cfg]") {
  // Warp 0 takes the branch at 0x20 to 0x40; warp 1 falls through to 0x30 and then
  // jumps to 0x40. Both reconverge at 0x40 and exit at 0x50.
  std::istringstream in(
      "-kernel name = diverge\n"
      "-grid dim = (1,1,1)\n"
      "-block dim = (64,1,1)\n"
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 5\n"
      "0000 ffffffff 1 R1 S2R 0 0\n"
      "0010 ffffffff 1 R2 IADD3 2 R1 R1 0\n"
      "0020 ffffffff 0 BRA 1 R2 0\n"
      "0040 ffffffff 1 R3 IADD3 2 R1 R2 0\n"
      "0050 ffffffff 0 EXIT 0 0\n"
      "warp = 1\n"
      "insts = 7\n"
      "0000 ffffffff 1 R1 S2R 0 0\n"
      "0010 ffffffff 1 R2 IADD3 2 R1 R1 0\n"
      "0020 ffffffff 0 BRA 1 R2 0\n"
      "0030 ffffffff 1 R4 MOV 0 0\n"
      "0038 ffffffff 0 BRA 0 0\n"
      "0040 ffffffff 1 R3 IADD3 2 R1 R2 0\n"
      "0050 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n");
  AccelSimTraceWorkload workload(in, "diverge.traceg", 1);
  const Kernel& k = workload.static_kernel();
  CHECK(k.name == "diverge");
  REQUIRE(k.blocks.size() == 3);
  CHECK(k.instruction_count() == 7);
  CHECK(k.blocks[0].insts.size() == 3);  // 0x00..0x20, ends at the branch
  CHECK(k.blocks[1].insts.front().pc == 0x30);
  CHECK(k.blocks[2].insts.front().pc == 0x40);
  CHECK(k.blocks[0].succ == std::vector<uint32_t>{1, 2});
  CHECK(k.blocks[1].succ == std::vector<uint32_t>{2});
  CHECK(k.blocks[2].succ.empty());
  CHECK(k.blocks[2].insts[0].src == std::vector<uint16_t>{1, 2});
  CHECK(reconvergence_point(k, 0) == 2);
}

TEST_CASE("accelsim: two opcodes at one PC name both lines", "[import][accelsim][bad-input]") {
  std::istringstream in(
      "-kernel name = k\n"
      "-grid dim = (1,1,1)\n"
      "-block dim = (64,1,1)\n"
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 2\n"
      "0000 ffffffff 1 R1 S2R 0 0\n"
      "0010 ffffffff 0 EXIT 0 0\n"
      "warp = 1\n"
      "insts = 2\n"
      "0000 ffffffff 1 R1 MOV 0 0\n"
      "0010 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n");
  try {
    AccelSimTraceWorkload workload(in, "conflict.traceg", 1);
    FAIL("no error");
  } catch (const WorkloadError& e) {
    CHECK_THAT(e.what(), StartsWith("conflict.traceg:12: "));
    CHECK_THAT(e.what(), Contains("PC 0x0 is 'MOV' here but 'S2R' at line 8"));
  }
}

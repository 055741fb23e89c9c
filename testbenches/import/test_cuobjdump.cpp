// The cuobjdump importer: hand-written listings of both dialects (calls, regions, the
// end-of-program bit), a complete output with ELF and PTX parts, one error per kind,
// and every listing of ../shared/data/cuobjdump.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "common/params.h"
#include "modules/interfaces/workload.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/import/cuobjdump.h"
#include "stimuli/import/input_name.h"
#include "stimuli/kernel/kernel_ir.h"
#include "testbenches/support/cli_runner.h"

using namespace warpreg;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string data_path(const std::string& name) {
  return std::string(WARPREG_TESTDATA_DIR) + "/cuobjdump/" + name;
}

const std::string kCorpus = std::string(WARPREG_SHARED_DATA_DIR) + "/cuobjdump";

const BasicBlock& block_at(const Kernel& k, uint64_t pc) {
  for (const BasicBlock& b : k.blocks)
    if (!b.insts.empty() && b.insts.front().pc == pc) return b;
  FAIL("no block starts at " << pc);
  return k.blocks.front();
}

bool has_edge(const Kernel& k, uint64_t from_pc, uint64_t to_pc) {
  const BasicBlock& to = block_at(k, to_pc);
  for (const BasicBlock& b : k.blocks)
    for (const StaticInst& inst : b.insts)
      if (inst.pc == from_pc) return std::find(b.succ.begin(), b.succ.end(), to.id) != b.succ.end();
  return false;
}

const StaticInst& inst_at(const Kernel& k, uint64_t pc) {
  for (const BasicBlock& b : k.blocks)
    for (const StaticInst& inst : b.insts)
      if (inst.pc == pc) return inst;
  FAIL("no instruction at " << pc);
  return k.blocks.front().insts.front();
}

/// The message of reading `text` as a listing named "inline".
std::string read_error(const std::string& text) {
  std::istringstream in(text);
  try {
    read_cuobjdump(in, "inline");
  } catch (const WorkloadError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("undocumented exception: ") + e.what();
  }
  return "";
}

const std::string kFermiHeader = "\tcode for sm_20\n\t\tFunction : f\n";
std::string line(const std::string& address, const std::string& text,
                 const std::string& encoding = "0x00001de780000000") {
  return "\t/*" + address + "*/     /*" + encoding + "*/ \t" + text + ";\n";
}

}  // namespace

TEST_CASE("cuobjdump: sm_1x calls are inlined, the end bit ends the kernel",
          "[import][cuobjdump]") {
  const CuobjdumpListing listing = read_cuobjdump(data_path("tesla.sass"));
  REQUIRE(listing.functions.size() == 2);
  const CuobjdumpFunction& calls = listing.functions[0];
  CHECK(calls.arch == "sm_10");
  CHECK(calls.name == "_Z5callsPi");
  CHECK(calls.line == 2);
  CHECK(calls.listed_instructions == 12);
  CHECK_FALSE(calls.resources.known);
  const Kernel& k = calls.kernel;
  CHECK(k.arch == "sm_10");
  CHECK(k.regs_used() == 4);
  // Main body, the subroutine at its listed PCs for the first call and 0x1000 higher for
  // the second; the NOP after the last RET is unreachable.
  CHECK(k.instruction_count() == 13);
  CHECK(k.blocks.size() == 6);
  CHECK(k.edge_count() == 5);
  CHECK(has_edge(k, 0x10, 0x18));    // RET C0.NE: a guarded exit falls through
  CHECK(has_edge(k, 0x18, 0x40));    // CAL
  CHECK(has_edge(k, 0x48, 0x20));    // the inlined RET returns after the first CAL
  CHECK(has_edge(k, 0x28, 0x1040));  // the second call reaches the copy
  CHECK(has_edge(k, 0x1048, 0x30));
  CHECK(block_at(k, 0x30).succ.empty());  // RET of the kernel: exit
  CHECK(inst_at(k, 0x38).opcode == "RET");
  CHECK(inst_at(k, 0x48).opcode == "BRA");  // an inlined RET jumps back
  CHECK(inst_at(k, 0x48).text == "RET");
  CHECK(inst_at(k, 0x10).guard_pred == 0);
  CHECK(inst_at(k, 0x40).dst == std::vector<uint16_t>{2});  // MVI.U16 R2H
  CHECK(inst_at(k, 0x40).src == std::vector<uint16_t>{2});
  CHECK(inst_at(k, 0x20).src == std::vector<uint16_t>{0});  // IADD32 R1, g [0x4], R0 (4 bytes)

  const Kernel& loop = listing.functions[1].kernel;
  CHECK(loop.instruction_count() == 9);
  CHECK(loop.blocks.size() == 5);
  CHECK(loop.edge_count() == 6);
  CHECK(has_edge(loop, 0x28, 0x40));  // BRK leaves to the PBK target
  CHECK(has_edge(loop, 0x20, 0x30));  // BRA C0.NE to the SSY target, where NOP.S joins
  CHECK(has_edge(loop, 0x30, 0x10));  // the back edge
  CHECK(has_edge(loop, 0x30, 0x40));
  CHECK(block_at(loop, 0x40).succ.empty());  // GST with the end-of-program bit
  CHECK(inst_at(loop, 0x40).cls == InstClass::Store);
}

TEST_CASE("cuobjdump: sm_20 syncs, breaks and continues", "[import][cuobjdump]") {
  const CuobjdumpListing listing = read_cuobjdump(data_path("fermi.sass"));
  REQUIRE(listing.functions.size() == 1);
  const Kernel& k = listing.functions[0].kernel;
  CHECK(k.arch == "sm_20");
  CHECK(k.instruction_count() == 17);  // the trailing BRA self is unreachable
  CHECK(k.blocks.size() == 9);
  CHECK(k.edge_count() == 10);
  CHECK(has_edge(k, 0x18, 0x20));  // @P0 EXIT ends a block and falls through
  CHECK(has_edge(k, 0x38, 0x48));  // MOV.S before the SSY target continues there
  CHECK(has_edge(k, 0x40, 0x48));
  CHECK_FALSE(has_edge(k, 0x38, 0x40));
  CHECK(inst_at(k, 0x38).target == "0x48");
  CHECK_FALSE(may_fall_through(inst_at(k, 0x38)));
  CHECK(has_edge(k, 0x68, 0x70));  // @P0 CONT to the PCNT target
  CHECK(has_edge(k, 0x70, 0x80));  // @!P0 BRK to the PBK target
  CHECK(has_edge(k, 0x70, 0x78));
  CHECK(has_edge(k, 0x78, 0x50));
  CHECK(k.regs_used() == 4);
}

TEST_CASE("cuobjdump: a complete output is recognised by content, ELF resources kept",
          "[import][cuobjdump]") {
  const std::string path = data_path("_cuobjdump_complete_output_tiny");
  CHECK(is_cuobjdump_listing(path));
  CHECK(detect_input_format(path) == InputFormat::Cuobjdump);
  CHECK_FALSE(is_cuobjdump_listing(std::string(WARPREG_TESTDATA_DIR) + "/tiny.trace"));
  const CuobjdumpListing listing = read_cuobjdump(path);
  REQUIRE(listing.functions.size() == 2);
  const CuobjdumpFunction& tesla = listing.functions[0];
  CHECK(tesla.arch == "sm_10");
  REQUIRE(tesla.resources.known);
  CHECK(tesla.resources.registers == 3);
  CHECK(tesla.resources.registers == tesla.kernel.regs_used());
  CHECK(tesla.resources.barriers == 1);
  CHECK(tesla.resources.shared_bytes == 24);
  CHECK(tesla.resources.line == 12);
  const CuobjdumpFunction& fermi = listing.functions[1];
  CHECK(fermi.arch == "sm_20");
  CHECK(fermi.resources.registers == 4);
  CHECK(fermi.kernel.blocks.back().insts.back().cls == InstClass::Exit);

  CHECK(&select_cuobjdump_function(listing, "") == &tesla);
  CHECK(&select_cuobjdump_function(listing, "_Z1kPi") == &tesla);
  CHECK(&select_cuobjdump_function(listing, "sm_20") == &fermi);
  CHECK(&select_cuobjdump_function(listing, "sm_20:_Z1kPi") == &fermi);
  CHECK(cuobjdump_selector(fermi) == "sm_20:_Z1kPi");
  CHECK_THROWS_WITH(select_cuobjdump_function(listing, "nope"),
                    Contains("no function 'nope'") && Contains("sm_10:_Z1kPi, sm_20:_Z1kPi"));

  const Params params = Params::load("baseline", {"cuobjdump.ctas=2"});
  const auto first = open_workload(path, params);
  CHECK_THAT(first->describe(), Contains(path + ":sm_10:_Z1kPi"));
  CHECK(first->shape().ctas == 2);
  CHECK(first->shape().threads_per_cta == 256);
  CHECK(first->shape().regs_per_thread == 3);
  CHECK_THAT(open_workload(path + ":sm_20:_Z1kPi", params)->describe(), Contains("sm_20"));
  CHECK_THROWS_WITH(open_workload(path + ":sm_30", params), Contains("no function 'sm_30'"));
}

TEST_CASE("cuobjdump: malformed listings name file, line and column",
          "[import][cuobjdump][bad-input]") {
  const std::string unknown = kFermiHeader + line("0000", "MOV R1, Q7");
  const size_t column = unknown.find("Q7") - unknown.find("\t/*0000") + 1;
  CHECK(read_error(unknown) == "inline:3:" + std::to_string(column) + ": unknown operand 'Q7'");
  CHECK_THAT(read_error(kFermiHeader + line("0000", "BRA 0x4") + line("0008", "EXIT")),
             StartsWith("inline:3:") && Contains("BRA to 0x4, which is not an instruction of f"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "BRK") + line("0008", "EXIT")),
             StartsWith("inline:3:") && Contains("BRK outside any break region"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "CAL 0x0") + line("0008", "EXIT")),
             StartsWith("inline:3:") && Contains("recursion"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "MOV R1, R2")),
             StartsWith("inline:3:") && Contains("falls past the last instruction"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "EXIT", "0x00001de7")),
             StartsWith("inline:3:") && Contains("4-byte encoding in sm_20"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "NOP") + line("0010", "EXIT")),
             StartsWith("inline:4:") && Contains("does not follow 0x0"));
  CHECK_THAT(read_error(kFermiHeader + line("0000", "EXIT", "0x00001de7800000")),
             StartsWith("inline:3:") && Contains("not 8 or 16 hex digits"));
  CHECK_THAT(read_error("hello\n"), StartsWith("inline:1:1: expected 'code for sm_NN'"));
  CHECK_THAT(read_error("\n\n"), StartsWith("inline:2:1: no SASS listing"));
  CHECK_THAT(read_error(kFermiHeader + "\t\t......\n"),
             StartsWith("inline:2:1: function f lists no instructions"));
  CHECK_THAT(read_error("\tcode for sm_20\n" + line("0000", "EXIT")),
             StartsWith("inline:2:1: instruction line outside a 'Function :' listing"));
  CHECK_THAT(read_error(kFermiHeader + "\t/*0000*/ EXIT\n\t/*zz*/ NOP;\n"),
             StartsWith("inline:4:2: bad instruction address"));
}

TEST_CASE("cuobjdump: every shared listing imports, registers as the ELF says",
          "[import][cuobjdump][corpus]") {
  size_t files = 0;
  size_t functions = 0;
  size_t with_resources = 0;
  std::set<std::string> arches;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kCorpus)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == "README.md" || name == "MANIFEST.tsv") continue;
    INFO(entry.path().string());
    REQUIRE(is_cuobjdump_listing(entry.path().string()));
    const CuobjdumpListing listing = read_cuobjdump(entry.path().string());
    ++files;
    for (const CuobjdumpFunction& f : listing.functions) {
      INFO(f.name << " " << f.arch);
      ++functions;
      arches.insert(f.arch);
      CHECK(f.kernel.instruction_count() > 0);
      CHECK(compute_immediate_post_dominators(f.kernel).size() == f.kernel.blocks.size());
      if (f.resources.known) {
        ++with_resources;
        CHECK(f.resources.registers == f.kernel.regs_used());
      }
    }
  }
  CHECK(files == 50);
  CHECK(functions == 103);  // README.md: 103 kernel listings
  CHECK(with_resources == 21);
  CHECK(arches == std::set<std::string>{"sm_10", "sm_13", "sm_20"});
}

TEST_CASE("cuobjdump: warpreg compile lists every function of every architecture",
          "[import][cuobjdump][cli]") {
  const std::string path = data_path("_cuobjdump_complete_output_tiny");
  const testing::Outcome all = testing::run_warpreg("compile '" + path + "' --json");
  INFO(all);
  REQUIRE(all.status == 0);
  const nlohmann::json kernels = nlohmann::json::parse(all.out);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0]["selector"] == "sm_10:_Z1kPi");
  CHECK(kernels[0]["arch"] == "sm_10");
  CHECK(kernels[0]["registers"] == 3);
  CHECK(kernels[0]["compiler_registers"] == 3);
  CHECK(kernels[1]["selector"] == "sm_20:_Z1kPi");
  CHECK(kernels[1]["regmutex"]["threads_per_cta"] == 256);

  const testing::Outcome one = testing::run_warpreg("compile '" + path + ":sm_20'");
  INFO(one);
  CHECK(one.status == 0);
  CHECK(testing::contains(one.out, "kernel sm_20:_Z1kPi"));
  CHECK_FALSE(testing::contains(one.out, "sm_10"));
  const testing::Outcome both =
      testing::run_warpreg("compile '" + path + ":sm_20' --function _Z1kPi");
  CHECK(both.status == 2);
  const testing::Outcome bad = testing::run_warpreg("compile '" + path + "' --function nope");
  CHECK(bad.status == 2);
  CHECK(testing::contains(bad.err, "no function 'nope'"));
}

TEST_CASE("cuobjdump: an sm_1x listing without inline encodings reads (found by fuzz_cuobjdump)",
          "[cuobjdump][bad-input]") {
  // The end-of-program bit lives in the encoding; without one there is nothing to test,
  // where the reader used to take substr(15) of an empty string (std::out_of_range).
  const std::string text =
      "\tcode for sm_10\n\t\tFunction : f\n\t/*0000*/ \tMOV R1, R0;\n\t/*0008*/ \tRET;\n";
  CHECK(read_error(text).empty());
}

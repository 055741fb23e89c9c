// What every reader does with its file before and around the format: only regular
// files, documented limits with file, line and field, gzip-compressed traces, names
// that hold ':' or a folder named "a.dot:b", the older Accel-Sim layout, kernelslist.g
// applications, and an Accel-Sim PC of 2^64-1.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/params.h"
#include "modules/interfaces/workload.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/driver/trace_workload.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/import/application.h"
#include "stimuli/import/input_file.h"
#include "stimuli/import/input_name.h"
#include "stimuli/import/nvdisasm_dot.h"
#include "testbenches/support/cli_runner.h"

using namespace warpreg;
using namespace warpreg::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string data_path(const std::string& name) {
  return std::string(WARPREG_TESTDATA_DIR) + "/" + name;
}

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

const std::string kHeader =
    "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
    "-accelsim tracer version = 5\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n";

std::string open_error(const std::string& name) {
  return error_of([&] { open_workload(name, Params::load("baseline", {})); });
}

}  // namespace

TEST_CASE("inputs: directories, devices and FIFOs are refused by every reader",
          "[import][inputs][bad-input]") {
  Scratch dir;
  std::filesystem::create_directory(dir / "folder.traceg");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.trace");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.dot");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.traceg");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.json");
  std::filesystem::create_symlink("/dev/zero", dir / "kernelslist.g");
  const std::string folder = (dir / "folder.traceg").string();
  CHECK(open_error(folder) ==
        folder + ": cannot open Accel-Sim trace: a directory, not a regular file");
  for (const char* name : {"zero.trace", "zero.dot", "zero.traceg", "zero.json", "kernelslist.g"}) {
    INFO(name);
    CHECK_THAT(open_error((dir / name).string()),
               StartsWith((dir / name).string() + ": cannot open") &&
                   Contains("a character device, not a regular file"));
  }
  CHECK_THAT(error_of([&] { read_profile((dir / "zero.json").string()); }),
             Contains("not a regular file"));
  CHECK_THAT(error_of([&] { read_nvdisasm_dot_functions((dir / "zero.dot").string()); }),
             Contains("not a regular file"));
  CHECK_THAT(error_of([&] { TraceWorkload((dir / "zero.trace").string()); }),
             Contains("not a regular file"));
}

TEST_CASE("inputs: a line longer than the limit names its line", "[import][inputs][bad-input]") {
  Scratch dir;
  const std::string path = (dir / "long.trace").string();
  write(path, "warpreg-trace 1\n# " + std::string(input_limits::kMaxLineBytes + 10, 'x') + "\n");
  CHECK(open_error(path) == path + ":2: line longer than 1 MiB (the input limit)");
}

TEST_CASE("inputs: names split at the longest existing prefix", "[import][inputs]") {
  Scratch dir;
  std::filesystem::create_directories(dir / "a.dot:b");
  const std::filesystem::path trace = dir / "a.dot:b" / "tiny.trace";
  std::filesystem::copy_file(data_path("tiny.trace"), trace);
  const std::optional<InputName> whole = split_input_name(trace.string());
  REQUIRE(whole);
  CHECK(whole->path == trace.string());
  CHECK(whole->selector.empty());
  CHECK(detect_input_format(trace.string()) == InputFormat::WarpregTrace);
  const auto workload = open_workload(trace.string(), Params::load("baseline", {}));
  CHECK(workload->describe() == "trace " + trace.string());

  const std::string dot = std::string(WARPREG_SHARED_DATA_DIR) + "/nvdisasm-cfg/hotspot.dot";
  const std::optional<InputName> split = split_input_name(dot + ":$a:b$c");
  REQUIRE(split);
  CHECK(split->path == dot);
  CHECK(split->selector == "$a:b$c");
  CHECK_FALSE(split_input_name(dir.path().string() + "/missing:x"));
  CHECK_THAT(open_error(trace.string() + ":k"), Contains("a warpreg trace takes no ':k'"));
  CHECK_THAT(open_error(data_path("accelsim/tiny.traceg") + ":k"),
             Contains("an Accel-Sim trace takes no ':k'"));
  CHECK_THAT(open_error(dir.path().string() + "/missing.trace"),
             Contains("missing.trace: cannot open trace file: no such file"));
}

TEST_CASE("inputs: .traceg insts beyond the limit is an error, not an allocation",
          "[import][inputs][accelsim][bad-input]") {
  std::istringstream in(kHeader + "insts = 4294967295\n0000 ffffffff 0 EXIT 0 0\n");
  CHECK(error_of([&] { AccelSimTraceWorkload(in, "huge.traceg", 1); }) ==
        "huge.traceg:9: insts: 4294967295 instructions would take the trace past 33554432 "
        "dynamic instructions, the input limit (0 read so far)");
}

TEST_CASE("inputs: an Accel-Sim PC of 2^64-1 is a PC like any other",
          "[import][inputs][accelsim]") {
  std::istringstream in(kHeader +
                        "insts = 2\nffffffffffffffff ffffffff 1 R1 MOV 0 0\n"
                        "0000 ffffffff 0 EXIT 0 0\n#END_TB\n");
  AccelSimTraceWorkload trace(in, "max.traceg", 1);
  const Kernel& k = trace.static_kernel();
  REQUIRE(k.blocks.size() == 2);
  const BasicBlock& entry = k.blocks[k.entry];
  CHECK(entry.insts.front().pc == 0xffffffffffffffffull);
  CHECK(entry.insts.front().opcode == "MOV");
  CHECK(record(trace.load_warp(0, 0, 0)).insts.front().pc == 0xffffffffffffffffull);
}

TEST_CASE("inputs: the older tracer layout with four leading columns",
          "[import][inputs][accelsim]") {
  const std::string old_header =
      "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-trace version = 2\n\n";
  auto block = [](int x) {
    return "#BEGIN_TB\nthread block = " + std::to_string(x) + ",0,0\nwarp = 0\ninsts = 2\n" +
           std::to_string(x) + " 0 0 0 0000 ffffffff 1 R1 MOV 0 0\n" + std::to_string(x) +
           " 0 0 0 0010 ffffffff 0 EXIT 0 0\n#END_TB\n";
  };
  std::istringstream in(old_header + block(0) + block(1));
  AccelSimTraceWorkload trace(in, "old.traceg", 1);
  CHECK(trace.total_instructions() == 4);
  CHECK(record(trace.load_warp(0, 1, 0)).insts[0].dst[0] == 1);

  // Without a version key the first instruction line tells the layout.
  std::string detected = old_header + block(0) + block(1);
  detected.erase(detected.find("-trace version = 2\n"), 19);
  std::istringstream in2(detected);
  CHECK(AccelSimTraceWorkload(in2, "old.traceg", 1).total_instructions() == 4);

  std::string wrong = old_header + block(0) + block(1);
  wrong.replace(wrong.rfind("1 0 0 0 0010"), 1, "0");
  std::istringstream in3(wrong);
  CHECK(error_of([&] { AccelSimTraceWorkload(in3, "old.traceg", 1); }) ==
        "old.traceg:18: thread block x is 0 but the line is in warp 0 of thread block 1,0,0");
}

TEST_CASE("inputs: a gzip-compressed trace reads as the plain one", "[import][inputs][accelsim]") {
  Scratch dir;
  const std::string plain = data_path("accelsim/tiny.traceg");
  const std::string packed = (dir / "tiny.traceg.gz").string();
  {
    const std::string text = slurp(plain);
    gzFile out = gzopen(packed.c_str(), "wb");
    REQUIRE(out != nullptr);
    REQUIRE(gzwrite(out, text.data(), static_cast<unsigned>(text.size())) ==
            static_cast<int>(text.size()));
    gzclose(out);
  }
  AccelSimTraceWorkload a(plain, 9);
  AccelSimTraceWorkload b(packed, 9);
  CHECK(a.total_instructions() == b.total_instructions());
  CHECK(a.shape().ctas == b.shape().ctas);
  const WarpTrace sa = record(a.load_warp(0, 1, 1));
  const WarpTrace sb = record(b.load_warp(0, 1, 1));
  REQUIRE(sa.insts.size() == sb.insts.size());
  for (size_t i = 0; i < sa.insts.size(); ++i) CHECK(sa.insts[i].pc == sb.insts[i].pc);
  CHECK_THAT(open_workload(packed, Params::load("baseline", {}))->describe(),
             Contains("tiny.traceg.gz"));

  const std::string corrupt = (dir / "bad.traceg.gz").string();
  write(corrupt, std::string("\x1f\x8b\x08\x00garbage-that-is-not-deflate", 31));
  CHECK_THAT(error_of([&] { AccelSimTraceWorkload(corrupt, 1); }), StartsWith(corrupt + ": "));
}

TEST_CASE("inputs: kernelslist.g lists an application's launches",
          "[import][inputs][application]") {
  Scratch dir;
  std::filesystem::copy_file(data_path("accelsim/tiny.traceg"), dir / "kernel-1.traceg");
  std::filesystem::copy_file(data_path("accelsim/tiny.traceg"), dir / "kernel-2.traceg");
  const std::string list = (dir / "kernelslist.g").string();
  write(list,
        "MemcpyHtoD,0x00007f2b5e000000,4194304\nkernel-1.traceg\n\n# comment\nkernel-2.traceg\n");
  const Application app = read_application(list);
  REQUIRE(app.launches.size() == 2);
  CHECK(app.launches[0].workload == (dir / "kernel-1.traceg").string());
  CHECK(app.launches[1].kernel == "kernel-2.traceg");
  CHECK(app.launches[1].origin == list + ":5");
  CHECK(app.memory_copies == std::vector<std::string>{"MemcpyHtoD,0x00007f2b5e000000,4194304"});
  const Params params = Params::load("baseline", {});
  for (const ApplicationLaunch& launch : app.launches)
    CHECK(open_workload(launch.workload, params)->shape().name == "tiny_kernel");
  CHECK_THAT(open_error(list), Contains("an application of 2 kernel launches"));

  write(list, "kernel-1.traceg\n");
  CHECK(open_workload(list, params)->shape().name == "tiny_kernel");  // one launch runs
  write(list, "kernel-1.traceg\nkernel-9.traceg\n");
  CHECK_THAT(open_error(list), StartsWith(list + ":2: kernel trace 'kernel-9.traceg'"));
  write(list, "MemcpyHtoD,zz,1\n");
  CHECK_THAT(open_error(list), StartsWith(list + ":1: expected 'MemcpyHtoD,0xADDRESS,BYTES'"));
  write(list, "kernel-1.ptx\n");
  CHECK_THAT(open_error(list), StartsWith(list + ":1: expected a kernel trace"));
  write(list, "\n");
  CHECK_THAT(open_error(list), Contains("no kernel launches"));
}

TEST_CASE("inputs: a cuobjdump listing is an application of one architecture",
          "[import][inputs][application]") {
  const std::string path = data_path("cuobjdump/_cuobjdump_complete_output_tiny");
  const Application sm20 = read_application(path + ":sm_20");
  REQUIRE(sm20.launches.size() == 1);
  CHECK(sm20.launches[0].workload == path + ":sm_20:_Z1kPi");
  CHECK(sm20.launches[0].origin == path + ":42");
  CHECK(read_application(path).launches[0].workload == path + ":sm_10:_Z1kPi");
  CHECK_THAT(error_of([&] { read_application(path + ":_Z1kPi"); }),
             Contains("name it as FILE:sm_NN"));
  const std::string tesla = data_path("cuobjdump/tesla.sass");
  const Application both = read_application(tesla);
  REQUIRE(both.launches.size() == 2);
  CHECK(both.launches[1].kernel == "_Z4loopPf");
  CHECK_THAT(error_of([&] { read_application(data_path("tiny.trace")); }),
             Contains("not an application"));
}

TEST_CASE("inputs: a .dot of many blocks numbers its PCs in order", "[import][inputs][nvdisasm]") {
  std::string dot = "digraph f {\nsubgraph \"cluster_k\" {\n";
  constexpr int kBlocks = 3000;
  for (int i = 0; i < kBlocks; ++i)
    dot += "\"b" + std::to_string(i) + "\" [label=\"{<entry>  IADD R1, R1, 0x1;\\l}\"];\n";
  for (int i = 0; i + 1 < kBlocks; ++i)
    dot += "\"b" + std::to_string(i) + "\" -> \"b" + std::to_string(i + 1) + "\":entry;\n";
  dot += "}\n}\n";
  std::istringstream in(dot);
  const Kernel k = read_nvdisasm_dot(in, "many.dot");
  REQUIRE(k.blocks.size() == kBlocks);
  for (int i = 0; i < kBlocks; ++i) CHECK(k.blocks[i].insts.front().pc == 8u * i);
}

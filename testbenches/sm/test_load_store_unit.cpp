// The SM's load/store unit without SystemC (a recording request port), the Accel-Sim
// importer's lane addresses, and the SM platform with mem.model = memory_system.
#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "common/params.h"
#include "platforms/sm/load_store_unit.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"
#include "stimuli/import/accelsim_trace.h"

using namespace warpreg;

namespace {

/// Records every request; each is accepted `accept_after` cycles after it is sent and
/// answered `latency` cycles after that.
class RecordingPort : public RequestPort {
 public:
  struct Sent {
    memory::MemKind kind;
    memory::MemSpace space;
    uint64_t address;
    uint32_t bytes;
    uint64_t cycle;
  };
  std::vector<Sent> sent;
  uint64_t accept_after = 0;
  uint64_t latency = 100;

  uint64_t send(memory::MemTransaction& txn, uint64_t cycle, uint64_t& accepted) override {
    const memory::MemRequest& r = txn.request();
    sent.push_back(
        {r.kind, r.space, txn.payload().get_address(), txn.payload().get_data_length(), cycle});
    accepted = cycle + accept_after;
    return accepted + latency;
  }
};

class OneWarpWorkload : public Workload {
 public:
  OneWarpWorkload() {
    shape_.ctas = 1;
    WarpInst exit;
    exit.cls = InstClass::Exit;
    trace.insts = {exit};
    stream.play(trace);
  }
  const KernelShape& shape() const override { return shape_; }
  WarpStream& load_warp(uint32_t, uint32_t, uint32_t) override { return stream; }
  std::string describe() const override { return "one warp"; }
  WarpTrace trace;  ///< values a traced instruction's addresses come from
  StoredWarpStream stream;

 private:
  KernelShape shape_;
};

WarpInst memory_inst(InstClass cls, MemorySpace space, uint32_t bytes) {
  WarpInst i;
  i.pc = 0x40;
  i.cls = cls;
  i.mem = MemOperand::make(space, bytes);
  return i;
}

MemoryAccess access_of(const WarpInst& inst, const WarpStream& stream) {
  return MemoryAccess{&inst, &stream, 0, 0, 0, 0};
}

}  // namespace

TEST_CASE("LSU: a coalesced 4-byte global load is one 128-byte request", "[lsu]") {
  OneWarpWorkload workload;
  RecordingPort port;
  LoadStoreUnit unit(LoadStoreConfig{}, workload, port);
  const WarpInst load = memory_inst(InstClass::Load, MemorySpace::Global, 4);
  const MemoryTiming t = unit.access(access_of(load, workload.stream), 10);
  REQUIRE(port.sent.size() == 1);
  CHECK(port.sent[0].kind == memory::MemKind::Load);
  CHECK(port.sent[0].bytes == 128);
  CHECK(port.sent[0].address == LoadStoreUnit::default_base(0x40));
  CHECK(port.sent[0].cycle == 10);
  CHECK(t.done == 110);
  CHECK(t.unit_free == 11);
  CHECK(unit.counters().requests == 1);
  CHECK(unit.counters().bytes_requested == 128);
}

TEST_CASE("LSU: 16-byte lanes are four requests, one per cycle after each acceptance", "[lsu]") {
  OneWarpWorkload workload;
  RecordingPort port;
  port.accept_after = 3;  // the L1 holds each request 3 cycles (an MSHR stall)
  LoadStoreUnit unit(LoadStoreConfig{}, workload, port);
  const WarpInst store = memory_inst(InstClass::Store, MemorySpace::Global, 16);
  const MemoryTiming t = unit.access(access_of(store, workload.stream), 0);
  REQUIRE(port.sent.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    CHECK(port.sent[k].kind == memory::MemKind::Store);
    CHECK(port.sent[k].bytes == 128);
    CHECK(port.sent[k].address == LoadStoreUnit::default_base(0x40) + 128 * k);
    CHECK(port.sent[k].cycle == 4 * k);
  }
  CHECK(t.unit_free == 16);
  CHECK(t.done == 12 + 3 + 100);
}

TEST_CASE("LSU: shared accesses cost bank passes and send nothing", "[lsu]") {
  OneWarpWorkload workload;
  RecordingPort port;
  LoadStoreConfig config;
  config.shared_latency = 24;
  LoadStoreUnit unit(config, workload, port);
  const WarpInst shared = memory_inst(InstClass::Load, MemorySpace::Shared, 4);
  MemoryTiming t = unit.access(access_of(shared, workload.stream), 5);
  CHECK(t.done == 5 + 24);
  CHECK(t.l1_hit);
  CHECK(port.sent.empty());
  CHECK(unit.counters().shared_passes == 1);
}

TEST_CASE("LSU: a constant load is one 64-byte constant request per line its lanes read", "[lsu]") {
  OneWarpWorkload workload;
  RecordingPort port;
  LoadStoreUnit unit(LoadStoreConfig{}, workload, port);
  // The default constant model: every lane reads the same word of the PC's own table,
  // the next word on the warp's next execution.
  WarpInst constant = memory_inst(InstClass::Load, MemorySpace::Constant, 4);
  constant.pc = 0x48;
  const MemoryTiming t = unit.access(access_of(constant, workload.stream), 5);
  constant.mem_tag = 1;
  unit.access(access_of(constant, workload.stream), 7);
  REQUIRE(port.sent.size() == 2);
  for (const RecordingPort::Sent& s : port.sent) {
    CHECK(s.space == memory::MemSpace::Constant);
    CHECK(s.bytes == 64);
    CHECK(s.address == memory::array_base(memory::MemSpace::Constant, 0x48));
  }
  CHECK(t.done == 5 + 100);
  CHECK(unit.counters().constant_loads == 2);
  CHECK(unit.counters().requests == 2);
}

TEST_CASE("LSU: traced lane addresses are used as given", "[lsu][accelsim]") {
  OneWarpWorkload workload;
  RecordingPort port;
  LoadStoreUnit unit(LoadStoreConfig{}, workload, port);
  WarpInst load = memory_inst(InstClass::Load, MemorySpace::Global, 4);
  load.mem = MemOperand::make(MemorySpace::Global, 4, false, true);
  load.num_dst = 0;
  load.value_index = 0;
  workload.trace.values.resize(2);
  // Lanes 0-15 read one 64-byte half of a line, lanes 16-31 a word 1 MiB away each.
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    const uint64_t a = lane < 16 ? 0x1234500000ull + 4 * lane : 0x1234500000ull + (lane << 20);
    workload.trace.values[0].lane[lane] = static_cast<uint32_t>(a);
    workload.trace.values[1].lane[lane] = static_cast<uint32_t>(a >> 32);
  }
  WarpInst exit;
  exit.cls = InstClass::Exit;
  workload.trace.insts = {load, exit};
  workload.stream.play(workload.trace);
  const WarpInst& played = workload.stream.at(0);
  unit.access(access_of(played, workload.stream), 0);
  REQUIRE(port.sent.size() == 17);
  CHECK(port.sent[0].address == 0x1234500000ull);
  CHECK(port.sent[0].bytes == 64);
  CHECK(port.sent[1].address == 0x1234500000ull + (16u << 20));
  CHECK(port.sent[1].bytes == 32);
  CHECK(unit.counters().traced == 1);
}

TEST_CASE("accelsim: memory operands keep their lanes' addresses in all three modes",
          "[import][accelsim][lsu]") {
  AccelSimTraceWorkload workload(std::string(WARPREG_TESTDATA_DIR) + "/accelsim/tiny.traceg", 1);
  auto lane_address = [](const WarpTrace& s, const WarpInst& i, uint32_t lane) {
    return (uint64_t(s.values[i.value_index + i.num_dst + 1].lane[lane]) << 32) |
           s.values[i.value_index + i.num_dst].lane[lane];
  };
  const WarpTrace w0 = record(workload.load_warp(0, 0, 0));
  const WarpInst& ldg = w0.insts[3];  // mode 0: one address per active lane
  REQUIRE(ldg.mem.traced());
  CHECK(ldg.mem.space() == MemorySpace::Global);
  CHECK(ldg.mem.access_bytes() == 4);
  CHECK_FALSE(ldg.mem.atomic());
  for (uint32_t lane = 0; lane < 4; ++lane)
    CHECK(lane_address(w0, ldg, lane) == 0x7f0000001000ull + 4 * lane);
  CHECK(w0.insts[6].mem.space() == MemorySpace::Shared);  // STS, no active lane

  const WarpTrace w1 = record(workload.load_warp(1, 0, 1));
  const WarpInst& atom = w1.insts[1];  // mode 2: base and deltas
  CHECK(atom.mem.atomic());
  for (uint32_t lane = 0; lane < 4; ++lane)
    CHECK(lane_address(w1, atom, lane) == 0x7f0000003000ull + 4 * lane);
  const WarpInst& stg = w1.insts[2];  // mode 1: base and stride
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    CHECK(lane_address(w1, stg, lane) == 0x7f0000004000ull + 4 * lane);
  CHECK(w1.insts[0].mem.space() == MemorySpace::None);  // MOV
}

TEST_CASE("accelsim: a memory width the coalescer cannot take is a clear error",
          "[import][accelsim][bad-input]") {
  std::istringstream in(
      "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#BEGIN_TB\n"
      "thread block = 0,0,0\nwarp = 0\ninsts = 2\n"
      "0000 ffffffff 1 R4 LDG.E 1 R2 12 1 0x1000 12\n"
      "0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
  CHECK_THROWS_WITH(AccelSimTraceWorkload(in, "w.traceg", 1),
                    Catch::Matchers::Contains("w.traceg:8: mem_width must be 1, 2, 4, 8 or 16"));
}

TEST_CASE("memory system: the real trace's bytes match the coalescing model, no mismatches",
          "[platform][memory_system][accelsim]") {
  const std::string trace =
      std::string(WARPREG_SHARED_DATA_DIR) + "/accelsim/kernel-593-ctx_0x55c28dad19e0.traceg";
  const Params params = Params::load("baseline", {"mem.model=memory_system"});
  SmPlatform platform(params, open_workload(trace, params));
  const nlohmann::json stats = platform.run();
  REQUIRE(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  const nlohmann::json& lsu = stats["memory"]["load_store_unit"];
  // 220 warps x (2 LDG.128 + 2 STG.128), each 32 lanes x 16 contiguous bytes = 4 lines.
  CHECK(lsu["traced"] == 880);
  CHECK(lsu["requests"] == 880 * 4);
  CHECK(lsu["bytes_requested"] == 880 * 512);
  const nlohmann::json& l1 = stats["memory"]["blocks"]["l1"];
  CHECK(l1["requests"] == 880 * 4);
  CHECK(l1["read_misses"] == 440 * 4);  // every line is read once: a streaming kernel
  uint64_t dram_read = 0;
  for (auto it = stats["memory"]["blocks"].begin(); it != stats["memory"]["blocks"].end(); ++it)
    dram_read += it->value("bytes_read", uint64_t{0});
  CHECK(dram_read == 440 * 512);
  // Every load waits for DRAM: at least one idle-system DRAM access, 291 L1 cycles at
  // 700 MHz = 582 SM cycles at 1400 MHz (docs/memory.md).
  CHECK(stats["cycles"].get<uint64_t>() > 582);
}

TEST_CASE("memory system: a synthetic run finishes with every load through the L1",
          "[platform][memory_system]") {
  const Params params = Params::load(
      "baseline", {"mem.model=memory_system", "synth.ctas=4", "synth.insts_per_warp=100"});
  SmPlatform platform(params, open_workload("synthetic", params));
  const nlohmann::json stats = platform.run();
  REQUIRE(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  const uint64_t memory_insts =
      stats["memory"]["loads"].get<uint64_t>() + stats["memory"]["stores"].get<uint64_t>();
  CHECK(memory_insts > 0);
  CHECK(stats["memory"]["load_store_unit"]["instructions"] == memory_insts);
  CHECK(stats["memory"]["blocks"]["l1"]["requests"] ==
        stats["memory"]["load_store_unit"]["requests"]);
  CHECK(stats["energy_pj"].contains("memory_system"));
}

TEST_CASE("memory system: compiler spills and fills are local accesses through the L1",
          "[platform][memory_system][spill]") {
  const Params params =
      Params::load("compiler-spill-64k",
                   {"mem.model=memory_system", "profile.ctas=8", "kernel.address_mix=none"});
  SmPlatform platform(params, open_workload("rfv-hotspot", params));
  const nlohmann::json stats = platform.run();
  REQUIRE(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  const nlohmann::json& lsu = stats["memory"]["load_store_unit"];
  CHECK(lsu["local"].get<uint64_t>() > 0);
  CHECK(lsu["local"].get<uint64_t>() < lsu["instructions"].get<uint64_t>());
  // A spilled register's word is one 128-byte segment per warp, as is every global access
  // of the default models: one request each.
  CHECK(lsu["requests"] == lsu["instructions"]);
  // Fills find the lines their spills wrote (local stores stay in the L1, write-back).
  CHECK(stats["memory"]["blocks"]["l1"]["read_hits"].get<uint64_t>() > 0);
}

TEST_CASE("memory system: RFV's spills and fills go through the L1 as local accesses",
          "[platform][memory_system][spill][rfv]") {
  const Params params = Params::load("rfv-shrink", {"mem.model=memory_system", "profile.ctas=12"});
  SmPlatform platform(params, open_workload("rfv-scalarprod", params));
  const nlohmann::json stats = platform.run();
  REQUIRE(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  const uint64_t spills = stats["blocks"]["rfv"]["spills"];
  const uint64_t fills = stats["blocks"]["rfv"]["fills"];
  REQUIRE(spills > 0);
  const nlohmann::json& lsu = stats["memory"]["load_store_unit"];
  // One store per spilled register and one load per filled one.
  CHECK(lsu["design_transfers"] == 2 * stats["blocks"]["rfv"]["spilled_registers"].get<uint64_t>());
  CHECK(fills == spills);
  CHECK(lsu["local"].get<uint64_t>() >= lsu["design_transfers"].get<uint64_t>());
}

TEST_CASE("memory system: constant loads go through the constant cache to the L2",
          "[platform][memory_system]") {
  // kmeans's mix (the register-insensitive row) reads its cluster centres from constant
  // memory: 30 % of the static memory instructions, every thread the same word.
  const Params params = Params::load("baseline", {"mem.model=memory_system", "profile.ctas=4"});
  SmPlatform platform(params, open_workload("ltrf-register-insensitive", params));
  const nlohmann::json stats = platform.run();
  REQUIRE(stats["status"] == "ok");
  CHECK(stats["integrity"]["mismatches"] == 0);
  const nlohmann::json& lsu = stats["memory"]["load_store_unit"];
  const nlohmann::json& l1c = stats["memory"]["blocks"]["l1c"];
  REQUIRE(lsu["constant_loads"].get<uint64_t>() > 0);
  // A warp's uniform constant load is one 64-byte line; warps share lines, so most hit
  // or merge into the miss in flight.
  CHECK(l1c["reads"] == lsu["constant_loads"]);
  CHECK(l1c["read_misses"].get<uint64_t>() > 0);
  CHECK(l1c["read_hits"].get<uint64_t>() + l1c["mshr_merges"].get<uint64_t>() >
        l1c["read_misses"].get<uint64_t>());
  CHECK(l1c["bytes_from_below"].get<uint64_t>() > 0);
  CHECK(l1c["dynamic_pj"].get<double>() > 0);
  // Its energy is part of the memory system's.
  double blocks = 0;
  for (const auto& [name, block] : stats["memory"]["blocks"].items())
    blocks += block.value("dynamic_pj", 0.0) + block.value("leakage_pj", 0.0);
  CHECK(stats["energy_pj"]["memory_system"].get<double>() == Approx(blocks));
}

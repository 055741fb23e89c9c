// Replays `warpreg vectors regmutex` on the RTL SRP allocator and mapping unit
// (rtl/srp_allocator.sv; docs/vectors.md#regmutex).
//
// Record k is presented in one cycle (start with its launch configuration, or an acquire
// or release request), with an idle cycle every seventh; in the next cycle rsp_outcome,
// rsp_section and rsp_holds must be record k's outcome, section and holds, srp_bitmask
// and warp_status its bitmasks, and the mapping unit, given record k's warp and x, its
// extended, fault and phys. After an idle cycle rsp_outcome must be none, rsp_section and
// rsp_holds 0, and the rest unchanged.
//
//   srp_replay FILE.jsonl     exit 0: no mismatch; 1: mismatches (the first ones printed
//                             with their step); 2: a bad file
#include <memory>

#include "Vsrp_allocator.h"
#include "replay.h"
#include "verilated.h"

namespace {

const std::vector<std::string> kOps = {"start", "acquire", "release"};
const std::vector<std::string> kModes = {"shared", "paired"};
// The RTL's rsp_outcome codes.
const std::vector<std::string> kOutcomes = {"none", "acquired", "released", "no_effect", "stall"};

struct Step {
  uint32_t op, warp, x, paired, sections, bs, es, srp_offset;
  uint32_t outcome, holds, section, extended, fault, phys;
  uint64_t srp_bitmask, warp_status;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2)
    replay::fail("usage: srp_replay FILE.jsonl (warpreg vectors regmutex --out FILE.jsonl)");
  replay::Reader reader(argv[1], "regmutex");
  const nlohmann::json& p = reader.header().at("parameters");
  if (p.at("max_warps") != 48 || p.at("index_bits") != 8 || p.at("phys_bits") != 10 ||
      p.at("response_latency") != 1 || p.at("mapping_latency") != 0)
    replay::fail(
        "the RTL is built for N_w = 48, 8-bit indices, 10-bit physical registers, "
        "1-cycle responses, a combinational mapping; the file has " +
        p.dump());
  replay::expect_enum(reader.header(), "op", kOps);
  replay::expect_enum(reader.header(), "mode", kModes);
  replay::expect_enum(reader.header(), "outcome", kOutcomes);

  std::vector<Step> steps;
  for (nlohmann::json r; reader.next(r);) {
    Step s;
    s.op = replay::code(kOps, r.at("op"));
    s.warp = r.at("warp");
    s.x = r.at("x");
    s.paired = replay::code(kModes, r.at("mode"));
    s.sections = r.at("sections");
    s.bs = r.at("bs");
    s.es = r.at("es");
    s.srp_offset = r.at("srp_offset");
    s.outcome = replay::code(kOutcomes, r.at("outcome"));
    s.holds = r.at("holds").get<bool>();
    s.section = r.at("section");
    s.srp_bitmask = replay::wide(r.at("srp_bitmask"));
    s.warp_status = replay::wide(r.at("warp_status"));
    s.extended = r.at("extended").get<bool>();
    s.fault = r.at("fault").get<bool>();
    s.phys = r.at("phys");
    steps.push_back(s);
  }
  if (steps.size() != reader.count())
    replay::fail(std::string(argv[1]) + ": " + std::to_string(steps.size()) +
                 " records, the header says " + std::to_string(reader.count()));
  if (steps.empty() || steps[0].op != 0) replay::fail("the first record must be a start");

  const auto context = std::make_unique<VerilatedContext>();
  context->randReset(2);  // registers start random: nothing may rely on an unreset value
  Vsrp_allocator dut{context.get()};
  const auto tick = [&] {
    dut.clk = 1;
    dut.eval();
    dut.clk = 0;
    dut.eval();
  };
  dut.rst_n = 0;
  dut.start = dut.req_valid = 0;
  dut.eval();
  tick();
  dut.rst_n = 1;
  tick();

  replay::Checker check("srp");
  size_t next = 0;
  bool answered = false;  // the previous cycle presented record next - 1
  uint64_t cycle = 0;
  while (next < steps.size() || answered) {
    const bool drive = next < steps.size() && cycle % 7 != 6;
    dut.start = dut.req_valid = 0;
    if (drive) {
      const Step& s = steps[next];
      dut.start = s.op == 0;
      dut.cfg_paired = s.paired;
      dut.cfg_sections = s.sections;
      dut.cfg_bs = s.bs;
      dut.cfg_es = s.es;
      dut.cfg_srp_offset = s.srp_offset;
      dut.req_valid = s.op != 0;
      dut.req_release = s.op == 2;
      dut.req_warp = s.warp;
    }
    if (next > 0) {
      const Step& last = steps[next - 1];
      dut.map_warp = last.warp;
      dut.map_x = last.x;
    }
    dut.eval();
    if (next > 0) {
      const size_t k = next - 1;
      const Step& s = steps[k];
      check.check(k, "rsp_outcome", dut.rsp_outcome, answered ? s.outcome : 0);
      check.check(k, "rsp_section", dut.rsp_section, answered ? s.section : 0);
      check.check(k, "rsp_holds", dut.rsp_holds, answered ? s.holds : 0);
      check.check(k, "srp_bitmask", dut.srp_bitmask, s.srp_bitmask);
      check.check(k, "warp_status", dut.warp_status, s.warp_status);
      check.check(k, "map_extended", dut.map_extended, s.extended);
      check.check(k, "map_fault", dut.map_fault, s.fault);
      check.check(k, "map_phys", dut.map_phys, s.phys);
    }
    answered = drive;
    if (drive) ++next;
    tick();
    ++cycle;
  }
  dut.final();
  return check.finish(std::to_string(steps.size()) + " steps in " + std::to_string(cycle) +
                      " cycles");
}

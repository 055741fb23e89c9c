// Clock and reset for srp_memh_tb.sv, which replays a $readmemh golden-vector file:
//
//   srp_memh_replay FILE.memh    exit 0: no mismatch; 1: mismatches; 2: a bad file
//
// The step count comes from the file's header comment (the JSON header record).
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "Vsrp_memh_tb.h"
#include "replay.h"
#include "verilated.h"

int main(int argc, char** argv) {
  if (argc != 2)
    replay::fail("usage: srp_memh_replay FILE.memh (warpreg vectors regmutex --format memh)");
  std::ifstream in(argv[1]);
  std::string first;
  if (!std::getline(in, first) || first.rfind("// {", 0) != 0)
    replay::fail(std::string(argv[1]) + ": no header comment (docs/vectors.md)");
  const nlohmann::json header = nlohmann::json::parse(first.substr(3));
  if (header.value("generator", "") != "regmutex")
    replay::fail(std::string(argv[1]) + ": not regmutex vectors");
  const uint64_t count = header.at("count");

  const auto context = std::make_unique<VerilatedContext>();
  context->randReset(2);
  const std::string vectors = std::string("+vectors=") + argv[1];
  const std::string steps = "+count=" + std::to_string(count);
  const char* args[] = {argv[0], vectors.c_str(), steps.c_str()};
  context->commandArgs(3, args);
  Vsrp_memh_tb tb{context.get()};
  const auto tick = [&] {
    tb.clk = 1;
    tb.eval();
    tb.clk = 0;
    tb.eval();
  };
  tb.rst_n = 0;
  tb.eval();
  tick();
  tick();
  tb.rst_n = 1;
  uint64_t cycles = 0;
  while (!tb.done && !context->gotFinish()) {
    tick();
    ++cycles;
  }
  tb.final();
  if (context->gotFinish()) return 2;  // $fatal: the testbench printed why
  std::printf("srp memh: %llu steps in %llu cycles, %u mismatches\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(cycles),
              static_cast<unsigned>(tb.mismatches));
  return tb.mismatches == 0 ? 0 : 1;
}

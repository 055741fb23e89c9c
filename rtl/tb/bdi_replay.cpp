// Replays `warpreg vectors bdi` on the RTL BDI compressor and decompressor
// (rtl/bdi_compressor.sv, rtl/bdi_decompressor.sv; docs/vectors.md#bdi).
//
// Every record drives both blocks in the same cycle, back to back with an idle cycle
// every seventh: the compressor gets `data` and must answer `indicator`, `banks` and
// `image` exactly two cycles later; the decompressor gets `indicator` and `image` and
// must answer `data` one cycle later. out_valid must rise exactly then and never else.
//
//   bdi_replay FILE.jsonl     exit 0: no mismatch; 1: mismatches (the first ones printed
//                             with their step); 2: a bad file
#include <array>
#include <deque>
#include <memory>

#include "Vbdi_compressor.h"
#include "Vbdi_decompressor.h"
#include "replay.h"
#include "verilated.h"

namespace {

struct Step {
  std::array<uint32_t, 32> data, image;
  uint32_t indicator, banks;
};

struct Due {
  uint64_t cycle;
  size_t step;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2)
    replay::fail("usage: bdi_replay FILE.jsonl (warpreg vectors bdi --out FILE.jsonl)");
  replay::Reader reader(argv[1], "bdi");
  const nlohmann::json& p = reader.header().at("parameters");
  if (p.at("variant") != "warped" ||
      p.at("choices") != nlohmann::json::array({"<4,0>", "<4,1>", "<4,2>"}) ||
      p.at("compressor_latency") != 2 || p.at("decompressor_latency") != 1)
    replay::fail(
        "the RTL is the warped codec (<4,0>, <4,1>, <4,2>; 2 and 1 cycles), the file has " +
        p.dump());

  std::vector<Step> steps;
  steps.reserve(reader.count());
  for (nlohmann::json r; reader.next(r);) {
    Step s;
    const std::vector<uint32_t> data = replay::words(r.at("data"), 32);
    const std::vector<uint32_t> image = replay::words(r.at("image"), 32);
    std::copy(data.begin(), data.end(), s.data.begin());
    std::copy(image.begin(), image.end(), s.image.begin());
    s.indicator = r.at("indicator");
    s.banks = r.at("banks");
    steps.push_back(s);
  }
  if (steps.size() != reader.count())
    replay::fail(std::string(argv[1]) + ": " + std::to_string(steps.size()) +
                 " records, the header says " + std::to_string(reader.count()));

  const auto context = std::make_unique<VerilatedContext>();
  context->randReset(2);  // registers start random: nothing may rely on an unreset value
  Vbdi_compressor comp{context.get()};
  Vbdi_decompressor decomp{context.get()};
  const auto eval = [&] {
    comp.eval();
    decomp.eval();
  };
  const auto tick = [&] {
    comp.clk = decomp.clk = 1;
    eval();
    comp.clk = decomp.clk = 0;
    eval();
  };
  comp.rst_n = decomp.rst_n = 0;
  comp.in_valid = decomp.in_valid = 0;
  eval();
  tick();
  comp.rst_n = decomp.rst_n = 1;
  tick();

  replay::Checker check("bdi");
  std::deque<Due> comp_due, decomp_due;
  size_t next = 0;
  uint64_t cycle = 0;
  while (next < steps.size() || !comp_due.empty() || !decomp_due.empty()) {
    const bool drive = next < steps.size() && cycle % 7 != 6;
    comp.in_valid = decomp.in_valid = drive;
    if (drive) {
      const Step& s = steps[next];
      for (unsigned i = 0; i < 32; ++i) {
        comp.in_data[i] = s.data[i];
        decomp.in_image[i] = s.image[i];
      }
      decomp.in_indicator = s.indicator;
    }
    eval();

    if (!comp_due.empty() && comp_due.front().cycle == cycle) {
      const size_t k = comp_due.front().step;
      comp_due.pop_front();
      if (!comp.out_valid) check.error(cycle, "compressor out_valid low when a result is due");
      check.check(k, "compressor out_indicator", comp.out_indicator, steps[k].indicator);
      check.check(k, "compressor out_banks", comp.out_banks, steps[k].banks);
      check.check_words(k, "compressor out_image", &comp.out_image[0],
                        {steps[k].image.begin(), steps[k].image.end()});
    } else if (comp.out_valid) {
      check.error(cycle, "compressor out_valid high with no result due");
    }
    if (!decomp_due.empty() && decomp_due.front().cycle == cycle) {
      const size_t k = decomp_due.front().step;
      decomp_due.pop_front();
      if (!decomp.out_valid) check.error(cycle, "decompressor out_valid low when a result is due");
      check.check_words(k, "decompressor out_data", &decomp.out_data[0],
                        {steps[k].data.begin(), steps[k].data.end()});
    } else if (decomp.out_valid) {
      check.error(cycle, "decompressor out_valid high with no result due");
    }
    if (drive) {
      comp_due.push_back({cycle + 2, next});
      decomp_due.push_back({cycle + 1, next});
      ++next;
    }
    tick();
    ++cycle;
  }
  comp.final();
  decomp.final();
  return check.finish(std::to_string(steps.size()) + " registers compressed and decompressed in " +
                      std::to_string(cycle) + " cycles");
}

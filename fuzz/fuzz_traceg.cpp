// libFuzzer harness: the Accel-Sim .traceg reader, then its rebuilt CFG's compiler
// metadata and the first warp.
#include <sstream>

#include "fuzz/fuzz_support.h"
#include "stimuli/import/accelsim_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  fuzz::expect_documented_errors([&] {
    std::istringstream in(fuzz::text_of(data, size));
    AccelSimTraceWorkload trace(in, "fuzz.traceg", 1);
    fuzz::play_first_warp(trace);
  });
  return 0;
}

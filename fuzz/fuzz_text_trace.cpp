// libFuzzer harness: the warpreg text trace reader (docs/trace-format.md), then the
// first warp of what it read.
#include <sstream>

#include "fuzz/fuzz_support.h"
#include "stimuli/driver/trace_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  fuzz::expect_documented_errors([&] {
    std::istringstream in(fuzz::text_of(data, size));
    TraceWorkload trace(in, "fuzz.trace");
    fuzz::play_first_warp(trace);
  });
  return 0;
}

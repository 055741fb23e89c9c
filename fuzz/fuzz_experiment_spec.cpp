// libFuzzer harness: an experiment spec (experiments/*.json) as `warpreg experiment
// NAME --quick` reads it: the sweep format with its "quick" fields and figures applied.
#include "fuzz/fuzz_spec_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warpreg::fuzz::read_spec(data, size, true);
  return 0;
}

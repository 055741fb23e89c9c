// libFuzzer harness: a sweep spec (docs/sweeps.md) as `warpreg sweep SPEC.json` reads it.
#include "fuzz/fuzz_spec_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warpreg::fuzz::read_spec(data, size, false);
  return 0;
}

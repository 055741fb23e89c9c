// libFuzzer harness: a preset file (JSON) as `--preset FILE.json` reads it, inheriting
// shipped presets by name.
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  const std::string path = fuzz::scratch_file("preset.json", data, size);
  fuzz::expect_documented_errors([&] { Params::load(path); });
  return 0;
}

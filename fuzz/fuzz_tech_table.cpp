// libFuzzer harness: a technology table (power/tech/*.json format) read by path.
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  const std::string path = fuzz::scratch_file("tech.json", data, size);
  fuzz::expect_documented_errors([&] {
    const power::TechTable table = power::TechTable::load(path);
    if (table.has("vdd")) (void)table.value_for("fuzz", "vdd");
  });
  return 0;
}

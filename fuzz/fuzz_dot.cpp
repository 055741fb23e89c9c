// libFuzzer harness: the nvdisasm .dot reader, then the first function executed.
#include <sstream>

#include "fuzz/fuzz_kernel_support.h"
#include "stimuli/import/nvdisasm_dot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  fuzz::expect_documented_errors([&] {
    std::istringstream in(fuzz::text_of(data, size));
    const std::vector<Kernel> functions = read_nvdisasm_dot_functions(in, "fuzz.dot");
    if (!functions.empty()) fuzz::execute_first_warp(functions.front());
  });
  return 0;
}

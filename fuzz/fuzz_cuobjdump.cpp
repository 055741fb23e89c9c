// libFuzzer harness: the cuobjdump -sass listing reader, then the first function executed.
#include <sstream>

#include "fuzz/fuzz_kernel_support.h"
#include "stimuli/import/cuobjdump.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  fuzz::expect_documented_errors([&] {
    std::istringstream in(fuzz::text_of(data, size));
    const CuobjdumpListing listing = read_cuobjdump(in, "fuzz.sass");
    if (!listing.functions.empty()) fuzz::execute_first_warp(listing.functions.front().kernel);
  });
  return 0;
}

// libFuzzer harness: the benchmark profile reader (JSON), then the kernel it generates
// and its first warp.
#include <map>

#include "fuzz/fuzz_kernel_support.h"
#include "stimuli/driver/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  fuzz::expect_documented_errors([&] {
    const Profile profile = parse_profile(fuzz::text_of(data, size), "fuzz.json");
    std::map<uint32_t, uint32_t> trips;
    fuzz::execute_first_warp(generate_profile_kernel(profile, 1, trips));
  });
  return 0;
}

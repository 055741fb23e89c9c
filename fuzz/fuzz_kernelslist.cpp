// libFuzzer harness: the Accel-Sim kernelslist.g reader. Its entries name traces relative
// to the list's folder; the scratch folder holds one, kernel-1.traceg.
#include <sstream>

#include "fuzz/fuzz_support.h"
#include "stimuli/import/application.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  static const std::string trace = [] {
    const char kTrace[] = "-kernel name = k\n";
    return fuzz::scratch_file("kernel-1.traceg", reinterpret_cast<const uint8_t*>(kTrace),
                              sizeof kTrace - 1);
  }();
  (void)trace;
  fuzz::expect_documented_errors([&] {
    std::istringstream in(fuzz::text_of(data, size));
    read_kernels_list(in, fuzz::scratch_dir() + "/kernelslist.g");
  });
  return 0;
}

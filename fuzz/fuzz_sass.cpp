// libFuzzer harness: the SASS instruction grammar and its operand decoding, in both
// dialects, one instruction per input line.
#include <sstream>

#include "fuzz/fuzz_support.h"
#include "stimuli/kernel/kernel_ir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpreg;
  std::istringstream in(fuzz::text_of(data, size));
  std::string line;
  for (unsigned n = 0; n < 64 && std::getline(in, line); ++n) {
    fuzz::expect_documented_errors([&] {
      parse_sass(line, 8 * n, SassDialect::Fermi);
      parse_sass(line, 8 * n, SassDialect::Tesla);
    });
  }
  return 0;
}

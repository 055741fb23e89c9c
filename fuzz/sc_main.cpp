// libsystemc.so refers to sc_main; a harness's main is libFuzzer's, which never calls it.
// The readers under test elaborate no SystemC module.
#include <cstdio>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::fprintf(stderr, "warpreg fuzz: sc_main is not used by the harnesses\n");
  return 1;
}

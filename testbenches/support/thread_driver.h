#pragma once
// A test bench's own SystemC thread: the body runs in an SC_THREAD once sc_start() is
// called, so it may wait() and drive sockets with annotated time.
#include <functional>
#include <systemc>
#include <utility>

namespace warpreg::testing {

struct ThreadDriver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(ThreadDriver);
  ThreadDriver(sc_core::sc_module_name name, std::function<void()> b)
      : sc_module(name), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() { body(); }
};

}  // namespace warpreg::testing

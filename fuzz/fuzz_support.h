#pragma once
// What every harness shares: the input as text, a scratch folder for readers that take a
// path, and the rule that a reader may only fail with one of warpreg's documented errors
// (a message naming the input, of bounded length). Anything else aborts, which libFuzzer
// reports as a crash with the input that caused it.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include "apps/sweep/sweep_spec.h"
#include "common/errors.h"
#include "common/json_input.h"
#include "common/params.h"
#include "modules/interfaces/workload.h"
#include "power/energy.h"
#include "stimuli/kernel/sass_grammar.h"

namespace warpreg {
/// Defined beside the SM platform's parameters: referring to it links them, so that
/// presets and specs naming sm.* parameters are read as the program reads them.
extern const void* const kPlatformParams_linked;
}  // namespace warpreg

namespace warpreg::fuzz {

[[maybe_unused]] inline const void* const kLinkPlatformParams = kPlatformParams_linked;

/// Longest message a documented error may carry: quoted input is cut.
constexpr size_t kMaxMessage = 2048;

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// A private folder for files the readers open by path (removed by the OS on reboot).
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    char name[] = "/tmp/warpreg-fuzz-XXXXXX";
    if (mkdtemp(name) == nullptr) std::abort();
    return std::string(name);
  }();
  return dir;
}

/// Writes `data` to scratch_dir()/NAME and returns the path.
inline std::string scratch_file(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return path;
}

[[noreturn]] inline void finding(const char* kind, const std::string& message) {
  std::fprintf(stderr, "warpreg fuzz: %s: %.4000s\n", kind, message.c_str());
  std::abort();
}

inline void check_message(const std::exception& e) {
  const std::string message = e.what();
  if (message.empty()) finding("empty error message", "");
  if (message.size() > kMaxMessage) finding("error message too long", message);
}

/// Runs `read`; the documented errors pass (with a bounded message), anything else aborts.
template <typename Read>
void expect_documented_errors(Read&& read) {
  try {
    read();
  } catch (const WorkloadError& e) {
    check_message(e);
  } catch (const ParamError& e) {
    check_message(e);
  } catch (const ConfigError& e) {
    check_message(e);
  } catch (const power::TechError& e) {
    check_message(e);
  } catch (const JsonInputError& e) {
    check_message(e);
  } catch (const SassSyntaxError& e) {
    check_message(e);
  } catch (const sweep::SpecError& e) {
    check_message(e);
  } catch (const std::exception& e) {
    finding("undocumented exception", e.what());
  } catch (...) {
    finding("undocumented exception", "of unknown type");
  }
}

/// Plays warp 0 of CTA 0 to its exit: the stream of a reader's workload must be well formed.
inline void play_first_warp(Workload& workload) {
  WarpStream& stream = workload.load_warp(0, 0, 0);
  visit_stream(stream, [&](const WarpInst& inst, uint32_t) {
    if (inst.num_dst > kMaxDst || inst.num_src > kMaxSrc) finding("bad instruction", "operands");
  });
}

}  // namespace warpreg::fuzz

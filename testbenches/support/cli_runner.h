#pragma once
// Helpers of the test benches that run the built `warpreg` program: a scratch folder
// per test process, and a run that captures the exit status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

namespace warpreg::testing {

/// A folder of its own per test process and instance, removed at the end, so that
/// parallel ctest runs do not collide.
class Scratch {
 public:
  explicit Scratch(const std::string& prefix = "warpreg_test")
      : path_(std::filesystem::temp_directory_path() /
              (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(next_++))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  static inline int next_ = 0;
  std::filesystem::path path_;
};

inline std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Outcome {
  int status = -1;  ///< exit status, or -1 when killed by a signal
  std::string out, err, args;
};

/// For INFO(): a failed check shows the command and everything it printed.
inline std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << "warpreg " << o.args << "\nexit status " << o.status << "\nstdout:\n"
            << o.out << "\nstderr:\n"
            << o.err;
}

/// Runs `warpreg ARGS` (stdin empty) with stdout and stderr captured in `scratch`.
inline Outcome run_warpreg(const Scratch& scratch, const std::string& args) {
  const std::filesystem::path out = scratch / "stdout", err = scratch / "stderr";
  const std::string command = std::string("'") + WARPREG_BINARY + "' " + args + " >'" +
                              out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int rc = std::system(command.c_str());
  Outcome o;
  o.status = (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  o.args = args;
  return o;
}

/// The same in a scratch folder of its own.
inline Outcome run_warpreg(const std::string& args) {
  const Scratch scratch("warpreg_test_run");
  return run_warpreg(scratch, args);
}

}  // namespace warpreg::testing

#pragma once
// How every stimulus reader opens its file: only regular files (a symlink is followed;
// a directory, /dev/zero or a FIFO is refused), within a size limit, gzip-compressed
// when the name ends in ".gz", read line by line with a bound on the line length.
// The limits are documented in docs/stimuli.md ("Input limits").
#include <cstdint>
#include <istream>
#include <memory>
#include <string>

namespace warpreg {

/// Limits on what one input may hold; each reader checks its own and names the file,
/// line and field that passes one.
namespace input_limits {
constexpr uint64_t kMaxTextBytes = uint64_t{2} << 30;          ///< traces, listings (decompressed)
constexpr uint64_t kMaxDotBytes = uint64_t{64} << 20;          ///< nvdisasm .dot (read whole)
constexpr uint64_t kMaxProfileBytes = uint64_t{1} << 20;       ///< profile .json
constexpr uint64_t kMaxKernelsListBytes = uint64_t{16} << 20;  ///< kernelslist.g
constexpr size_t kMaxLineBytes = size_t{1} << 20;              ///< one line of any text input
/// Dynamic warp instructions one trace (text or .traceg) may hold in memory (40 bytes each).
constexpr uint64_t kMaxTraceInstructions = uint64_t{1} << 25;
/// Destination values one trace may hold (128 bytes each).
constexpr uint64_t kMaxTraceValues = uint64_t{1} << 23;
/// Instructions in one function of a cuobjdump listing or .dot CFG.
constexpr uint64_t kMaxStaticInstructions = uint64_t{1} << 20;
/// Functions (kernel listings) in one file.
constexpr uint64_t kMaxFunctions = 10000;
/// Kernel launches in one kernelslist.g.
constexpr uint64_t kMaxKernelLaunches = 100000;
}  // namespace input_limits

/// Checks that `path` names a regular file (after following symlinks) of at most
/// `max_bytes`; throws WorkloadError("PATH: cannot read WHAT: ...") otherwise.
void check_input_file(const std::string& path, const std::string& what, uint64_t max_bytes);

/// True when `path` exists and is a regular file (after following symlinks).
bool is_regular_input(const std::string& path);

/// Opens a checked input; a name ending in ".gz" is decompressed on the fly, and more
/// than input_limits::kMaxTextBytes of decompressed text or a corrupt stream throws
/// WorkloadError naming the file.
std::unique_ptr<std::istream> open_input(const std::string& path, const std::string& what,
                                         uint64_t max_bytes);

/// The whole of a checked input as one string (at most `max_bytes`).
std::string read_input(const std::string& path, const std::string& what, uint64_t max_bytes);

/// The first `bytes` bytes of a file (decompressed when it ends in ".gz"), for telling
/// formats apart by their content; "" when it cannot be read.
std::string input_head(const std::string& path, size_t bytes);

/// Reads lines of at most input_limits::kMaxLineBytes, counting them; a longer line
/// throws WorkloadError("NAME:LINE: line longer than ..."). CR before LF is dropped.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  /// False at the end of the input.
  bool next(std::string& line);
  uint64_t line_number() const { return line_number_; }
  /// True when the stream failed for another reason than its end.
  bool failed() const { return in_.bad(); }

 private:
  std::istream& in_;
  std::string name_;
  uint64_t line_number_ = 0;
};

}  // namespace warpreg

#pragma once
// An output file that appears whole or not at all: written beside its final name, then
// renamed over it once complete, so a failure (bad input found midway, a full disk, an
// interrupted run) never leaves a partial file where a result is expected.
#include <fstream>
#include <string>

namespace warpreg {

class OutputFile {
 public:
  /// Opens "PATH.partial-PID" for writing; throws std::runtime_error naming PATH.
  explicit OutputFile(std::string path);
  /// Removes the partial file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ofstream& stream() { return out_; }
  /// Flushes, closes and renames onto the final path; throws std::runtime_error on failure.
  void commit();

 private:
  std::string path_;
  std::string partial_;
  std::ofstream out_;
  bool committed_ = false;
};

/// Writes `text` to `path` through an OutputFile.
void write_output_file(const std::string& path, const std::string& text);

}  // namespace warpreg

#include "stimuli/import/input_file.h"

#include <zlib.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <streambuf>

#include "common/input_check.h"
#include "modules/interfaces/workload.h"

namespace warpreg {

namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A gzip stream decompressed on the fly, at most `limit` bytes of output.
class GzipBuffer : public std::streambuf {
 public:
  GzipBuffer(const std::string& path, uint64_t limit) : path_(path), limit_(limit) {
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr)
      throw WorkloadError(path + ": cannot open: " + std::strerror(errno ? errno : ENOMEM));
    gzbuffer(file_, 1 << 16);
  }
  ~GzipBuffer() override { gzclose(file_); }
  GzipBuffer(const GzipBuffer&) = delete;
  GzipBuffer& operator=(const GzipBuffer&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file_, &code);
      throw WorkloadError(path_ + ": corrupt gzip stream: " + message);
    }
    if (n == 0) {
      if (!gzeof(file_)) throw WorkloadError(path_ + ": gzip stream ends early (truncated file)");
      return traits_type::eof();
    }
    total_ += static_cast<uint64_t>(n);
    if (total_ > limit_)
      throw WorkloadError(path_ + ": more than " + byte_count(limit_) +
                          " once decompressed (the input limit)");
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string path_;
  uint64_t limit_;
  uint64_t total_ = 0;
  gzFile file_ = nullptr;
  std::array<char, 1 << 16> buffer_{};
};

/// An istream owning its buffer; a WorkloadError thrown while reading propagates.
class GzipStream : public std::istream {
 public:
  GzipStream(const std::string& path, uint64_t limit)
      : std::istream(nullptr), buffer_(path, limit) {
    rdbuf(&buffer_);
    exceptions(std::ios::badbit);
  }

 private:
  GzipBuffer buffer_;
};

}  // namespace

bool is_regular_input(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

void check_input_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
  const std::string problem = input_file_problem(path, what, max_bytes);
  if (!problem.empty()) throw WorkloadError(problem);
}

std::unique_ptr<std::istream> open_input(const std::string& path, const std::string& what,
                                         uint64_t max_bytes) {
  check_input_file(path, what, max_bytes);
  if (ends_with(path, ".gz")) return std::make_unique<GzipStream>(path, max_bytes);
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) throw WorkloadError(path + ": cannot open " + what + ": " + std::strerror(errno));
  return in;
}

std::string read_input(const std::string& path, const std::string& what, uint64_t max_bytes) {
  const std::unique_ptr<std::istream> in = open_input(path, what, max_bytes);
  std::string text;
  std::array<char, 1 << 16> chunk{};
  while (in->read(chunk.data(), chunk.size()) || in->gcount() > 0) {
    text.append(chunk.data(), static_cast<size_t>(in->gcount()));
    if (text.size() > max_bytes)
      throw WorkloadError(path + ": " + what + " is over the limit of " + byte_count(max_bytes));
  }
  if (in->bad()) throw WorkloadError(path + ": read error in " + what);
  return text;
}

std::string input_head(const std::string& path, size_t bytes) {
  if (!is_regular_input(path)) return "";
  try {
    const std::unique_ptr<std::istream> in = open_input(path, "input", input_limits::kMaxTextBytes);
    std::string head(bytes, '\0');
    in->read(head.data(), static_cast<std::streamsize>(bytes));
    head.resize(static_cast<size_t>(in->gcount()));
    return head;
  } catch (const WorkloadError&) {
    return "";
  }
}

bool LineReader::next(std::string& line) {
  line.clear();
  std::streambuf* buffer = in_.rdbuf();
  if (buffer == nullptr || !in_.good()) return false;
  bool any = false;
  while (true) {
    const auto c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in_.setstate(std::ios::eofbit);
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() == input_limits::kMaxLineBytes)
      throw WorkloadError(name_ + ":" + std::to_string(line_number_ + 1) + ": line longer than " +
                          byte_count(input_limits::kMaxLineBytes) + " (the input limit)");
    line.push_back(static_cast<char>(c));
  }
  if (!any) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++line_number_;
  return true;
}

}  // namespace warpreg

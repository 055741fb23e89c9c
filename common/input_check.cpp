#include "common/input_check.h"

#include <filesystem>
#include <system_error>

#include "common/json_input.h"

namespace warpreg {

namespace {

namespace fs = std::filesystem;

std::string file_kind(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

std::string byte_count(uint64_t bytes) {
  if (bytes != 0 && bytes % (uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes != 0 && bytes % (uint64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

bool path_exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec) && !ec;
}

std::string input_file_problem(const std::string& path, const std::string& what,
                               uint64_t max_bytes) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || status.type() == fs::file_type::not_found)
    return excerpt_path(path) + ": cannot open " + what + ": " +
           (ec ? ec.message() : std::string("no such file"));
  if (status.type() != fs::file_type::regular)
    return path + ": cannot open " + what + ": " + file_kind(status.type()) +
           ", not a regular file";
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return path + ": cannot open " + what + ": " + ec.message();
  if (size > max_bytes)
    return path + ": " + what + " of " + std::to_string(size) + " bytes is over the limit of " +
           byte_count(max_bytes);
  return "";
}

}  // namespace warpreg

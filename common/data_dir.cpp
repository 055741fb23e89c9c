#include "common/data_dir.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

// The build defines these for this file only (CMakeLists.txt): the source tree, the
// configured installation's data folder, and the data folder relative to the installed
// libraries and program, which holds whatever prefix `cmake --install` is given.
#if !defined(WARPREG_SOURCE_DIR) || !defined(WARPREG_BINARY_DIR) ||        \
    !defined(WARPREG_INSTALL_DATA_DIR) || !defined(WARPREG_LIB_TO_DATA) || \
    !defined(WARPREG_BIN_TO_DATA)
#error "the build defines WARPREG_SOURCE_DIR and the install paths (CMakeLists.txt)"
#endif

namespace warpreg {

namespace fs = std::filesystem;

namespace {

// Any object of this library: dladdr names the shared library or program holding it.
const char kAnchor = 0;

bool holds_data(const fs::path& root) {
  std::error_code ec;
  return fs::is_directory(root / "platforms" / "presets", ec);
}

bool inside(const fs::path& file, const fs::path& folder) {
  const fs::path relative = file.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

// The data folder this code runs with, or empty: the folder beside the shared library
// (P/lib/libwarpreg_common.so) or the program (P/bin/warpreg) of an installation; the
// source tree when the library or program is the build tree's.
const std::string& found_data_dir() {
  static const std::string dir = [] {
    std::vector<fs::path> objects, candidates;
    Dl_info info{};
    if (dladdr(&kAnchor, &info) != 0 && info.dli_fname != nullptr) {
      const fs::path object(info.dli_fname);
      if (object.is_absolute()) {
        objects.push_back(object);
        candidates.push_back(object.parent_path() / WARPREG_LIB_TO_DATA);
      }
    }
    std::error_code ec;
    const fs::path program = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      objects.push_back(program);
      candidates.push_back(program.parent_path() / WARPREG_BIN_TO_DATA);
    }
    for (const fs::path& candidate : candidates)
      if (holds_data(candidate)) return fs::weakly_canonical(candidate, ec).string();
    for (const fs::path& object : objects)
      if (inside(fs::weakly_canonical(object, ec), fs::weakly_canonical(WARPREG_BINARY_DIR, ec)) &&
          holds_data(WARPREG_SOURCE_DIR))
        return std::string(WARPREG_SOURCE_DIR);
    return std::string();
  }();
  return dir;
}

}  // namespace

std::string data_dir() {
  const char* env = std::getenv("WARPREG_DATA_DIR");
  if (env != nullptr && *env != '\0') return env;
  if (!found_data_dir().empty()) return found_data_dir();
  return WARPREG_INSTALL_DATA_DIR;
}

std::string data_path(std::string_view relative) {
  return (fs::path(data_dir()) / fs::path(relative)).string();
}

}  // namespace warpreg

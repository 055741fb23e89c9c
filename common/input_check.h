#pragma once
// The first check of every input file: a regular file (a symlink is followed; a
// directory, /dev/zero or a FIFO is refused before anything is read) of bounded size.
#include <cstdint>
#include <string>

namespace warpreg {

/// Why `path` cannot be read as `what` of at most `max_bytes`, as a message naming the
/// path ("PATH: cannot open WHAT: a directory, not a regular file"); "" when it can.
std::string input_file_problem(const std::string& path, const std::string& what,
                               uint64_t max_bytes);

/// True when `path` names an existing file system object. Never throws: a name the system
/// cannot look up (a component too long, no permission) counts as missing, and the open
/// that follows says why.
bool path_exists(const std::string& path);

/// A size as "2 GiB", "1 MiB" or "N bytes".
std::string byte_count(uint64_t bytes);

}  // namespace warpreg

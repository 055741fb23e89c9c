#include "common/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace warpreg {

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), partial_(path_ + ".partial-" + std::to_string(::getpid())) {
  out_.open(partial_, std::ios::binary | std::ios::trunc);
  if (!out_) throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (committed_) return;
  out_.close();
  std::remove(partial_.c_str());
}

void OutputFile::commit() {
  out_.close();
  if (!out_) throw std::runtime_error("error writing " + path_);
  if (std::rename(partial_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

void write_output_file(const std::string& path, const std::string& text) {
  OutputFile file(path);
  file.stream() << text;
  file.commit();
}

}  // namespace warpreg

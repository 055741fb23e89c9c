#include "stimuli/import/application.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "modules/interfaces/workload.h"
#include "stimuli/import/cuobjdump.h"
#include "stimuli/import/input_file.h"
#include "stimuli/import/input_name.h"

namespace warpreg {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_decimal(std::string_view s) {
  return !s.empty() && s.size() <= 19 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(c) != 0; });
}

bool is_hex_address(std::string_view s) {
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  return std::all_of(s.begin() + 2, s.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

bool is_kernels_list_name(const std::string& path) { return ends_with(path, "kernelslist.g"); }

Application read_kernels_list(std::istream& in, const std::string& path) {
  Application app;
  app.path = path;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  LineReader lines(in, path);
  std::string line;
  while (lines.next(line)) {
    const std::string where = path + ":" + std::to_string(lines.line_number());
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (text.substr(0, 6) == "Memcpy") {
      // MemcpyHtoD,0x00007f2b5e000000,4194304
      const size_t first = text.find(',');
      const size_t second = first == std::string_view::npos ? first : text.find(',', first + 1);
      if (second == std::string_view::npos ||
          !is_hex_address(trim(text.substr(first + 1, second - first - 1))) ||
          !is_decimal(trim(text.substr(second + 1))))
        throw WorkloadError(where + ": expected 'MemcpyHtoD,0xADDRESS,BYTES', got '" +
                            std::string(text) + "'");
      app.memory_copies.emplace_back(text);
      continue;
    }
    if (!ends_with(text, ".traceg") && !ends_with(text, ".traceg.gz"))
      throw WorkloadError(where +
                          ": expected a kernel trace (NAME.traceg or NAME.traceg.gz) or "
                          "a Memcpy line, got '" +
                          std::string(text) + "'");
    if (app.launches.size() >= input_limits::kMaxKernelLaunches)
      throw WorkloadError(where + ": more than " +
                          std::to_string(input_limits::kMaxKernelLaunches) +
                          " kernel launches (the input limit)");
    const std::filesystem::path listed{std::string(text)};
    const std::string trace = listed.is_absolute() ? listed.string() : (folder / listed).string();
    if (!is_regular_input(trace))
      throw WorkloadError(where + ": kernel trace '" + std::string(text) + "' (" + trace +
                          ") is not a readable regular file");
    app.launches.push_back(ApplicationLaunch{trace, listed.filename().string(), where});
  }
  if (app.launches.empty())
    throw WorkloadError(path + ": no kernel launches (no NAME.traceg lines)");
  return app;
}

Application read_kernels_list(const std::string& path) {
  const auto in = open_input(path, "kernelslist", input_limits::kMaxKernelsListBytes);
  return read_kernels_list(*in, path);
}

Application read_cuobjdump_application(const std::string& path, const std::string& selector) {
  const CuobjdumpListing listing = read_cuobjdump(path);
  const std::string arch = selector.empty() ? listing.functions.front().arch
                                            : select_cuobjdump_function(listing, selector).arch;
  if (!selector.empty() && selector != arch)
    throw WorkloadError(path +
                        ": an application is every function of one architecture; name it "
                        "as FILE:sm_NN, not FILE:" +
                        selector);
  Application app;
  app.path = path;
  for (const CuobjdumpFunction& f : listing.functions)
    if (f.arch == arch)
      app.launches.push_back(ApplicationLaunch{path + ":" + cuobjdump_selector(f), f.name,
                                               path + ":" + std::to_string(f.line)});
  return app;
}

Application read_application(const std::string& name) {
  const std::optional<InputName> input = split_input_name(name);
  if (!input) throw WorkloadError(name + ": no such file");
  switch (detect_input_format(input->path)) {
    case InputFormat::KernelsList:
      if (!input->selector.empty())
        throw WorkloadError(name + ": a kernelslist.g takes no ':' selector");
      return read_kernels_list(input->path);
    case InputFormat::Cuobjdump:
      return read_cuobjdump_application(input->path, input->selector);
    default:
      throw WorkloadError(input->path +
                          ": not an application (a kernelslist.g or a cuobjdump listing)");
  }
}

}  // namespace warpreg

#pragma once
// Whole applications: the kernel launches of an Accel-Sim kernelslist.g, or every
// function of a cuobjdump listing, in launch order. Each launch is a workload name
// open_workload() accepts, so whoever runs an application (the SM platform, for
// per-kernel statistics and totals) opens and runs them one after the other.
// docs/accelsim-import.md, "Applications".
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace warpreg {

/// One kernel launch.
struct ApplicationLaunch {
  /// A name open_workload() accepts: "DIR/kernel-1.traceg" or "FILE:sm_20:FUNCTION".
  std::string workload;
  /// The kernel's name as far as the list knows it: the trace file name for a
  /// kernelslist.g (the trace's -kernel name is read when it is opened), the function
  /// name for a listing.
  std::string kernel;
  std::string origin;  ///< where the launch is listed: "FILE:LINE"
};

struct Application {
  std::string path;
  std::vector<ApplicationLaunch> launches;
  /// kernelslist.g lines that move memory (MemcpyHtoD,ADDR,BYTES): kept for reports,
  /// not simulated.
  std::vector<std::string> memory_copies;
};

/// True for a name read as an application: a file named kernelslist.g (or ending in
/// "kernelslist.g").
bool is_kernels_list_name(const std::string& path);

/// Reads a kernelslist.g: one entry per line, "kernel-N.traceg[.gz]" (relative to the
/// list's folder, or absolute), "MemcpyHtoD,0xADDR,BYTES", blank lines and '#' comments.
/// Every listed trace must be a regular file. Throws WorkloadError("FILE:LINE: ...").
Application read_kernels_list(const std::string& path);
Application read_kernels_list(std::istream& in, const std::string& path);

/// Every function of a cuobjdump listing for one architecture, in file order:
/// `selector` "sm_NN" picks it, "" takes the file's first.
Application read_cuobjdump_application(const std::string& path, const std::string& selector);

/// The application a name stands for: a kernelslist.g, or a cuobjdump listing
/// ("FILE" or "FILE:sm_NN"). Throws WorkloadError for anything else.
Application read_application(const std::string& name);

}  // namespace warpreg

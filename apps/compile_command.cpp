// warpreg compile: runs the register-file compiler passes on a static kernel (an
// nvdisasm .dot CFG or the CFG reconstructed from an Accel-Sim .traceg) and prints
// what they found, per kernel function.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "apps/cli.h"
#include "platforms/sm/sm_core.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/compiler/register_intervals.h"
#include "stimuli/compiler/regmutex_sizing.h"
#include "stimuli/compiler/release_flags.h"
#include "stimuli/import/input_name.h"

namespace warpreg::cli {

namespace {

using nlohmann::ordered_json;

constexpr uint32_t kDefaultThreadsPerCta = 256;
constexpr uint32_t kDefaultRegsPerInterval = 16;

struct CompileInput {
  std::vector<StaticKernelEntry> kernels;
  std::optional<uint32_t> threads_per_cta;  ///< --threads-per-cta
};

CompileInput read_input(const std::string& name, const po::variables_map& vm,
                        const Params& params) {
  CompileInput in;
  const std::optional<InputName> input = split_input_name(name);
  constexpr const char* kReads =
      "compile reads an nvdisasm CFG (FILE.dot), an Accel-Sim trace (FILE.traceg[.gz]), a "
      "kernelslist.g or a cuobjdump listing";
  if (!input) throw WorkloadError(name + ": no such file (" + kReads + ")");
  std::string selector = input->selector;
  if (vm.count("function")) {
    if (!selector.empty())
      throw UsageError("give the function either as FILE:" + selector + " or with --function");
    selector = vm["function"].as<std::string>();
  }
  const InputFormat format = detect_input_format(input->path);
  if (format == InputFormat::Profile || format == InputFormat::WarpregTrace)
    throw UsageError(std::string(kReads) + ", not '" + input->path + "'");
  in.kernels =
      read_static_kernels(input->path, selector, static_cast<uint64_t>(params.integer("sim.seed")));
  if (vm.count("threads-per-cta")) {
    in.threads_per_cta = vm["threads-per-cta"].as<uint32_t>();
    if (*in.threads_per_cta == 0 || *in.threads_per_cta > 1024)
      throw UsageError("--threads-per-cta must be 1..1024, got " +
                       std::to_string(*in.threads_per_cta));
  }
  return in;
}

ordered_json interval_report(const Kernel& kernel, uint32_t n) {
  ordered_json j = {{"regs_per_interval", n}};
  try {
    const IntervalPartition partition = form_register_intervals(kernel, n);
    const IntervalStats s = interval_statistics(partition);
    uint32_t max_working_set = 0;
    ordered_json each = ordered_json::array();
    for (const RegisterInterval& r : partition.intervals) {
      const uint32_t ws = static_cast<uint32_t>(r.working_set.count());
      max_working_set = std::max(max_working_set, ws);
      each.push_back({{"id", r.id},
                      {"header_pc", r.header().begin < kernel.blocks[r.header().block].insts.size()
                                        ? kernel.blocks[r.header().block].insts[r.header().begin].pc
                                        : 0},
                      {"instructions", r.instructions},
                      {"working_set", ws},
                      {"prefetch", r.prefetch.count()},
                      {"live_only_prefetch", r.live_only_prefetch.count()}});
    }
    j["intervals"] = s.intervals;
    j["instructions_mean"] = s.mean_instructions;
    j["instructions_min"] = s.min_instructions;
    j["instructions_max"] = s.max_instructions;
    j["working_set_mean"] = s.mean_working_set;
    j["working_set_max"] = max_working_set;
    j["second_pass_rounds"] = partition.second_pass_rounds;
    j["each"] = std::move(each);
  } catch (const std::invalid_argument& e) {
    j["error"] = e.what();
  }
  return j;
}

ordered_json kernel_report(const StaticKernelEntry& entry, const CompileInput& in,
                           const SmLimits& sm, const std::vector<uint32_t>& interval_sizes) {
  const Kernel& kernel = entry.kernel;
  const Liveness live = compute_liveness(kernel);
  const RegisterSet allocated = allocated_registers(kernel);
  uint32_t threads_per_cta = kDefaultThreadsPerCta;
  std::string launch_source = "the default for a file without a launch";
  if (in.threads_per_cta) {
    threads_per_cta = *in.threads_per_cta;
    launch_source = "--threads-per-cta";
  } else if (entry.threads_per_cta != 0) {
    threads_per_cta = entry.threads_per_cta;
    launch_source = "the trace's -block dim";
  }
  ordered_json j = {{"kernel", kernel.name},
                    {"selector", entry.selector},
                    {"arch", kernel.arch},
                    {"blocks", kernel.blocks.size()},
                    {"instructions", kernel.instruction_count()},
                    {"edges", kernel.edge_count()},
                    {"registers", kernel.regs_used()},
                    {"allocated_registers", allocated.count()},
                    {"allocated", format_register_set(allocated)},
                    {"max_live", live.max_live}};
  if (entry.compiler_registers) j["compiler_registers"] = *entry.compiler_registers;

  ordered_json flags;
  try {
    const ReleaseFlags rf = compute_release_flags(kernel, live);
    flags = {{"pir", rf.pir.size()},
             {"pbr", rf.pbr.size()},
             {"pbr_registers", rf.pbr_registers},
             {"flagged_operands", rf.flagged_operands},
             {"unflaggable_deaths", rf.unflaggable_deaths},
             {"empty_pir", rf.empty_pir},
             {"static_code_increase", rf.static_code_increase()}};
  } catch (const std::invalid_argument& e) {
    flags = {{"error", e.what()}};
  }
  j["release_flags"] = std::move(flags);

  ordered_json regmutex = {{"threads_per_cta", threads_per_cta},
                           {"threads_per_cta_from", launch_source}};
  try {
    const RegMutexSizing s =
        choose_regmutex_sizing(kernel, threads_per_cta, sm, entry.shared_mem_per_cta);
    regmutex["allocated_regs"] = s.allocated_regs;
    regmutex["bs"] = s.bs;
    regmutex["es"] = s.es;
    regmutex["srp_sections"] = s.sections;
    regmutex["baseline_warps"] = s.baseline.warps();
    regmutex["warps"] = s.occupancy.warps();
    regmutex["decision"] = s.decision;
  } catch (const std::exception& e) {
    regmutex["error"] = e.what();
  }
  j["regmutex"] = std::move(regmutex);

  ordered_json intervals = ordered_json::array();
  for (uint32_t n : interval_sizes) intervals.push_back(interval_report(kernel, n));
  j["register_intervals"] = std::move(intervals);
  return j;
}

std::string fixed(double value, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << value;
  return os.str();
}

void print_text(std::ostream& os, const ordered_json& k) {
  const std::string selector = k["selector"].get<std::string>();
  os << "kernel " << (selector.empty() ? k["kernel"].get<std::string>() : selector) << '\n'
     << "  " << k["blocks"] << " basic blocks, " << k["instructions"] << " instructions, "
     << k["edges"] << " edges\n"
     << "  registers: " << k["registers"] << " named, " << k["allocated_registers"]
     << " allocated (" << k["allocated"].get<std::string>() << "), max live " << k["max_live"]
     << '\n';
  const ordered_json& f = k["release_flags"];
  if (f.contains("error")) {
    os << "  release flags: " << f["error"].get<std::string>() << '\n';
  } else {
    os << "  release flags: " << f["pir"] << " pir, " << f["pbr"] << " pbr (" << f["pbr_registers"]
       << " registers), " << f["flagged_operands"] << " flagged operands, static code +"
       << fixed(100.0 * f["static_code_increase"].get<double>(), 1) << " %\n";
  }
  const ordered_json& m = k["regmutex"];
  os << "  RegMutex (" << m["threads_per_cta"] << " threads/CTA): ";
  if (m.contains("error"))
    os << m["error"].get<std::string>() << '\n';
  else
    os << "|B_s| = " << m["bs"] << ", |E_s| = " << m["es"] << ", " << m["srp_sections"]
       << " SRP sections, warps " << m["baseline_warps"] << " -> " << m["warps"] << '\n';
  for (const ordered_json& r : k["register_intervals"]) {
    os << "  register-intervals N = " << r["regs_per_interval"] << ": ";
    if (r.contains("error")) {
      os << r["error"].get<std::string>() << '\n';
      continue;
    }
    os << r["intervals"] << " intervals, instructions mean "
       << fixed(r["instructions_mean"].get<double>(), 1) << " (" << r["instructions_min"] << ".."
       << r["instructions_max"] << "), registers mean "
       << fixed(r["working_set_mean"].get<double>(), 1) << " max " << r["working_set_max"] << '\n';
  }
}

}  // namespace

po::options_description compile_options() {
  po::options_description desc("Options of 'warpreg compile'", kHelpWidth, kHelpWidth / 2);
  desc.add_options()(
      "file", po::value<std::string>()->value_name("FILE[:FUNCTION]"),
      "The kernels: an nvdisasm -cfg graph (FILE.dot), an Accel-Sim trace (FILE.traceg[.gz], "
      "whose static CFG is rebuilt from the executed PCs), a kernelslist.g (each launch's "
      "trace) or a cuobjdump -sass listing (recognised by its content, every function of "
      "every architecture). Also given as the bare argument; FILE:FUNCTION picks one function.")(
      "function", po::value<std::string>()->value_name("NAME"),
      "Only this function: a .dot function name, or for a cuobjdump listing NAME, sm_NN (every "
      "function of that architecture) or sm_NN:NAME. Default: every function in the file.")(
      "regs-per-interval,n", po::value<std::vector<uint32_t>>()->multitoken()->value_name("N"),
      "LTRF registers per register-interval; repeatable to compare sizes. Default: 16 (seed 004 "
      "§5: a 16-register working set per warp).")(
      "threads-per-cta", po::value<uint32_t>()->value_name("T"),
      "Threads per CTA for RegMutex's occupancy. Default: the trace's block size, 256 for a "
      ".dot file or a cuobjdump listing (which carry no launch shape).")(
      "json", po::bool_switch(), "Print JSON (one array, one object per kernel). Default: text.");
  add_preset_option(desc);
  add_set_option(desc);
  return desc;
}

int compile_command(const po::variables_map& vm) {
  if (!vm.count("file"))
    throw UsageError(
        "compile needs a FILE: a .dot, a .traceg, a kernelslist.g or a cuobjdump listing");
  const Params params = load_params(vm);
  const SmLimits sm = SmConfig::from(params).limits;
  std::vector<uint32_t> sizes = {kDefaultRegsPerInterval};
  if (vm.count("regs-per-interval")) sizes = vm["regs-per-interval"].as<std::vector<uint32_t>>();
  for (uint32_t n : sizes)
    if (n == 0 || n > kMaxArchRegisters)
      throw UsageError("--regs-per-interval must be 1.." + std::to_string(kMaxArchRegisters) +
                       ", got " + std::to_string(n));

  const CompileInput in = read_input(vm["file"].as<std::string>(), vm, params);
  ordered_json all = ordered_json::array();
  for (const StaticKernelEntry& entry : in.kernels)
    all.push_back(kernel_report(entry, in, sm, sizes));
  if (vm["json"].as<bool>()) {
    std::cout << all.dump(2) << '\n';
  } else {
    for (const ordered_json& k : all) print_text(std::cout, k);
  }
  return kExitOk;
}

}  // namespace warpreg::cli

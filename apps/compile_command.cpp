// warpreg compile: runs the register-file compiler passes on a static kernel (an
// nvdisasm .dot CFG or the CFG reconstructed from an Accel-Sim .traceg) and prints
// what they found, per kernel function.
#include <algorithm>
#include <array>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "apps/cli.h"
#include "common/input_check.h"
#include "designs/ltrf/compiler/register_intervals.h"
#include "designs/regmutex/compiler/regmutex_points.h"
#include "designs/regmutex/compiler/regmutex_sizing.h"
#include "designs/rfv/compiler/release_flags.h"
#include "platforms/sm/sm_core.h"
#include "stimuli/compiler/liveness.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/driver/profile.h"
#include "stimuli/import/accelsim_trace.h"
#include "stimuli/import/input_name.h"
#include "stimuli/import/nvdisasm_dot.h"

namespace warpreg::cli {

namespace {

using nlohmann::ordered_json;

constexpr uint32_t kDefaultThreadsPerCta = 256;
constexpr uint32_t kDefaultRegsPerInterval = 16;

struct CompileInput {
  std::vector<StaticKernelEntry> kernels;
  std::optional<uint32_t> threads_per_cta;  ///< --threads-per-cta
  /// A profile's own execution model (its trip counts and divergence) instead of dot.*.
  std::optional<KernelRunConfig> run_config;
};

/// A shipped profile's name or a profile .json: its generated kernel, as `warpreg run`
/// would execute it.
CompileInput read_profile_input(const std::string& path, const Params& params) {
  const Profile profile = read_profile(path);
  ProfileKernel built = build_profile_kernel(profile, params);
  CompileInput in;
  StaticKernelEntry entry;
  entry.kernel = std::move(built.kernel);
  entry.selector = profile.name;
  entry.threads_per_cta = profile.threads_per_cta;
  entry.shared_mem_per_cta = built.config.shape.shared_mem_per_cta;
  in.kernels.push_back(std::move(entry));
  in.run_config = std::move(built.config);
  return in;
}

CompileInput read_input(const std::string& name, const po::variables_map& vm,
                        const Params& params) {
  CompileInput in;
  const std::optional<InputName> input = split_input_name(name);
  constexpr const char* kReads =
      "compile reads an nvdisasm CFG (FILE.dot), an Accel-Sim trace (FILE.traceg[.gz]), a "
      "kernelslist.g, a cuobjdump listing or a profile";
  const bool bare_name = name.find('/') == std::string::npos && name.find('.') == std::string::npos;
  if (!input && bare_name && path_exists(shipped_profile_path(name)))
    in = read_profile_input(shipped_profile_path(name), params);
  else if (!input)
    throw WorkloadError(name + ": no such file (" + kReads + ")");
  else if (detect_input_format(input->path) == InputFormat::Profile && input->selector.empty())
    in = read_profile_input(input->path, params);
  std::string selector = input ? input->selector : "";
  if (vm.count("function")) {
    if (!selector.empty())
      throw UsageError("give the function either as FILE:" + selector + " or with --function");
    selector = vm["function"].as<std::string>();
  }
  if (in.run_config) {
    if (!selector.empty())
      throw UsageError("a profile has one kernel: there is no function to pick");
  } else {
    const InputFormat format = detect_input_format(input->path);
    if (format == InputFormat::Profile || format == InputFormat::WarpregTrace)
      throw UsageError(std::string(kReads) + ", not '" + input->path + "'");
    in.kernels = read_static_kernels(input->path, selector,
                                     static_cast<uint64_t>(params.integer("sim.seed")));
  }
  if (vm.count("threads-per-cta")) {
    // Read signed: a negative number must be shown as given, not wrapped to 2^32 - N.
    const int64_t threads = vm["threads-per-cta"].as<int64_t>();
    if (threads < 1 || threads > 1024)
      throw UsageError("--threads-per-cta must be 1..1024, got " + std::to_string(threads));
    in.threads_per_cta = static_cast<uint32_t>(threads);
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

/// Share of each instruction class among `counts`.
ordered_json mix(const std::array<uint64_t, kInstClassCount>& counts) {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  ordered_json j = ordered_json::object();
  for (unsigned c = 0; c < kInstClassCount; ++c)
    j[std::string(to_string(static_cast<InstClass>(c)))] =
        total == 0 ? 0.0 : static_cast<double>(counts[c]) / static_cast<double>(total);
  return j;
}

/// The q-quantile of sorted values (nearest rank), 0 when empty.
uint64_t quantile(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(rank, sorted.size() - 1)];
}

/// What the profiles assume, measured on the kernel: the register count, the static and
/// the dynamic share of allocated registers that are dead, live-range lengths, the
/// instruction mix, loops, branches and barriers. The dynamic part executes every warp
/// of one CTA with the kernel driver (dot.* model, sim.seed) as `warpreg run` would.
ordered_json shape_report(const Kernel& kernel, const Liveness& live, uint32_t threads_per_cta,
                          const CompileInput& in, const Params& params) {
  const double regs = std::max<uint32_t>(1, kernel.regs_used());
  std::unordered_map<uint64_t, double> dead_at_pc;  // 1 - live/regs before the instruction
  std::array<uint64_t, kInstClassCount> static_mix{};
  double dead_sum = 0;
  uint64_t barriers = 0, conditional = 0;
  for (const BasicBlock& b : kernel.blocks) {
    conditional += b.succ.size() >= 2;
    for (size_t i = 0; i < b.insts.size(); ++i) {
      const double dead = 1.0 - static_cast<double>(live.live_before[b.id][i].count()) / regs;
      dead_at_pc[b.insts[i].pc] = dead;
      dead_sum += dead;
      ++static_mix[static_cast<unsigned>(b.insts[i].cls)];
      barriers += b.insts[i].cls == InstClass::Barrier;
    }
  }
  KernelShape shape;
  shape.ctas = 1;
  shape.threads_per_cta = threads_per_cta;
  shape.regs_per_thread = static_cast<uint32_t>(regs);
  KernelRunConfig config = static_kernel_run_config(params, shape);
  if (in.run_config) {
    config = *in.run_config;
    config.shape = shape;
  }
  KernelWorkload run(kernel, std::move(config), "compile " + kernel.name);

  std::vector<uint32_t> depth(kernel.blocks.size(), 0);
  const size_t loops = run.loop_headers().size();
  for (size_t l = 0; l < loops; ++l)
    for (size_t b = 0; b < kernel.blocks.size(); ++b) depth[b] += run.loop_body(l)[b];
  uint64_t barriers_in_loops = 0;
  for (const BasicBlock& b : kernel.blocks)
    for (const StaticInst& inst : b.insts)
      barriers_in_loops += inst.cls == InstClass::Barrier && depth[b.id] > 0;

  std::array<uint64_t, kInstClassCount> dynamic_mix{};
  std::vector<uint64_t> ranges;  // dynamic instructions from a write to its last read
  uint64_t dead_on_write = 0, dynamic = 0;
  double dynamic_dead = 0;
  for (uint32_t warp = 0; warp < shape.warps_per_cta(); ++warp) {
    WarpStream& stream = run.load_warp(0, 0, warp);
    std::vector<int64_t> written(kMaxArchRegisters, -1), last_read(kMaxArchRegisters, -1);
    auto close = [&](uint16_t r) {
      if (written[r] < 0) return;
      if (last_read[r] < written[r]) {
        ++dead_on_write;
      } else {
        ranges.push_back(static_cast<uint64_t>(last_read[r] - written[r]));
      }
    };
    visit_stream(stream, [&](const WarpInst& inst, uint32_t t) {
      ++dynamic_mix[static_cast<unsigned>(inst.cls)];
      auto dead = dead_at_pc.find(inst.pc);
      if (dead != dead_at_pc.end()) {
        dynamic_dead += dead->second;
        ++dynamic;
      }
      for (unsigned k = 0; k < inst.num_src; ++k)
        if (inst.src[k] != kZeroRegister) last_read[inst.src[k]] = static_cast<int64_t>(t);
      for (unsigned k = 0; k < inst.num_dst; ++k)
        if (inst.dst[k] != kZeroRegister) {
          close(inst.dst[k]);
          written[inst.dst[k]] = static_cast<int64_t>(t);
        }
    });
    for (uint16_t r = 0; r < kMaxArchRegisters; ++r) close(r);
  }
  std::sort(ranges.begin(), ranges.end());
  double range_sum = 0;
  for (uint64_t r : ranges) range_sum += static_cast<double>(r);
  const uint64_t values = ranges.size() + dead_on_write;
  const size_t insts = kernel.instruction_count();
  return {
      {"dead_fraction", insts == 0 ? 0.0 : dead_sum / static_cast<double>(insts)},
      {"mix", mix(static_mix)},
      {"loops", loops},
      {"max_loop_depth", *std::max_element(depth.begin(), depth.end())},
      {"conditional_branches", conditional},
      {"barriers", barriers},
      {"barriers_in_loops", barriers_in_loops},
      {"dynamic",
       {{"warps", shape.warps_per_cta()},
        {"instructions", dynamic},
        {"dead_fraction", dynamic == 0 ? 0.0 : dynamic_dead / static_cast<double>(dynamic)},
        {"mix", mix(dynamic_mix)},
        {"values", values},
        {"dead_on_write", values == 0 ? 0.0 : static_cast<double>(dead_on_write) / values},
        {"live_range_mean", ranges.empty() ? 0.0 : range_sum / static_cast<double>(ranges.size())},
        {"live_range_median", quantile(ranges, 0.5)},
        {"live_range_p90", quantile(ranges, 0.9)},
        {"live_range_max", ranges.empty() ? 0 : ranges.back()}}}};
}

ordered_json kernel_report(const StaticKernelEntry& entry, const CompileInput& in,
                           const SmLimits& sm, const std::vector<uint32_t>& interval_sizes,
                           const Params& params) {
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
    // Deadlock rule 2's bound: per-release compaction needs the most registers live at
    // one barrier in B_s, static compaction the union over barriers.
    const BarrierLiveness barriers = max_live_at_barriers(kernel, live);
    regmutex["barriers"] = barriers.barriers;
    regmutex["barrier_live_max"] = barriers.max_live;
    regmutex["barrier_live_union"] = registers_live_at_barriers(kernel, live).count();
  } catch (const std::exception& e) {
    regmutex["error"] = e.what();
  }
  j["regmutex"] = std::move(regmutex);

  ordered_json intervals = ordered_json::array();
  for (uint32_t n : interval_sizes) intervals.push_back(interval_report(kernel, n));
  j["register_intervals"] = std::move(intervals);
  j["shape"] = shape_report(kernel, live, threads_per_cta, in, params);
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
       << " SRP sections, warps " << m["baseline_warps"] << " -> " << m["warps"] << "; "
       << m["barriers"] << " barriers, live at one at most " << m["barrier_live_max"] << ", at any "
       << m["barrier_live_union"] << '\n';
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
      "trace), a cuobjdump -sass listing (recognised by its content, every function of "
      "every architecture) or a profile (a shipped name or a .json: its generated kernel, run "
      "with the profile's trip counts and launch). Also given as the bare argument; "
      "FILE:FUNCTION picks one function.")(
      "function", po::value<std::string>()->value_name("NAME"),
      "Only this function: a .dot function name, or for a cuobjdump listing NAME, sm_NN (every "
      "function of that architecture) or sm_NN:NAME. Default: every function in the file.")(
      "regs-per-interval,n", po::value<std::vector<int64_t>>()->multitoken()->value_name("N"),
      "LTRF registers per register-interval; repeatable to compare sizes. Default: 16 (seed 004 "
      "§5: a 16-register working set per warp).")(
      "threads-per-cta", po::value<int64_t>()->value_name("T"),
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
        "compile needs a FILE: a .dot, a .traceg, a kernelslist.g, a cuobjdump listing or a "
        "profile");
  const Params params = load_params(vm);
  const SmLimits sm = SmConfig::from(params).limits;
  std::vector<uint32_t> sizes = {kDefaultRegsPerInterval};
  if (vm.count("regs-per-interval")) {
    sizes.clear();
    for (const int64_t n : vm["regs-per-interval"].as<std::vector<int64_t>>()) {
      if (n < 1 || n > int64_t{kMaxArchRegisters})
        throw UsageError("--regs-per-interval must be 1.." + std::to_string(kMaxArchRegisters) +
                         ", got " + std::to_string(n));
      sizes.push_back(static_cast<uint32_t>(n));
    }
  }

  const CompileInput in = read_input(vm["file"].as<std::string>(), vm, params);
  ordered_json all = ordered_json::array();
  for (const StaticKernelEntry& entry : in.kernels)
    all.push_back(kernel_report(entry, in, sm, sizes, params));
  if (vm["json"].as<bool>()) {
    std::cout << all.dump(2) << '\n';
  } else {
    for (const ordered_json& k : all) print_text(std::cout, k);
  }
  return kExitOk;
}

}  // namespace warpreg::cli

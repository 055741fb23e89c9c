// warpreg bench: simulation speed of one configuration (a preset, designs, a workload),
// set against the cheapest possible TLM-2.0 transaction (an empty b_transport through
// simple sockets) measured in the same process and the same sc_start, so that both
// numbers share the machine's state and the SystemC kernel. `--all` benches every
// shipped preset, each beside a baseline run of the same workload: SystemC elaborates
// once per process, so each configuration is a child process, run back to back with its
// baseline so that both see the machine in the same state.
#include <sys/resource.h>
#include <sys/wait.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <systemc>
#include <tlm>

#include "apps/cli.h"
#include "apps/sweep/sweep_spec.h"
#include "apps/sweep_commands.h"
#include "platforms/sm/platform.h"
#include "stimuli/driver/open_workload.h"

// Valgrind's client requests (header-only, from Debian's valgrind package) let callgrind
// count only the platform's run; without the header `--callgrind` is refused.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define WARPREG_HAVE_CALLGRIND 1
#else
#define WARPREG_HAVE_CALLGRIND 0
#endif

namespace warpreg::cli {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// The empty target: b_transport only acknowledges.
struct EmptyTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<EmptyTarget> socket;

  explicit EmptyTarget(const sc_core::sc_module_name& name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &EmptyTarget::b_transport);
  }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

/// Calls b_transport `calls` times with one reused payload at time zero and times the loop.
struct EmptyInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<EmptyInitiator> socket;
  uint64_t calls;
  uint64_t completed = 0;
  bool reached_target = false;
  double seconds = 0;
  double cpu = 0;  ///< process CPU seconds of the loop (the only thread running then)

  SC_HAS_PROCESS(EmptyInitiator);
  EmptyInitiator(const sc_core::sc_module_name& name, uint64_t n)
      : sc_module(name), socket("socket"), calls(n) {
    SC_THREAD(loop);
  }

  void loop() {
    uint32_t word = 0;
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    trans.set_data_length(sizeof word);
    trans.set_streaming_width(sizeof word);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const auto start = Clock::now();
    const double cpu_start = cpu_seconds();
    for (uint64_t i = 0; i < calls; ++i) socket->b_transport(trans, delay);
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    cpu = cpu_seconds() - cpu_start;
    completed = calls;
    reached_target = trans.is_response_ok();
  }
};

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0; }

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

// One child `[prefix] warpreg bench ... --json`; its JSON, or null with the failure in
// `error`.
json bench_child(const std::string& args, std::string& error, const std::string& prefix = "",
                 int* exit_code = nullptr) {
  const std::string command =
      prefix + sweep::shell_quote(self_binary()) + " bench --json " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    error = "cannot start: " + command;
    return nullptr;
  }
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int rc = pclose(pipe);
  if (exit_code) *exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  const size_t brace = out.find('{');
  if (rc != 0 || brace == std::string::npos) {
    error = command + " failed: " + out.substr(0, 400);
    return nullptr;
  }
  try {
    return json::parse(out.substr(brace));
  } catch (const json::exception&) {
    error = command + " printed no JSON: " + out.substr(0, 400);
    return nullptr;
  }
}

// --callgrind: the same configuration again in a child under callgrind, which counts
// host instructions only while the platform runs (the child toggles collection around
// run() and times one b_transport instead of millions).
int bench_callgrind(const std::string& args, bool as_json) {
  if (!WARPREG_HAVE_CALLGRIND)
    throw UsageError("--callgrind: this build has no valgrind/callgrind.h (install valgrind)");
  char path[] = "/tmp/warpreg-callgrind-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    print_error("--callgrind: cannot create a temporary file in /tmp");
    return kExitFailed;
  }
  close(fd);
  std::string error;
  const json run =
      bench_child(args + " --calls 1", error,
                  "WARPREG_CALLGRIND_RUN_ONLY=1 valgrind -q --tool=callgrind --collect-atstart=no "
                  "--callgrind-out-file=" +
                      std::string(path) + " ");
  uint64_t host_instructions = 0;
  std::ifstream out(path);
  for (std::string line; std::getline(out, line);)
    if (line.rfind("summary:", 0) == 0 || line.rfind("totals:", 0) == 0)
      host_instructions = std::strtoull(line.c_str() + line.find(':') + 1, nullptr, 10);
  std::remove(path);
  if (run.is_null()) {
    print_error("callgrind run failed (is valgrind installed?): " + error);
    return kExitFailed;
  }
  const double insts = run["warp_instructions"].get<double>();
  const double per_inst = insts > 0 ? double(host_instructions) / insts : 0;
  if (as_json) {
    nlohmann::ordered_json result = {{"preset", run["preset"]},
                                     {"workload", run["workload"]},
                                     {"status", run["status"]},
                                     {"warp_instructions", run["warp_instructions"]},
                                     {"host_instructions", host_instructions},
                                     {"host_instructions_per_warp_instruction", per_inst}};
    std::cout << result.dump(2) << '\n';
  } else {
    std::cout << "warpreg bench --callgrind: preset " << run["preset"].get<std::string>() << ", "
              << run["workload"].get<std::string>() << "\n\n"
              << "  host instructions (platform run)        " << host_instructions << "\n"
              << "  warp instructions                       "
              << run["warp_instructions"].get<uint64_t>() << "\n"
              << "  host instructions per warp instruction  " << fixed(per_inst, 0) << "\n";
  }
  return host_instructions > 0 ? kExitOk : kExitFailed;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n == 0 ? 0.0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// --all: every shipped preset (or those named) on each workload, each run `repeat` times
// right after its own baseline run; a row reports the median of the pairs' ratios.
int bench_all(const std::vector<std::string>& workloads, const std::vector<std::string>& presets,
              const std::vector<std::string>& sets, uint64_t calls, int repeat, bool as_json) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  bool all_ok = true;
  std::string calls_arg = " --calls " + std::to_string(calls);
  for (const std::string& set : sets) calls_arg += " --set " + sweep::shell_quote(set);
  for (const std::string& workload : workloads) {
    for (const std::string& preset : presets) {
      const std::string common = " --workload " + sweep::shell_quote(workload) + calls_arg;
      nlohmann::ordered_json row = {{"preset", preset}, {"workload", workload}};
      std::vector<double> rates, base_rates, ratios, peaks;
      for (int pair = 0; pair < repeat; ++pair) {
        std::string error;
        int exit_code = 0;
        const json base = bench_child("--preset baseline" + common, error);
        const json run = base.is_null()
                             ? json()
                             : bench_child("--preset " + preset + common, error, "", &exit_code);
        if (run.is_null() && !base.is_null() && exit_code == kExitBadInput) {
          // The configuration refuses this workload (exit 2, e.g. RegMutex's deadlock
          // rule): not a failure of the bench, and no later pair would differ.
          const std::string marker = "warpreg: error: ";
          const size_t at = error.find(marker);
          std::string reason = at == std::string::npos ? error : error.substr(at + marker.size());
          while (!reason.empty() && std::isspace(static_cast<unsigned char>(reason.back())))
            reason.pop_back();
          row["skipped"] = reason;
          break;
        }
        if (run.is_null()) {
          all_ok = false;
          row["error"] = error;
          break;
        }
        const double rate = run["warp_instructions_per_second"].get<double>();
        const double base_rate = base["warp_instructions_per_second"].get<double>();
        row["status"] = run["status"];
        rates.push_back(rate);
        base_rates.push_back(base_rate);
        ratios.push_back(base_rate > 0 ? rate / base_rate : 0.0);
        peaks.push_back(run["peak_rss_mib"].get<double>());
      }
      if (!row.contains("skipped") && !row.contains("error")) {
        row["warp_instructions_per_second"] = median(rates);
        row["baseline_warp_instructions_per_second"] = median(base_rates);
        row["ratio_to_baseline"] = median(ratios);
        row["ratios"] = ratios;
        row["peak_rss_mib"] = *std::max_element(peaks.begin(), peaks.end());
      }
      if (!as_json) {
        std::string spread;
        if (ratios.size() > 1) {
          const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
          spread = " (" + fixed(*low, 2) + "-" + fixed(*high, 2) + "x over " +
                   std::to_string(ratios.size()) + " pairs)";
        }
        std::cout << "  " << preset << std::string(preset.size() < 18 ? 18 - preset.size() : 1, ' ')
                  << workload << ": "
                  << (row.contains("skipped") ? "skipped: " + row["skipped"].get<std::string>()
                      : row.contains("error")
                          ? "failed"
                          : format_rate(row["warp_instructions_per_second"].get<double>()) +
                                " warp inst/s, " +
                                fixed(row["ratio_to_baseline"].get<double>(), 2) +
                                "x the baseline" + spread)
                  << '\n'
                  << std::flush;
      }
      rows.push_back(std::move(row));
    }
  }
  if (as_json) std::cout << rows.dump(2) << '\n';
  return all_ok ? kExitOk : kExitFailed;
}

}  // namespace

po::options_description bench_options() {
  po::options_description desc("Options of 'warpreg bench'", kHelpWidth, kHelpWidth / 2);
  add_preset_option(desc);
  add_workload_option(desc);
  desc.add_options()("json", po::bool_switch(), "Print one JSON object. Default: off (a table).")(
      "calls,n", po::value<int64_t>()->default_value(20'000'000)->value_name("N"),
      "Empty b_transport calls to time.")(
      "all", po::bool_switch(),
      "Bench every shipped preset on the workloads given with --all-workload (default: the "
      "profile rfv-hotspot and the real HotSpot kernel it models), each in its own process "
      "right after a baseline run of the same workload, and print each one's ratio to that "
      "baseline; a preset that refuses a workload (exit 2) is listed as skipped. Default: "
      "off.")("all-workload", po::value<std::vector<std::string>>()->value_name("W"),
              "A workload of --all; repeatable. Default: rfv-hotspot and real:rfv-hotspot (the "
              "kernel from ../shared/data).")(
      "all-preset", po::value<std::vector<std::string>>()->value_name("P"),
      "A preset of --all; repeatable. Default: every shipped preset.")(
      "repeat", po::value<int>()->default_value(1)->value_name("N"),
      "With --all: run each preset N times (1 to 100), each right after its own baseline "
      "run, and report the median ratio of the N pairs (a single pair on a shared or "
      "virtual machine varies by about 20 %).")(
      "callgrind", po::bool_switch(),
      "Run the configuration again under valgrind's callgrind and report host instructions "
      "per warp instruction, counted only while the platform runs (needs valgrind). Default: "
      "off.");
  add_set_option(desc);
  return desc;
}

int bench_command(const po::variables_map& vm) {
  // Signed, so that a negative count is refused instead of wrapping around.
  const int64_t requested = vm["calls"].as<int64_t>();
  if (requested < 1) throw UsageError("--calls must be at least 1");
  const auto calls = static_cast<uint64_t>(requested);
  if (!vm["all"].as<bool>() &&
      (vm.count("all-workload") || vm.count("all-preset") || !vm["repeat"].defaulted()))
    throw UsageError("--all-workload, --all-preset and --repeat go with --all");
  if (vm["all"].as<bool>()) {
    const std::vector<std::string> workloads =
        vm.count("all-workload") ? vm["all-workload"].as<std::vector<std::string>>()
                                 : std::vector<std::string>{"rfv-hotspot", "real:rfv-hotspot"};
    const std::vector<std::string> sets =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const std::vector<std::string> shipped = preset_names();
    if (shipped.empty())
      throw UsageError("--all: no shipped presets found (set WARPREG_DATA_DIR to the checkout)");
    const std::vector<std::string> presets =
        vm.count("all-preset") ? vm["all-preset"].as<std::vector<std::string>>() : shipped;
    for (const std::string& preset : presets)
      if (std::find(shipped.begin(), shipped.end(), preset) == shipped.end())
        throw UsageError("--all-preset: no shipped preset '" + preset +
                         "' (warpreg presets lists them)");
    const int repeat = vm["repeat"].as<int>();
    if (repeat < 1 || repeat > 100) throw UsageError("--repeat must be from 1 to 100");
    return bench_all(workloads, presets, sets, calls, repeat, vm["json"].as<bool>());
  }
  if (vm["callgrind"].as<bool>()) {
    std::string args = "--preset " + sweep::shell_quote(vm["preset"].as<std::string>()) +
                       " --workload " + sweep::shell_quote(workload_name(vm));
    if (vm.count("design"))
      for (const std::string& d : vm["design"].as<std::vector<std::string>>())
        args += " --design " + sweep::shell_quote(d);
    if (vm.count("set"))
      for (const std::string& set : vm["set"].as<std::vector<std::string>>())
        args += " --set " + sweep::shell_quote(set);
    return bench_callgrind(args, vm["json"].as<bool>());
  }
  // A fixed seed makes runs comparable; --set sim.seed=N still overrides it.
  const Params params = load_params(vm, {"sim.seed=1"});
  auto workload = open_workload(workload_name(vm), params);
  const std::string workload_text = workload->describe();

  // Both elaborate before run() calls sc_start, so they share that one simulation.
  SmPlatform platform(params, std::move(workload));
  EmptyInitiator initiator("warpreg_bench_initiator", calls);
  EmptyTarget target("warpreg_bench_target");
  initiator.socket.bind(target.socket);

  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  // Set by --callgrind's parent, which starts callgrind with collection off.
  const bool count_run_only = std::getenv("WARPREG_CALLGRIND_RUN_ONLY") != nullptr;
#if WARPREG_HAVE_CALLGRIND
  if (count_run_only) CALLGRIND_TOGGLE_COLLECT;
#endif
  const json stats = platform.run();
#if WARPREG_HAVE_CALLGRIND
  if (count_run_only) CALLGRIND_TOGGLE_COLLECT;
#endif
  const double run_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double run_cpu_seconds = cpu_seconds() - cpu_start;

  const json* status = find_stat(stats, "status");
  const bool ok = status && status->is_string() && status->get<std::string>() == "ok";
  if (initiator.completed != calls) {
    print_error("the b_transport loop did not run to completion during the simulation");
    return kExitFailed;
  }
  if (!initiator.reached_target) {
    print_error("the empty b_transport did not return TLM_OK_RESPONSE");
    return kExitFailed;
  }

  // The loop runs inside the platform's sc_start without yielding; take it out. Rates are
  // per CPU second: on a shared machine wall time measures the neighbours too.
  const double platform_seconds = std::max(run_seconds - initiator.seconds, 1e-9);
  const double platform_cpu_seconds = std::max(run_cpu_seconds - initiator.cpu, 1e-9);
  const double warp_insts = stat_number(stats, {"warp_instructions"}, 0);
  const double cycles = stat_number(stats, {"cycles"}, 0);
  const double rf_accesses =
      stat_number(stats, {"rf.reads"}, 0) + stat_number(stats, {"rf.writes"}, 0);
  const double insts_per_s = per_second(warp_insts, platform_cpu_seconds);
  const double bt_per_s = per_second(static_cast<double>(calls), initiator.cpu);
  const double ratio = bt_per_s > 0 ? insts_per_s / bt_per_s : 0;
  const double bt_per_inst = insts_per_s > 0 ? bt_per_s / insts_per_s : 0;

  const auto count = [](double v) { return static_cast<uint64_t>(v); };
  const nlohmann::ordered_json result = {
      {"preset", params.preset()},
      {"workload", workload_text},
      {"status", status ? *status : json(nullptr)},
      {"cycles", count(cycles)},
      {"warp_instructions", count(warp_insts)},
      {"rf_accesses", count(rf_accesses)},
      {"platform_seconds", platform_seconds},
      {"platform_cpu_seconds", platform_cpu_seconds},
      {"peak_rss_mib", peak_rss_mib()},
      {"warp_instructions_per_second", insts_per_s},
      {"cycles_per_second", per_second(cycles, platform_cpu_seconds)},
      {"rf_accesses_per_second", per_second(rf_accesses, platform_cpu_seconds)},
      {"b_transport_calls", calls},
      {"b_transport_seconds", initiator.seconds},
      {"b_transport_cpu_seconds", initiator.cpu},
      {"b_transport_per_second", bt_per_s},
      {"warp_instructions_per_b_transport", ratio},
      {"b_transport_per_warp_instruction", bt_per_inst},
  };

  if (vm["json"].as<bool>()) {
    std::cout << result.dump(2) << '\n';
  } else {
    const auto row = [](const std::string& label, const std::string& value) {
      std::cout << "  " << label << std::string(label.size() < 40 ? 40 - label.size() : 1, ' ')
                << value << '\n';
    };
    std::cout << "warpreg bench: preset " << params.preset() << ", " << workload_text << ", status "
              << (status && status->is_string() ? status->get<std::string>() : "n/a") << "\n\n";
    row("platform wall time", fixed(platform_seconds, 3) + " s");
    row("  simulated cycles", std::to_string(count(cycles)));
    row("  warp instructions", std::to_string(count(warp_insts)));
    row("  register-file accesses", std::to_string(count(rf_accesses)));
    row("  warp instructions/s (CPU)", format_rate(insts_per_s));
    row("  platform CPU time", fixed(platform_cpu_seconds, 3) + " s");
    row("  simulated cycles/s (CPU)", format_rate(per_second(cycles, platform_cpu_seconds)));
    row("  register-file accesses/s (CPU)",
        format_rate(per_second(rf_accesses, platform_cpu_seconds)));
    row("  peak resident memory", fixed(peak_rss_mib(), 1) + " MiB");
    row("empty b_transport wall time", fixed(initiator.seconds, 3) + " s");
    row("  calls", std::to_string(calls));
    row("  b_transport/s (CPU)", format_rate(bt_per_s));
    row("warp instructions/s / b_transport/s", fixed(ratio, 6));
    row("b_transports per warp instruction", fixed(bt_per_inst, 2));
  }
  if (!ok) {
    const json* error = find_stat(stats, "error");
    print_error("bench run ended with status " + (status ? status->dump() : "(none)") + ": " +
                (error ? (error->is_string() ? error->get<std::string>() : error->dump()) : ""));
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace warpreg::cli

// Observability: waveforms show the power states the designs set (counted against the
// designs' own statistics), time series, per-block logs, run provenance.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "testbenches/support/cli_runner.h"

using namespace warpreg::testing;
using nlohmann::json;

namespace {

/// Value changes of every signal of a VCD file, after the initial dump.
struct Vcd {
  std::map<std::string, uint32_t> initial;  ///< name -> first value
  /// name -> (from, to) -> times
  std::map<std::string, std::map<std::pair<uint32_t, uint32_t>, int>> changes;
  /// name -> (time in ps, value) at every change, the initial value at time 0
  std::map<std::string, std::vector<std::pair<uint64_t, uint32_t>>> timeline;

  explicit Vcd(const std::string& text) {
    std::map<std::string, std::string> names;  // id -> hierarchical name
    std::map<std::string, uint32_t> last;
    std::vector<std::string> scopes;  // below SystemC's top scope
    std::istringstream in(text);
    std::string line;
    uint64_t now = 0;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '#') {
        now = std::stoull(line.substr(1));
        continue;
      }
      std::istringstream words(line);
      std::string keyword;
      words >> keyword;
      if (keyword == "$scope") {
        std::string kind, scope;
        words >> kind >> scope;
        scopes.push_back(scope);
      } else if (keyword == "$upscope") {
        if (!scopes.empty()) scopes.pop_back();
      } else if (keyword == "$var") {
        std::string type, width, id, name;
        words >> type >> width >> id >> name;
        std::string full;
        for (size_t i = 1; i < scopes.size(); ++i) full += scopes[i] + ".";
        names[id] = full + name;
      } else if (!line.empty() && line[0] == 'b') {
        const size_t space = line.find(' ');
        const uint32_t value =
            static_cast<uint32_t>(std::stoul(line.substr(1, space - 1), nullptr, 2));
        const std::string& name = names[line.substr(space + 1)];
        const auto seen = last.find(name);
        if (seen == last.end()) {
          initial[name] = value;
        } else if (seen->second != value) {
          ++changes[name][{seen->second, value}];
        }
        if (seen == last.end() || seen->second != value) timeline[name].emplace_back(now, value);
        last[name] = value;
      }
    }
  }
  /// Changes from `from` to `to` summed over the signals whose name contains `part` and
  /// ends with `suffix`.
  int count(const std::string& part, const std::string& suffix, uint32_t from, uint32_t to) const {
    int n = 0;
    for (const auto& [name, by] : changes) {
      if (name.find(part) == std::string::npos || name.size() < suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      if (const auto it = by.find({from, to}); it != by.end()) n += it->second;
    }
    return n;
  }
  /// Sum over cycles of a per-cycle count signal: each value holds until the next change
  /// (the last one for one cycle of `period_ps`).
  uint64_t sum_of(const std::string& name, uint64_t period_ps) const {
    const auto it = timeline.find(name);
    if (it == timeline.end()) return 0;
    const auto& points = it->second;
    uint64_t total = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const uint64_t cycles =
          i + 1 < points.size() ? (points[i + 1].first - points[i].first) / period_ps : 1;
      total += uint64_t(points[i].second) * cycles;
    }
    return total;
  }
};

constexpr uint32_t kOn = 0, kDrowsy = 1, kGated = 3;

struct Traced {
  json stats;
  Vcd vcd;
};

Traced traced_run(const Scratch& s, const std::string& preset,
                  const std::string& workload = "rfv-hotspot") {
  const std::string args = "run -q -p " + preset + " -w " + workload +
                           " --set profile.ctas=4 --out '" + (s / "out").string() + "' --vcd '" +
                           (s / "w.vcd").string() + "'";
  const Outcome o = run_warpreg(s, args);
  INFO(o);
  REQUIRE(o.status == 0);
  return {json::parse(slurp(s / "out" / "stats.json")), Vcd(slurp(s / "w.vcd"))};
}

}  // namespace

TEST_CASE("waveform: wc's bank columns gate and wake as the design counts them", "[vcd]") {
  Scratch s;
  const Traced t = traced_run(s, "wc");
  const json& gating = t.stats["blocks"]["wc"]["bank_gating"];
  const int wakes = t.vcd.count("regfile.bank", "_power", kGated, kOn);
  INFO("wc wake-ups in the waveform: " << wakes);
  CHECK(wakes > 0);
  CHECK(wakes == gating["wakeups"].get<int>());
  // The initial gating happens at cycle 0, before the first sample.
  int gated_at_start = 0;
  for (const auto& [name, value] : t.vcd.initial)
    if (name.find("regfile.bank") == 0 && value == kGated) ++gated_at_start;
  CHECK(t.vcd.count("regfile.bank", "_power", kOn, kGated) ==
        gating["gate_events"].get<int>() - gated_at_start);
}

TEST_CASE("waveform: rfv's sub-arrays gate and wake", "[vcd]") {
  Scratch s;
  const Traced t = traced_run(s, "rfv");
  const int wakes = t.vcd.count("rfv.bank", "_power", kGated, kOn);
  const int gates = t.vcd.count("rfv.bank", "_power", kOn, kGated);
  INFO("rfv sub-array wake-ups " << wakes << ", gatings " << gates);
  CHECK(wakes > 0);
  CHECK(gates > 0);
  // Wake-ups at cycle 0 (the exempt area) precede the first sample.
  int on_at_start = 0;
  for (const auto& [name, value] : t.vcd.initial)
    if (name.find("rfv.bank") == 0 && value == kOn) ++on_at_start;
  CHECK(wakes <= t.stats["blocks"]["rfv"]["subarray_wakeups"].get<int>());
  // The banks see the sub-arrays' cells leave and enter the gated state.
  int cell_changes = 0;
  for (const auto& [name, by] : t.vcd.changes)
    if (name.find("regfile.bank") == 0 && name.find("_cells_not_on") != std::string::npos)
      for (const auto& [move, times] : by) cell_changes += times;
  CHECK(cell_changes >= gates);
  CHECK(t.vcd.changes.count("rfv.free_physical_registers"));
}

TEST_CASE("waveform: wrf's entries go drowsy and wake as TRIC counts them", "[vcd]") {
  Scratch s;
  const Traced t = traced_run(s, "wrf");
  const json& tric = t.stats["blocks"]["tric"];
  const uint64_t period_ps =
      static_cast<uint64_t>(1e6 / t.stats["params"]["sim.clock_mhz"].get<double>() + 0.5);
  const uint64_t wakes = t.vcd.sum_of("tric.wakeups", period_ps);
  INFO("tric wake-ups in the waveform: " << wakes);
  CHECK(wakes > 0);
  CHECK(wakes == tric["events"]["wakeups"].get<uint64_t>());
  CHECK(t.vcd.changes.count("tric.entries_drowsy"));
}

TEST_CASE("waveform: --trace-signals adds the SM's signals; without --vcd it is refused", "[vcd]") {
  Scratch s;
  const Outcome o = run_warpreg(s, "run -q -w rfv-hotspot --set profile.ctas=2 --vcd '" +
                                       (s / "w.vcd").string() + "' --trace-signals");
  INFO(o);
  REQUIRE(o.status == 0);
  const Vcd vcd(slurp(s / "w.vcd"));
  for (const char* name : {"sm.issued", "sm.resident_warps", "sm.warps_at_barrier",
                           "sm.instructions_in_flight", "sm.busy_collectors"})
    CHECK(vcd.initial.count(name));
  const Outcome refused = run_warpreg(s, "run -q --trace-signals");
  CHECK(refused.status == 2);
  CHECK(contains(refused.err, "--trace-signals needs --vcd"));
}

TEST_CASE("samples: one row per interval, issued instructions adding up to the run's",
          "[samples]") {
  Scratch s;
  const Outcome o =
      run_warpreg(s, "run -q -p wc -w rfv-hotspot --set profile.ctas=4 --sample 1000 --out '" +
                         (s / "out").string() + "'");
  INFO(o);
  REQUIRE(o.status == 0);
  const json stats = json::parse(slurp(s / "out" / "stats.json"));
  std::istringstream csv(slurp(s / "out" / "samples.csv"));
  std::string header, line;
  REQUIRE(std::getline(csv, header));
  CHECK(header.rfind("cycle,ipc,issued,", 0) == 0);
  CHECK(contains(header, ",rf_cells_gated,"));
  CHECK(contains(header, ",power_mw.regfile,"));
  CHECK(contains(header, ",power_mw.wc.bdi_compressor"));
  uint64_t rows = 0, issued = 0, last_cycle = 0;
  while (std::getline(csv, line)) {
    ++rows;
    std::istringstream cells(line);
    std::string cycle, ipc, n;
    std::getline(cells, cycle, ',');
    std::getline(cells, ipc, ',');
    std::getline(cells, n, ',');
    last_cycle = std::stoull(cycle);
    issued += std::stoull(n);
  }
  const uint64_t cycles = stats["cycles"].get<uint64_t>();
  CHECK(rows == (cycles + 999) / 1000);
  CHECK(last_cycle == cycles);
  CHECK(issued == stats["warp_instructions"].get<uint64_t>());

  const Outcome no_out = run_warpreg(s, "run -q --sample 100");
  CHECK(no_out.status == 2);
  CHECK(contains(no_out.err, "--sample needs --out"));
}

TEST_CASE("log: --log BLOCK=LEVEL shows that block's messages on stderr, nothing else", "[log]") {
  Scratch s;
  const Outcome o = run_warpreg(s, "run -q -w rfv-hotspot --set profile.ctas=2 --log sm=low");
  INFO(o);
  REQUIRE(o.status == 0);
  CHECK(contains(o.err, "warpreg: sm @ 0 s: kernel rfv-hotspot"));
  CHECK(contains(o.err, "warpreg: sm @ "));
  CHECK_FALSE(contains(o.err, "warpreg: regfile"));
  CHECK(o.out.empty());
  const Outcome debug =
      run_warpreg(s, "run -q -w rfv-hotspot --set profile.ctas=2 --log regfile=debug");
  CHECK(contains(debug.err, "warpreg: regfile @ "));
  CHECK(contains(debug.err, ", granted "));
  CHECK_FALSE(contains(debug.err, "warpreg: sm @"));
  const Outcome bad = run_warpreg(s, "run -q --log regfile=loud");
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "unknown log level 'loud'"));
}

TEST_CASE("waveform: the designs' key state (SRP sections, flag-cache hits, RFC entries)",
          "[vcd]") {
  Scratch s;
  const Traced rfv = traced_run(s, "rfv");
  const uint64_t period_ps =
      static_cast<uint64_t>(1e6 / rfv.stats["params"]["sim.clock_mhz"].get<double>() + 0.5);
  const uint64_t hits = rfv.vcd.sum_of("rfv.release_flag_cache.hits", period_ps);
  INFO("flag-cache hits in the waveform: " << hits);
  CHECK(hits > 0);
  CHECK(hits == rfv.stats["blocks"]["rfv.release_flag_cache"]["hits"].get<uint64_t>());

  Scratch s2;
  const Traced regmutex = traced_run(s2, "regmutex", "regmutex-hotspot3d");
  CHECK(regmutex.vcd.changes.count("regmutex.srp_allocator.free_sections"));
  CHECK(regmutex.vcd.changes.count("regmutex.srp_allocator.holders"));

  Scratch s3;
  const Traced ltrf = traced_run(s3, "ltrf");
  CHECK(ltrf.vcd.changes.count("ltrf.register_file_cache.occupied_entries"));
}

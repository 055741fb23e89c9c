#include "modules/wrf/wrf_vectors.h"

#include <cstdio>
#include <string>
#include <vector>

#include "modules/wrf/coma_core.h"
#include "modules/wrf/tric_core.h"

namespace warpreg {

namespace {

/// splitmix64: the same sequence on every platform.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

std::string hex32(uint32_t v) {
  char text[11];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

struct NullSink : TransitionSink {
  void transition(RegPower, RegPower, uint64_t) override {}
};

char letter(RegPower s) { return s == RegPower::On ? 'N' : s == RegPower::Drowsy ? 'D' : 'O'; }

}  // namespace

nlohmann::json tric_vectors(uint64_t seed, uint32_t steps) {
  constexpr uint32_t kWarps = 4, kRegsPerWarp = 8;
  TricConfig config;
  config.registers = kWarps * kRegsPerWarp + 8;  // the last 8 entries are never allocated
  config.wakeup_latency = 3;
  config.hidden_cycles = 1;
  config.lookahead = 0;
  NullSink sink;
  TricCore tric(config, sink);
  Rng rng{seed};

  nlohmann::json events = nlohmann::json::array();
  uint64_t cycle = 0;
  const auto states = [&](uint64_t at) {
    std::string s;
    for (uint32_t r = 0; r < config.registers; ++r) s += letter(tric.state(r, at));
    return s;
  };
  const auto record = [&](nlohmann::json e) {
    e["states"] = states(cycle);
    events.push_back(std::move(e));
  };

  struct PendingWrite {
    uint64_t cycle;
    uint32_t reg;
  };
  std::vector<PendingWrite> writes;
  std::vector<bool> live(kWarps, false);
  for (uint32_t w = 0; w < kWarps; ++w) {
    tric.launch(w * kRegsPerWarp, kRegsPerWarp, cycle);
    live[w] = true;
    record(
        {{"cycle", cycle}, {"op", "launch"}, {"first", w * kRegsPerWarp}, {"count", kRegsPerWarp}});
  }
  for (uint32_t step = 0; step < steps; ++step) {
    cycle += rng.below(3);
    // Writebacks due by now, in order.
    for (size_t i = 0; i < writes.size();) {
      if (writes[i].cycle > cycle) {
        ++i;
        continue;
      }
      const PendingWrite pw = writes[i];
      writes.erase(writes.begin() + long(i));
      const uint64_t served = std::max(cycle, pw.cycle);
      tric.write_done(pw.reg, served, served + 1, cycle);
      record({{"cycle", cycle},
              {"op", "write_done"},
              {"reg", pw.reg},
              {"served", served},
              {"done", served + 1}});
    }
    const uint32_t w = rng.below(kWarps);
    if (!live[w]) {
      tric.launch(w * kRegsPerWarp, kRegsPerWarp, cycle);
      live[w] = true;
      record({{"cycle", cycle},
              {"op", "launch"},
              {"first", w * kRegsPerWarp},
              {"count", kRegsPerWarp}});
      continue;
    }
    bool writing = false;
    for (const PendingWrite& pw : writes) writing |= pw.reg / kRegsPerWarp == w;
    if (!writing && rng.below(16) == 0) {
      tric.retire(w * kRegsPerWarp, kRegsPerWarp, cycle);
      live[w] = false;
      record({{"cycle", cycle},
              {"op", "retire"},
              {"first", w * kRegsPerWarp},
              {"count", kRegsPerWarp}});
      continue;
    }
    // A warp is assigned a collector: one destination and one to three sources.
    const uint32_t base = w * kRegsPerWarp;
    const uint32_t dst = base + rng.below(kRegsPerWarp);
    tric.wake(dst, cycle, true);
    record({{"cycle", cycle}, {"op", "wake"}, {"reg", dst}, {"destination", true}});
    const uint32_t sources = 1 + rng.below(3);
    for (uint32_t k = 0; k < sources; ++k) {
      const uint32_t src = base + rng.below(kRegsPerWarp);
      const uint64_t ready = tric.wake(src, cycle, false);
      record({{"cycle", cycle},
              {"op", "wake"},
              {"reg", src},
              {"destination", false},
              {"expect_ready", ready}});
      const uint64_t served = ready + rng.below(2);  // a bank conflict sometimes
      tric.read_done(src, served, served + 1, cycle);
      record({{"cycle", cycle},
              {"op", "read_done"},
              {"reg", src},
              {"served", served},
              {"done", served + 1}});
    }
    writes.push_back({cycle + 4 + rng.below(20), dst});
  }
  const TricCore::Counters& c = tric.counters();
  return {{"block", "tric"},
          {"seed", seed},
          {"config",
           {{"registers", config.registers},
            {"wakeup_latency", config.wakeup_latency},
            {"hidden_cycles", config.hidden_cycles},
            {"lookahead", config.lookahead}}},
          {"legend",
           "events in cycle order; 'states' is every entry's state at the event's cycle after "
           "it (O off, D drowsy, N on); a wake's 'expect_ready' is the first cycle the bank may "
           "serve the read"},
          {"events", std::move(events)},
          {"final",
           {{"wakeups", c.wakeups},
            {"sleeps_committed", c.sleeps},
            {"stay_on", c.stay_on},
            {"violations", tric.violations()}}}};
}

nlohmann::json coma_vectors(uint64_t seed, uint32_t steps) {
  ComaConfig config;
  config.entries = 16;
  ComaCore coma(config);
  Rng rng{seed};
  const auto random_mask = [&rng]() -> LaneMask {
    switch (rng.below(4)) {
      case 0:
        return kFullMask;
      case 1:  // a prefix of lanes (a bounds check on the thread index)
        return (LaneMask(1) << (1 + rng.below(31))) - 1;
      case 2:
        return 0x0000ffffu;
      default:
        return static_cast<LaneMask>(rng.next()) | 1u;
    }
  };
  std::vector<LaneMask> assigned(config.entries, kFullMask);
  nlohmann::json events = nlohmann::json::array();
  for (uint32_t step = 0; step < steps; ++step) {
    const uint32_t cu = rng.below(config.entries);
    switch (rng.below(3)) {
      case 0: {
        const LaneMask mask = random_mask();
        coma.assign(cu, mask);
        assigned[cu] = mask;
        events.push_back({{"op", "assign"}, {"collector", cu}, {"mask", hex32(mask)}});
        break;
      }
      case 1: {
        const uint64_t before = coma.counters().mismatches;
        const LaneMask gate = coma.read_mask(cu, assigned[cu]);
        events.push_back({{"op", "read"},
                          {"collector", cu},
                          {"expect_gate", hex32(gate)},
                          {"expect_mismatch", coma.counters().mismatches != before}});
        break;
      }
      default: {
        const LaneMask mask = random_mask();
        events.push_back({{"op", "writeback"},
                          {"mask", hex32(mask)},
                          {"expect_gate", hex32(coma.write_mask(mask))}});
        break;
      }
    }
  }
  return {{"block", "coma"},
          {"seed", seed},
          {"config", {{"entries", config.entries}, {"bits_per_entry", 32}}},
          {"legend",
           "'expect_gate' bit l enables lane l's word-line segment, bit lines and sense "
           "amplifiers"},
          {"events", std::move(events)},
          {"final",
           {{"table_writes", coma.counters().table_writes},
            {"table_reads", coma.counters().table_reads},
            {"lanes_gated", coma.counters().lanes_gated}}}};
}

}  // namespace warpreg

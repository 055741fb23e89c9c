#include "modules/wrf/wrf_vectors.h"

#include <algorithm>
#include <vector>

#include "modules/wrf/coma_core.h"
#include "modules/wrf/tric_core.h"

namespace warpreg {

namespace {

struct NullSink : TransitionSink {
  void transition(uint32_t, RegPower, RegPower, uint64_t) override {}
};

constexpr uint32_t kTricWarps = 4, kTricRegsPerWarp = 8;
constexpr uint32_t kTricRegisters = kTricWarps * kTricRegsPerWarp + 8;  // 8 never allocated

TricConfig tric_config() {
  TricConfig config;
  config.registers = kTricRegisters;
  config.wakeup_latency = 3;
  config.hidden_cycles = 1;
  config.lookahead = 0;
  return config;
}

/// Two bits per entry: 0 off, 1 drowsy, 2 on.
uint32_t state_code(RegPower s) { return s == RegPower::On ? 2 : s == RegPower::Drowsy ? 1 : 0; }

/// One TRIC event; fields that do not apply stay 0.
struct TricEvent {
  const char* op;
  uint32_t reg = 0, count = 0;
  bool destination = false;
  uint64_t ready = 0, served = 0, done = 0;
};

void write_tric_steps(vectors::RecordSink& out, uint64_t steps, uint64_t seed) {
  const TricConfig config = tric_config();
  NullSink sink;
  TricCore tric(config, sink);
  vectors::SplitMix64 rng(seed);
  uint64_t cycle = 0;
  std::vector<uint32_t> states((2 * config.registers + 31) / 32);
  const auto record = [&](const TricEvent& e) {
    vectors::Record& r = out.next();
    r.set("cycle", cycle);
    r.set_enum("op", e.op);
    r.set("reg", e.reg);
    r.set("count", e.count);
    r.set("destination", e.destination);
    r.set("ready", e.ready);
    r.set("served", e.served);
    r.set("done", e.done);
    std::fill(states.begin(), states.end(), 0);
    for (uint32_t reg = 0; reg < config.registers; ++reg)
      states[reg / 16] |= state_code(tric.state(reg, cycle)) << (2 * (reg % 16));
    r.set_words("states", states.data(), states.size());
    out.emit();
  };

  struct PendingWrite {
    uint64_t cycle;
    uint32_t reg;
  };
  std::vector<PendingWrite> writes;
  std::vector<bool> live(kTricWarps, false);
  const auto launch = [&](uint32_t w) {
    tric.launch(w * kTricRegsPerWarp, kTricRegsPerWarp, cycle);
    live[w] = true;
    record({"launch", w * kTricRegsPerWarp, kTricRegsPerWarp});
  };
  for (uint32_t w = 0; w < kTricWarps; ++w) launch(w);
  for (uint64_t step = 0; step < steps; ++step) {
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
      TricEvent e{"write_done", pw.reg};
      e.served = served;
      e.done = served + 1;
      record(e);
    }
    const uint32_t w = rng.below(kTricWarps);
    if (!live[w]) {
      launch(w);
      continue;
    }
    bool writing = false;
    for (const PendingWrite& pw : writes) writing |= pw.reg / kTricRegsPerWarp == w;
    if (!writing && rng.below(16) == 0) {
      tric.retire(w * kTricRegsPerWarp, kTricRegsPerWarp, cycle);
      live[w] = false;
      record({"retire", w * kTricRegsPerWarp, kTricRegsPerWarp});
      continue;
    }
    // A warp is assigned a collector: one destination and one to three sources.
    const uint32_t base = w * kTricRegsPerWarp;
    const uint32_t dst = base + rng.below(kTricRegsPerWarp);
    TricEvent wake_dst{"wake", dst};
    wake_dst.destination = true;
    wake_dst.ready = tric.wake(dst, cycle, true);
    record(wake_dst);
    const uint32_t sources = 1 + rng.below(3);
    for (uint32_t k = 0; k < sources; ++k) {
      const uint32_t src = base + rng.below(kTricRegsPerWarp);
      TricEvent wake{"wake", src};
      wake.ready = tric.wake(src, cycle, false);
      record(wake);
      const uint64_t served = wake.ready + rng.below(2);  // a bank conflict sometimes
      tric.read_done(src, served, served + 1, cycle);
      TricEvent read{"read_done", src};
      read.served = served;
      read.done = served + 1;
      record(read);
    }
    writes.push_back({cycle + 4 + rng.below(20), dst});
  }
}

void write_coma_steps(vectors::RecordSink& out, uint64_t steps, uint64_t seed) {
  ComaConfig config;
  config.entries = 16;
  ComaCore coma(config);
  vectors::SplitMix64 rng(seed);
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
  for (uint64_t step = 0; step < steps; ++step) {
    const uint32_t cu = rng.below(config.entries);
    vectors::Record& r = out.next();
    switch (rng.below(3)) {
      case 0: {
        const LaneMask mask = random_mask();
        coma.assign(cu, mask);
        assigned[cu] = mask;
        r.set_enum("op", "assign").set("collector", cu).set("mask", mask);
        break;
      }
      case 1: {
        const uint64_t before = coma.counters().mismatches;
        const LaneMask gate = coma.read_mask(cu, assigned[cu]);
        r.set_enum("op", "read").set("collector", cu).set("mask", assigned[cu]);
        r.set("gate", gate).set("mismatch", coma.counters().mismatches != before);
        break;
      }
      default: {
        const LaneMask mask = random_mask();
        r.set_enum("op", "writeback").set("mask", mask).set("gate", coma.write_mask(mask));
        break;
      }
    }
    out.emit();
  }
}

}  // namespace

vectors::VectorGenerator tric_vector_generator() {
  const TricConfig config = tric_config();
  vectors::VectorGenerator g;
  g.name = "tric";
  g.block = "wrf-tric";
  g.description =
      "Warped Register File TRIC core: seeded collector assignments, reads and writebacks with "
      "each wake's first readable cycle and every entry's OFF/DROWSY/ON state";
  g.doc = "docs/vectors.md#tric";
  g.count_meaning = "collector assignments (each gives several records)";
  g.parameters = {{"registers", config.registers},
                  {"warps", kTricWarps},
                  {"registers_per_warp", kTricRegsPerWarp},
                  {"wakeup_latency", config.wakeup_latency},
                  {"hidden_cycles", config.hidden_cycles},
                  {"lookahead", config.lookahead},
                  {"state_codes", {{"off", 0}, {"drowsy", 1}, {"on", 2}}}};
  using namespace vectors;
  g.fields = {unsigned_field("cycle", 32),
              enum_field("op", {"launch", "retire", "wake", "read_done", "write_done"}),
              unsigned_field("reg", 6),
              unsigned_field("count", 4),
              bool_field("destination"),
              unsigned_field("ready", 32),
              unsigned_field("served", 32),
              unsigned_field("done", 32),
              unsigned_field("states", 2 * config.registers)};
  g.write = write_tric_steps;
  return g;
}

vectors::VectorGenerator coma_vector_generator() {
  vectors::VectorGenerator g;
  g.name = "coma";
  g.block = "wrf-coma";
  g.description =
      "Warped Register File COMA mask table: seeded assignments, reads and writebacks with the "
      "lanes each access switches";
  g.doc = "docs/vectors.md#coma";
  g.count_meaning = "events";
  g.parameters = {{"entries", 16}, {"bits_per_entry", 32}};
  using namespace vectors;
  g.fields = {enum_field("op", {"assign", "read", "writeback"}), unsigned_field("collector", 4),
              unsigned_field("mask", 32), unsigned_field("gate", 32), bool_field("mismatch")};
  g.records = [](uint64_t count) { return count; };
  g.write = write_coma_steps;
  return g;
}

}  // namespace warpreg

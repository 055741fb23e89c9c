#include "platforms/sm/sampler.h"

#include <cstdio>

#include "common/errors.h"

namespace warpreg {

namespace {
constexpr power::PowerState kStates[] = {power::PowerState::On, power::PowerState::Drowsy,
                                         power::PowerState::Off, power::PowerState::Gated};
}

Sampler::Sampler(const std::string& path, uint64_t interval_cycles, double ns_per_cycle,
                 const SmCore& core, const RegisterFileModule& regfile,
                 std::vector<const ReportingBlock*> blocks)
    : path_(path),
      out_(path),
      interval_(interval_cycles),
      ns_per_cycle_(ns_per_cycle),
      core_(core),
      regfile_(regfile),
      blocks_(std::move(blocks)),
      next_row_(interval_cycles) {
  if (interval_ == 0) throw ConfigError("--sample: the interval must be at least one cycle");
  if (!out_) throw ConfigError("cannot write samples file " + path);
  // The columns docs/observability.md describes, in its order.
  std::vector<std::string> columns = {"cycle",
                                      "ipc",
                                      "issued",
                                      "issue_cycles",
                                      "hook_waits",
                                      "resident_warps",
                                      "warps_at_barrier",
                                      "instructions_in_flight",
                                      "rf_reads",
                                      "rf_writes",
                                      "rf_conflicted_reads"};
  for (const power::PowerState s : kStates)
    columns.push_back(std::string("rf_cells_") + power::to_string(s));
  for (const ReportingBlock* b : blocks_)
    if (b->energy_account()) columns.push_back("power_mw." + b->block_name());
  std::string header;
  for (const std::string& c : columns) header += (header.empty() ? "" : ",") + c;
  out_ << header << '\n';
  last_ = totals();
}

Sampler::Totals Sampler::totals() const {
  Totals t;
  const SmCore::Counters& c = core_.counters();
  t.warp_instructions = c.warp_instructions;
  t.issue_cycles = c.issue_cycles;
  t.hook_waits = c.hook_waits;
  const RegFileCore::Counters& rf = regfile_.core().counters();
  t.rf_reads = rf.reads;
  t.rf_writes = rf.writes;
  t.rf_conflicted_reads = rf.conflicted_reads;
  for (const ReportingBlock* b : blocks_)
    if (const power::EnergyAccount* e = b->energy_account())
      t.block_dynamic_pj.push_back(e->dynamic_pj());
  return t;
}

void Sampler::write_rows(uint64_t now) {
  // Nothing changes between the core's steps: every interval that ended before `now`
  // has the totals of now; the idle ones among them show zero activity.
  const Totals t = totals();
  while (next_row_ <= now) {
    write_row(next_row_, t);
    next_row_ += interval_;
  }
}

void Sampler::write_row(uint64_t end, const Totals& t) {
  const double cycles = double(end - row_start_);
  const uint64_t issued = t.warp_instructions - last_.warp_instructions;
  const SmCore::Activity a = core_.activity();
  char buf[64];
  const auto num = [&](double v) {
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  std::string row =
      std::to_string(end) + "," + num(cycles > 0 ? double(issued) / cycles : 0) + "," +
      std::to_string(issued) + "," + std::to_string(t.issue_cycles - last_.issue_cycles) + "," +
      std::to_string(t.hook_waits - last_.hook_waits) + "," + std::to_string(a.resident_warps) +
      "," + std::to_string(a.warps_at_barrier) + "," + std::to_string(a.instructions_in_flight) +
      "," + std::to_string(t.rf_reads - last_.rf_reads) + "," +
      std::to_string(t.rf_writes - last_.rf_writes) + "," +
      std::to_string(t.rf_conflicted_reads - last_.rf_conflicted_reads);
  const StoragePowerMap& map = regfile_.power_map();
  const double cells = double(map.cells());
  for (const power::PowerState s : kStates) {
    uint64_t in_state = 0;
    for (uint32_t b = 0; b < map.banks(); ++b)
      for (uint32_t slice = 0; slice < map.slices(); ++slice)
        in_state += map.column_cells(b, slice, s);
    row += "," + num(double(in_state) / cells);
  }
  for (size_t i = 0; i < t.block_dynamic_pj.size(); ++i) {
    // pJ per ns is mW.
    const double pj = t.block_dynamic_pj[i] - last_.block_dynamic_pj[i];
    row += "," + num(cycles > 0 ? pj / (cycles * ns_per_cycle_) : 0);
  }
  out_ << row << '\n';
  last_ = t;
  row_start_ = end;
}

void Sampler::finish(uint64_t end_cycle) {
  write_rows(end_cycle);
  if (end_cycle > row_start_) write_row(end_cycle, totals());
  out_.flush();
  if (!out_) throw ConfigError("cannot write samples file " + path_);
}

}  // namespace warpreg

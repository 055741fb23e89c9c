#pragma once
// Time series of a run (--sample CYCLES): one row of samples.csv per interval with the
// SM's progress, the register file's activity and power states, and every block's
// dynamic power. Rows are written as the run goes: memory does not grow with its length.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "modules/interfaces/reporting_block.h"
#include "modules/regfile/regfile_module.h"
#include "platforms/sm/sm_core.h"

namespace warpreg {

class Sampler {
 public:
  /// Throws ConfigError naming `path` when it cannot be written.
  Sampler(const std::string& path, uint64_t interval_cycles, double ns_per_cycle,
          const SmCore& core, const RegisterFileModule& regfile,
          std::vector<const ReportingBlock*> blocks);

  /// Before the core runs cycle `now`: writes the rows of every interval that ended.
  void observe(uint64_t now) {
    if (now >= next_row_) write_rows(now);
  }
  /// Writes the last, possibly shorter, interval ending at `end_cycle`.
  void finish(uint64_t end_cycle);

 private:
  struct Totals {
    uint64_t warp_instructions = 0, issue_cycles = 0, hook_waits = 0;
    uint64_t rf_reads = 0, rf_writes = 0, rf_conflicted_reads = 0;
    std::vector<double> block_dynamic_pj;
  };
  Totals totals() const;
  void write_rows(uint64_t now);
  void write_row(uint64_t end, const Totals& now_totals);

  std::string path_;
  std::ofstream out_;
  uint64_t interval_;
  double ns_per_cycle_;
  const SmCore& core_;
  const RegisterFileModule& regfile_;
  std::vector<const ReportingBlock*> blocks_;
  uint64_t next_row_;
  uint64_t row_start_ = 0;
  Totals last_;
};

}  // namespace warpreg

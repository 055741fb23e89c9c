#pragma once
// The probe design's stage, parameters and statistics (probe_design.cpp).
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"

namespace warpreg::testing {

struct ProbeParams : ParamSet {
  explicit ProbeParams(const Params* values = nullptr) : ParamSet("probe", values) {}
  Param<uint32_t> extra_cycles{
      this, "extra_cycles", 0, {0, 64}, "cycles", "Cycles added to every register read.", "test"};
};

struct ProbeStats : StatSet {
  ProbeStats() : StatSet("probe") {}
  Counter reads{this, "reads", "accesses", "Register reads that passed the probe."};
  Counter writes{this, "writes", "accesses", "Register writes that passed the probe."};
};

class ProbeStage : public OperandStage, public ReportingBlock {
 public:
  ProbeStage(sc_core::sc_module_name name, const DesignContext& context);
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  ProbeParams params_;
  CycleClock clock_;
  ProbeStats stats_;
};

}  // namespace warpreg::testing

#pragma once
// Warped-Compression on the operand path (seed 001 §5, Figure 1): an OperandStage
// between the crossbar and the banks that
//  - compresses non-divergent writes with BDI (a compressor unit, wc.compress_latency)
//    and stores the image in the first k lane slices of the register's entry;
//  - keeps the range-indicator table, read with bank arbitration, so a read of a
//    compressed register touches only its k slices and then takes a decompressor
//    (wc.decompress_latency);
//  - stores divergent writes uncompressed, first injecting a dummy MOV (read,
//    decompress, full write) when the destination is compressed;
//  - gates 16-byte banks (slice columns) without a valid entry and wakes them on
//    a write (wc.wakeup_latency), and accounts the banks' leakage by power state
//    (the register file then reports none: owns_register_leakage).
// The data the SM sees is unchanged: every read returns the decompressed register.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/cycle_clock.h"
#include "modules/bdi/bdi_core.h"
#include "modules/bdi/wc_state.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "power/energy.h"

namespace warpreg {

class Params;

struct WcStageConfig {
  bdi::Variant variant = bdi::Variant::Warped;
  uint32_t compressors = 2;
  uint32_t decompressors = 4;
  uint32_t compress_latency = 2;
  uint32_t decompress_latency = 1;
  double unit_energy_scale = 1.0;
  double wire_mm = 1.0;  ///< power.wire_mm, for the dummy MOVs' wire transfers
  bdi::WcStateConfig state;
  bool gpgpusim_mapping = true;  ///< rf.bank_mapping: bank = (arch_reg + warp_slot) mod banks

  /// From the wc.* and rf.* parameters. Throws ConfigError naming the option.
  static WcStageConfig from(const Params& params);
};

class WcStage : public OperandStage,
                public ReportingBlock,
                public IssueHook,
                private bdi::GatingListener {
 public:
  WcStage(sc_core::sc_module_name name, const WcStageConfig& config, const power::TechTable& tech,
          const CycleClock& clock);

  std::string block_name() const override { return "wc"; }
  /// The 16-byte banks' leakage is accounted here, per bank and power state.
  bool owns_register_leakage() const override { return true; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  /// Never holds a warp: the stage only counts issued instructions, the denominator
  /// of the dummy-MOV share (Figure 11) and of the divergent share (Figure 3).
  IssueVerdict before_issue(uint32_t, uint32_t, uint32_t, const WarpInst&, uint64_t) override {
    return IssueVerdict::Issue;
  }
  void issued(uint32_t, uint32_t, const WarpInst& inst, uint64_t) override {
    ++counters_.warp_instructions;
    if (inst.active != kFullMask) ++counters_.divergent_instructions;
  }

  const bdi::Codec& codec() const { return codec_; }
  const bdi::WcRegisterState& state() const { return state_; }

  struct Counters {
    uint64_t warp_instructions = 0;       ///< instructions issued (IssueHook)
    uint64_t divergent_instructions = 0;  ///< of those, with a partial active mask
    uint64_t writes = 0;                  ///< register writes seen
    uint64_t divergent_writes = 0;  ///< writes with a partial active mask (stored uncompressed)
    uint64_t reads = 0;
    uint64_t compressed_reads = 0;          ///< reads of a compressed register (decompressed)
    uint64_t dummy_movs = 0;                ///< MOVs injected before divergent writes
    uint64_t wakeup_stall_cycles = 0;       ///< cycles writes waited for a bank to wake
    uint64_t original_bytes = 0;            ///< Σ 128 over non-divergent writes
    uint64_t stored_bytes = 0;              ///< Σ banks x 16 they were stored in
    uint64_t divergent_original_bytes = 0;  ///< the same for divergent writes, had the merged
    uint64_t divergent_stored_bytes = 0;    ///< register been compressed (Figure 8)
    std::array<uint64_t, 16> writes_by_indicator{};  ///< non-divergent writes per encoding
    /// Figure 2: successive active-lane distances of written values: zero, <= 128, <= 32K,
    /// random; [0] non-divergent, [1] divergent.
    std::array<std::array<uint64_t, 4>, 2> similarity{};
  };
  const Counters& counters() const { return counters_; }

 protected:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;

 private:
  void read(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay);
  void write(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay);
  /// Sends `payload` downstream at `cycle`; returns its completion cycle.
  uint64_t forward_at(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay, uint64_t cycle);
  /// The dummy MOV: reads and decompresses `a`'s compressed register at `cycle` and
  /// writes it back uncompressed. Returns the cycle its write is granted.
  uint64_t dummy_mov(const RfAccess& a, uint32_t bank, uint64_t cycle);
  void count_similarity(const WarpRegister& value, LaneMask active, bool divergent);
  uint32_t bank_of(const RfAccess& a) const;
  void column_gated(uint32_t column, uint64_t cycle) override;
  void column_woken(uint32_t column, uint64_t cycle) override;
  /// Moves a column's residency at `cycle`, never before its last change (accesses
  /// may arrive slightly out of cycle order; the state core clamps the same way).
  void move_column(uint32_t column, power::PowerState from, power::PowerState to, uint64_t cycle);

  WcStageConfig config_;
  CycleClock clock_;
  bdi::Codec codec_;
  bdi::WcRegisterState state_;
  bdi::UnitPool compressors_, decompressors_;
  std::vector<WarpRegister> contents_;  ///< decompressed value of each register (Figure 8 only)
  WarpRegister image_;                  ///< the compressed image on its way to / from the banks
  RfTransaction mov_;                   ///< the dummy MOV's read and write
  WarpRegister mov_value_;
  double bank_leakage_mw_ = 0;  ///< one slice column (a 16-byte bank) on
  double gated_leakage_mw_ = 0;
  power::EnergyAccount energy_;
  uint32_t slice_bytes_ = 16;
  power::EnergyAccount::EventId compress_, decompress_, indicator_reads_, indicator_writes_,
      mov_flits_;
  power::EnergyAccount::GroupId compressor_units_, decompressor_units_;
  std::vector<power::EnergyAccount::GroupId> column_groups_;  ///< one per 16-byte bank
  std::vector<uint64_t> column_changed_;  ///< cycle of each column's last power-state change
  Counters counters_;
};

}  // namespace warpreg

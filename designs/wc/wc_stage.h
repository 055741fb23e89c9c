#pragma once
// Warped-Compression on the operand path (seed 001 §5, Figure 1): the assembly of the
// design, an OperandStage in the codec slot that
//  - sends every non-divergent write through its compressor block (wc.bdi_compressor)
//    and stores the image in the first k lane slices of the register's entry;
//  - keeps the range-indicator table, read with bank arbitration, so a read of a
//    compressed register touches only its k slices and then goes through the
//    decompressor block (wc.bdi_decompressor);
//  - stores divergent writes uncompressed, first injecting a dummy MOV (read,
//    decompress, full write) when the destination is compressed;
//  - gates 16-byte banks (bank x lane-slice columns) without a valid entry and wakes
//    them on a write (wc.wakeup_latency), through the register file's StoragePower:
//    the register file accounts the cells' leakage.
// Per-register state is kept by physical register; Launch and Retire are physical
// ranges (docs/composition.md). The data the SM sees is unchanged: every read
// returns the decompressed register.
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <vector>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/bdi/bdi_compressor.h"
#include "modules/bdi/bdi_decompressor.h"
#include "modules/bdi/wc_state.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/issue_hook.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "power/energy.h"

namespace warpreg {

/// The stage's own parameters (wc.*): the bank-level power gating.
struct WcStageParams : ParamSet {
  explicit WcStageParams(const Params* values = nullptr) : ParamSet("wc", values) {}
  Param<bool> bank_gating{this, "bank_gating", true,
                          "Bank-level power gating: a 16-byte bank (one lane-slice column) whose "
                          "entries are all invalid is gated; a write to it wakes it.",
                          "seed 001 §5.3"};
  Param<uint32_t> wakeup_latency{this,
                                 "wakeup_latency",
                                 10,
                                 {0, 100000},
                                 "cycles",
                                 "Cycles to wake a gated bank before a write can use it.",
                                 "seed 001 Table 2: 'Bank Wakeup Latency 10 Cycles'; §5.3"};
};

/// What the stage reports in stats.json (blocks.wc).
struct WcStageStats : StatSet {
  WcStageStats() : StatSet("wc") {}
  Counter writes{this, "writes", "accesses", "Register writes seen."};
  Counter divergent_writes{this, "divergent_writes", "accesses",
                           "Writes with a partial active mask (stored uncompressed)."};
  Counter reads{this, "reads", "accesses", "Register reads seen."};
  Counter compressed_reads{this, "compressed_reads", "accesses",
                           "Reads of a compressed register (decompressed)."};
  Counter dummy_movs{this, "dummy_movs", "instructions",
                     "MOVs injected before divergent writes to compressed registers."};
  Counter warp_instructions{this, "warp_instructions", "instructions",
                            "Warp instructions issued (the denominator of the shares)."};
  Statistic<nlohmann::json> writes_by_encoding{
      this, "writes_by_encoding", "accesses",
      "Non-divergent writes per encoding (uncompressed, <4,0>, ...)."};
  Statistic<nlohmann::json> encoding_share{
      this, "encoding_share", "fraction",
      "Figure 5: non-divergent writes per encoding over all of them, keyed base4_delta0 ... "
      "and uncompressed; null without a non-divergent write."};
  Statistic<nlohmann::json> divergent_instruction_share{
      this, "divergent_instruction_share", "fraction",
      "Figure 3: issued instructions with a partial active mask; null without instructions."};
  Statistic<nlohmann::json> dummy_mov_share{
      this, "dummy_mov_share", "fraction",
      "Figure 11: dummy MOVs per issued warp instruction; null without instructions."};
  Statistic<nlohmann::json> compression_ratio{
      this, "compression_ratio", "ratio",
      "Figure 8 as the paper defines it: non_divergent = 128 B x writes / their compressed "
      "sizes (Table 1: 4, 35, 66 or 128 bytes); divergent_if_compressed = the same for the "
      "register a divergent write leaves, had it been compressed."};
  Statistic<nlohmann::json> compression_ratio_banks{
      this, "compression_ratio_banks", "ratio",
      "compression_ratio with each image rounded up to the 16-byte banks it occupies (1, 3, 5 "
      "or 8 banks): the storage the register file really uses."};
  Statistic<nlohmann::json> similarity{
      this, "similarity", "lane pairs",
      "Figure 2: distances between successive lanes of each written register (zero, le_128, "
      "le_32k, random), for non_divergent and divergent writes; a divergent write's register "
      "is binned over all its lanes, the kept ones included."};
  Statistic<nlohmann::json> similarity_share{this, "similarity_share", "fraction",
                                             "Figure 2's bins as fractions of their phase."};
  Statistic<nlohmann::json> compressed_register_share{
      this, "compressed_register_share", "fraction",
      "Figure 12: time average of compressed over allocated physical registers."};
  Statistic<nlohmann::json> bank_gating{
      this, "bank_gating", "object",
      "Figure 10: enabled, banks, wakeups, gate_events, wakeup_stall_cycles, "
      "gated_cycles_per_bank and gated_fraction_per_bank (bank-major), gated_fraction, "
      "gated_fraction_by_slice."};
  Statistic<uint64_t> storage_bits{this, "storage_bits", "bits",
                                   "Range indicators plus valid bits (one per entry and slice)."};
};

class WcStage : public OperandStage,
                public ReportingBlock,
                public IssueHook,
                private bdi::GatingListener {
 public:
  /// The codec blocks' sockets, bound at elaboration to the stage's children.
  tlm_utils::simple_initiator_socket<WcStage> compress_socket;    ///< to bdi_compressor
  tlm_utils::simple_initiator_socket<WcStage> decompress_socket;  ///< to bdi_decompressor

  /// Throws ConfigError naming the option, and TechError naming the block and the key
  /// the technology lacks.
  WcStage(sc_core::sc_module_name name, const DesignContext& context);

  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// Never holds a warp: the stage only counts issued instructions, the denominator
  /// of the dummy-MOV share (Figure 11) and of the divergent share (Figure 3).
  IssueVerdict before_issue(uint32_t, uint32_t, uint32_t, const WarpInst&, uint64_t) override {
    return IssueVerdict::Issue;
  }
  bool may_hold() const override { return false; }
  void issued(uint32_t, uint32_t, const WarpInst& inst, uint64_t) override {
    ++stats_.warp_instructions;
    if (inst.active != kFullMask) ++divergent_instructions_;
  }

  /// Figure 2's bins of the 31 distances |lane i - lane i-1| (as signed 32-bit
  /// values) of `value`: zero, at most 128, at most 32768, beyond.
  static std::array<uint32_t, 4> similarity_bins(const WarpRegister& value);

  const bdi::Codec& codec() const { return compressor_.codec(); }
  const bdi::WcRegisterState& state() const { return state_; }
  const WcStageStats& counters() const { return stats_; }
  BdiCompressor& compressor() { return compressor_; }
  const BdiCompressor& compressor() const { return compressor_; }
  BdiDecompressor& decompressor() { return decompressor_; }
  const BdiDecompressor& decompressor() const { return decompressor_; }

  /// With serve: reads and writes at a cycle, as the stage before it sends them.
  DirectTransport direct() override;

 protected:
  void transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) override;

 private:
  /// A read or a write of a register of the file at `cycle`: returns the cycle it
  /// completes.
  uint64_t read(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle);
  uint64_t write(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle);
  friend class OperandStage;  // serving_at() calls serve_at()
  /// DirectTransport::serve: a read or a write at `cycle`, without a delay to convert;
  /// false, nothing done, for anything else, refusals included (transport() takes it).
  bool serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle, uint64_t& ready);
  /// `buffer` through a codec block (`unit`: the compressor or the decompressor, whose
  /// target compress_socket or decompress_socket is bound to) at `cycle`, straight to
  /// the unit's work (BdiUnitPool::carry_at): the stage's requests pass the unit's checks
  /// by construction, so they never fail. Afterwards `encoding` is the image's; returns
  /// the cycle the result is ready.
  uint64_t through_codec(BdiUnitPool& unit, WarpRegister& buffer, bdi::Encoding& encoding,
                         uint64_t cycle);
  /// The dummy MOV: reads and decompresses `a`'s compressed register at `cycle` and
  /// writes it back uncompressed; `cycle` becomes the cycle its write is granted.
  tlm::tlm_response_status dummy_mov(const RfAccess& a, uint32_t bank, uint64_t& cycle);
  /// Figure 2: bins the distances between successive lanes of `value`.
  void count_similarity(const WarpRegister& value, bool divergent);
  uint32_t bank_of(const RfAccess& a) const {
    return geometry_.bank_of(a.phys_reg, a.warp_slot, a.arch_reg);
  }
  void column_gated(uint32_t column, uint64_t cycle) override;
  void column_woken(uint32_t column, uint64_t cycle) override;
  void set_column(uint32_t column, power::PowerState state, uint64_t cycle);
  static bdi::WcStateConfig state_config(const WcStageParams& params,
                                         const RegFileGeometry& geometry);

  const WcStageParams params_;
  const RegFileGeometry geometry_;
  CycleClock clock_;
  double wire_mm_;  ///< power.wire_mm, for the dummy MOVs' wire transfers
  BdiCompressor compressor_;
  BdiDecompressor decompressor_;
  bdi::WcRegisterState state_;
  StoragePower& storage_power_;
  StoragePower::Controller controller_ = 0;
  std::vector<WarpRegister> contents_;  ///< decompressed value of each register (Figure 8 only)
  WarpRegister image_;                  ///< a register on its way through a codec unit
  BdiImage codec_image_;                ///< the encoding on its way through a codec unit
  RfTransaction mov_;                   ///< the dummy MOV's read and write
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId indicator_reads_, indicator_writes_, mov_flits_;
  WcStageStats stats_;
  uint64_t divergent_instructions_ = 0;
  uint64_t wakeup_stall_cycles_ = 0;
  /// Figure 8's bytes: Σ 128 over the writes, Σ of their compressed sizes (Table 1) and Σ
  /// of the bank bytes those occupy; [0] non-divergent, [1] divergent (had the merged
  /// register been compressed).
  struct RatioBytes {
    uint64_t original = 0, compressed = 0, banked = 0;
    void add(const bdi::Encoding& e) {
      original += kWarpRegisterBytes;
      compressed += e.bytes();
      banked += e.banks() * bdi::kBankBytes;
    }
  };
  std::array<RatioBytes, 2> ratio_bytes_{};
  std::array<uint64_t, 16> writes_by_indicator_{};  ///< non-divergent writes per encoding
  /// Figure 2: successive-lane distances of written registers: zero, <= 128, <= 32K,
  /// random; [0] non-divergent, [1] divergent.
  std::array<std::array<uint64_t, 4>, 2> similarity_{};
};

}  // namespace warpreg

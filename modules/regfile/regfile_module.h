#pragma once
// The register file as a TLM target: banks, lane slices and the bank arbiter
// (RegFileCore) with their timing and energy. Reads and writes carry one warp
// register; other transaction kinds are accepted and ignored by the baseline.
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <optional>
#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/interfaces/direct_transport.h"
#include "modules/interfaces/reporting_block.h"
#include "modules/interfaces/rf_access.h"
#include "modules/interfaces/waveform.h"
#include "modules/regfile/regfile_core.h"
#include "modules/regfile/regfile_technology.h"
#include "modules/regfile/storage_power_map.h"
#include "power/energy.h"

namespace warpreg {

class Params;

/// The register file's parameters (rf.*); its capacity is the SM's sm.registers.
struct RegFileParams : ParamSet {
  explicit RegFileParams(const Params* values = nullptr) : ParamSet("rf", values) {}
  Param<uint32_t> banks{this,
                        "banks",
                        16,
                        {1, 256},
                        "banks",
                        "Register banks; each bank holds sm.registers/32/rf.banks warp registers.",
                        "seed 002 Table 3 (16 banks x 128 B); seed 001 uses 4 groups of 8 x 16 B"};
  Param<uint32_t> lane_slices{
      this,
      "lane_slices",
      1,
      {1, 32},
      "slices",
      "Lane slices per bank: a bank entry of 128 B is split into slices of 128/S bytes that are "
      "accessed (and counted) separately. 8 slices of 16 B = Warped-Compression's 8 consecutive "
      "16-byte banks.",
      "seed 001 §5 (S=8), baseline S=1"};
  Choice<BankMapping> bank_mapping{
      this,
      "bank_mapping",
      BankMapping::Gpgpusim,
      {{"gpgpusim", BankMapping::Gpgpusim}, {"interleaved", BankMapping::Interleaved}},
      "Bank of a warp register: gpgpusim = (arch_reg + warp_slot) mod B; interleaved = "
      "physical register mod B.",
      "GPGPU-Sim 3.x register_bank()"};
  Param<uint32_t> physical_registers{
      this,
      "physical_registers",
      0,
      {0, 1 << 17},
      "warp registers",
      "Physical warp registers (32 lanes x 32 bits each) in the banks; 0: as many as "
      "sm.registers names (sm.registers / 32). Fewer than that needs a name-translation stage "
      "(RFV's GPU-shrink: 512 for 64 KB).",
      "seed 000 §8.1: GPU-shrink keeps the architected 128 KB for the compiler and the CTA limit "
      "but has 64 KB (512 warp registers) of physical registers"};
  Param<uint32_t> read_latency{this,     "read_latency",       1,     {1, 64},
                               "cycles", "Bank read latency.", kFermi};
  Param<uint32_t> write_latency{this,     "write_latency",       1,     {1, 64},
                                "cycles", "Bank write latency.", kFermi};

 private:
  static constexpr const char* kFermi =
      "GPGPU-Sim 3.x GTX480 (Fermi) configuration; seeds 000-004 baseline";
};

/// What the register file reports besides energy (stats.json blocks.regfile).
struct RegFileStats : StatSet {
  RegFileStats() : StatSet("regfile") {}
  Statistic<uint64_t> reads{this, "reads", "accesses", "Warp-register reads served by the banks."};
  Statistic<uint64_t> writes{this, "writes", "accesses", "Warp-register writes served."};
  Statistic<uint64_t> conflicted_reads{
      this, "conflicted_reads", "accesses",
      "Reads not served in the cycle they asked for: a read port of a bank slice was taken."};
  Statistic<uint64_t> conflict_cycles{this, "conflict_cycles", "cycles",
                                      "Sum of the cycles those reads waited for a port."};
  Statistic<uint64_t> conflicted_writes{this, "conflicted_writes", "accesses",
                                        "Writes that waited for a write port."};
  Statistic<std::vector<uint64_t>> bank_accesses{this, "bank_accesses", "accesses per bank",
                                                 "Reads plus writes each bank served."};
  Statistic<std::string> technology{
      this, "technology", "design",
      "The design that stated the register file's technology (LTRF's main RF configuration; "
      "empty: the machine's own)."};
  Statistic<std::vector<std::string>> power_controllers{
      this, "power_controllers", "blocks",
      "Designs' blocks that set the cells' power states; the cells' residency is then in "
      "residency.cells."};
};

class RegisterFileModule : public sc_core::sc_module, public ReportingBlock, public TracedBlock {
 public:
  tlm_utils::simple_target_socket<RegisterFileModule> socket;

  /// Throws ConfigError when the parameters describe no valid register file. `technology`:
  /// what a design states about the cells on top of rf.* (banks, latency, energy).
  RegisterFileModule(sc_core::sc_module_name name, const Params& params,
                     const power::TechTable& tech, const CycleClock& clock,
                     const RegFileTechnology& technology = {});

  static RegFileConfig config_from(const Params& params, const RegFileTechnology& technology = {});

  RegFileCore& core() { return core_; }
  const RegFileCore& core() const { return core_; }

  /// What b_transport does for `a`, an access its initiator made itself (well formed,
  /// at `cycle` of this clock): sets `ready` to the cycle the access completes and
  /// returns true, or returns false having done nothing when the access needs
  /// b_transport (a physical register beyond the file, or debug logging). For an
  /// initiator bound straight to the banks (DMI-like: SmModule::use_direct_banks).
  bool serve_direct(const RfAccess& a, WarpRegister* data, uint64_t cycle, uint64_t& ready) {
    if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) {
      ready = cycle;  // accepted and ignored
      return true;
    }
    if (a.phys_reg >= core_.config().physical_registers() || log_verbosity_ >= sc_core::SC_DEBUG)
      return false;
    ready = serve(a, *data, cycle).ready_cycle;
    return true;
  }

  /// serve_direct for `payload`, whose RfAccess `a` the caller has checked
  /// (checked_rf_access), at `cycle` of this clock, answering OK when served: for the
  /// stage bound straight to the banks (DirectTransport::serve). `ready` is the cycle
  /// b_transport's delay would name.
  bool serve_at(tlm::tlm_generic_payload& payload, const RfAccess& a, uint64_t cycle,
                uint64_t& ready) {
    if (!serve_direct(a, reinterpret_cast<WarpRegister*>(payload.get_data_ptr()), cycle, ready))
      return false;
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }

  /// What a transaction on `socket` reaches, without the socket (for the stage bound to
  /// it: OperandStage::forward_directly).
  DirectTransport direct() {
    DirectTransport d;
    d.object = this;
    d.call = [](void* banks, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
      static_cast<RegisterFileModule*>(banks)->b_transport(payload, delay);
    };
    d.call_checked = [](void* banks, tlm::tlm_generic_payload& payload, RfAccess& a,
                        sc_core::sc_time& delay) {
      static_cast<RegisterFileModule*>(banks)->transport(payload, a, delay);
    };
    d.serve = [](void* banks, tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                 uint64_t& ready) {
      return static_cast<RegisterFileModule*>(banks)->serve_at(payload, a, cycle, ready);
    };
    d.ticks_per_cycle = clock_.ticks_per_cycle();
    return d;
  }

  std::string block_name() const override { return "regfile"; }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;

  /// The cells' power states as the designs' power controllers set them; the module
  /// accounts their leakage (per cell) as soon as one controller is registered.
  StoragePower& storage_power() { return power_map_; }
  const StoragePowerMap& power_map() const { return power_map_; }

  const power::EnergyAccount* energy_account() const override { return &energy_; }

  /// Waveform: per bank, accesses granted in the cycle; per bank (per bank and lane
  /// slice when the file has several) the cells' power state as the designs' controllers
  /// set it (WaveState codes); per bank and in all, the cells not ON.
  void add_signals(Waveform& wave) override;

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  /// b_transport for a payload whose RfAccess `a` is checked (checked_rf_access).
  void transport(tlm::tlm_generic_payload& payload, const RfAccess& a, sc_core::sc_time& delay);
  /// A read or write of a physical register in the file at `cycle`, counted.
  BankGrant serve(const RfAccess& a, WarpRegister& data, uint64_t cycle);
  void note_activity(uint32_t bank, uint64_t cycle);

  CycleClock clock_;
  RegFileTechnology technology_;
  RegFileCore core_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId slice_reads_, slice_writes_, arbiter_requests_, conflicts_;
  power::EnergyAccount::GroupId banks_;
  StoragePowerMap power_map_;
  RegFileStats stats_;
  std::optional<power::EnergyAccount::GroupId> cells_;  ///< once a controller is registered
  double cell_on_mw_ = 0;  ///< leakage of one ON cell (one lane slice of one entry)
  int log_verbosity_;      ///< --log regfile=LEVEL: debug shows every access

  /// The state of bank `bank`'s slice `slice` (all its cells', or Mixed).
  WaveState column_state(uint32_t bank, uint32_t slice) const;

  static constexpr uint32_t kTraceWindow = 64;  ///< cycles ahead a grant may be traced
  std::vector<uint8_t> activity_;               ///< per (cycle mod window, bank): grants
};

}  // namespace warpreg

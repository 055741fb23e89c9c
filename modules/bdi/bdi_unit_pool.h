#pragma once
// What Warped-Compression's compressor and decompressor blocks share (seed 001 §5.1,
// Tables 2-3): a pool of pipelined units behind one TLM-2.0 target socket, with its
// latency, queueing, counters and energy.
//
// The codec protocol. A transaction carries one 128-byte warp register in its data
// buffer (data length 128) and a BdiImage extension naming the encoding of an image:
//   compressor:   buffer = the register        -> buffer = its image, BdiImage = encoding
//   decompressor: buffer = an image, BdiImage  -> buffer = the register
// The image of encoding e fills the first e.banks() x 16 bytes of the buffer (the rest
// zero); an uncompressed register is its own image. A unit starts in the cycle the
// annotated delay names (or later, when every unit is busy in that cycle); the delay
// grows by the cycles it waited plus the latency. Answers:
// TLM_GENERIC_ERROR_RESPONSE without the BdiImage extension (or, at a decompressor,
// with an encoding BDI does not have), TLM_BURST_ERROR_RESPONSE for a data length
// other than 128 bytes; either leaves the buffer, the delay and the units untouched.
#include <tlm_utils/simple_target_socket.h>

#include <string>
#include <systemc>
#include <tlm>

#include "common/cycle_clock.h"
#include "common/param_set.h"
#include "common/stat_set.h"
#include "modules/bdi/bdi_core.h"
#include "modules/bdi/unit_pool.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/reporting_block.h"
#include "power/energy.h"

namespace warpreg {

/// The encoding of the image in a codec transaction's buffer.
class BdiImage : public tlm::tlm_extension<BdiImage> {
 public:
  bdi::Encoding encoding = bdi::kUncompressed;

  tlm::tlm_extension_base* clone() const override { return new BdiImage(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const BdiImage&>(other);
  }
};

/// A codec payload with its BdiImage attached once and reused: nothing is allocated
/// per access.
class BdiTransaction {
 public:
  BdiTransaction() { payload_.set_extension(&image_); }
  ~BdiTransaction() { payload_.clear_extension(&image_); }
  BdiTransaction(const BdiTransaction&) = delete;
  BdiTransaction& operator=(const BdiTransaction&) = delete;

  /// A compression of `buffer` (encoding ignored) or a decompression of the image of
  /// `encoding` in `buffer`; the unit rewrites `buffer` in place.
  tlm::tlm_generic_payload& prepare(WarpRegister& buffer,
                                    bdi::Encoding encoding = bdi::kUncompressed) {
    image_.encoding = encoding;
    payload_.set_command(tlm::TLM_WRITE_COMMAND);
    payload_.set_address(0);
    payload_.set_data_ptr(buffer.bytes());
    payload_.set_data_length(kWarpRegisterBytes);
    payload_.set_streaming_width(kWarpRegisterBytes);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return payload_;
  }
  bdi::Encoding encoding() const { return image_.encoding; }
  tlm::tlm_generic_payload& payload() { return payload_; }

 private:
  tlm::tlm_generic_payload payload_;
  BdiImage image_;
};

/// wc.unit_energy_scale: read by both unit pools.
struct BdiUnitEnergyParams : ParamSet {
  explicit BdiUnitEnergyParams(const Params* values = nullptr) : ParamSet("wc", values) {}
  Param<double> unit_energy_scale{
      this,
      "unit_energy_scale",
      1.0,
      {0, 100},
      "factor",
      "Multiplies the compressor and decompressor activation energy of the technology table "
      "(1.5, 2.0, 2.5 in Figure 17).",
      "seed 001 §6.7, Figure 17 (1.0 = Table 3)"};
};

/// The statistics of a unit pool, under the block's hierarchical name.
struct BdiUnitPoolStats : StatSet {
  explicit BdiUnitPoolStats(std::string block) : StatSet(std::move(block)) {}
  Statistic<uint64_t> units{this, "units", "units",
                            "Units in the pool, each pipelined: one register per cycle.",
                            StatSet::Combine::Mean};
  Counter activations{this, "activations", "registers", "Operations the units performed."};
  Counter contended{this, "contended", "registers",
                    "Operations that found every unit busy in their cycle and waited."};
  Counter wait_cycles{this, "wait_cycles", "cycles", "Cycles operations waited for a unit."};
};

/// The pool of one kind of unit; BdiCompressor and BdiDecompressor say what a unit does.
class BdiUnitPool : public sc_core::sc_module, public ReportingBlock {
 public:
  tlm_utils::simple_target_socket<BdiUnitPool> target;

  /// What the pool is, for its energy account and describe().
  struct Kind {
    const char* operations;   ///< event name: "compressions"
    const char* description;  ///< what one operation is
    const char* activation;   ///< technology key of one operation's energy
    const char* leakage;      ///< technology key of one unit's leakage
  };

  /// What b_transport does once its checks have passed: `data` through a unit at the
  /// cycle `delay` names, `delay` moved on by the wait and the latency. For the block
  /// that owns the pool and only asks for what it accepts (WC's stage, whose images come
  /// from the compressor's own codec): no payload, extension lookup or checks per call.
  void carry(WarpRegister& data, BdiImage& image, sc_core::sc_time& delay);
  /// carry() at `cycle`, without a delay: returns the cycle the result is ready.
  uint64_t carry_at(WarpRegister& data, BdiImage& image, uint64_t cycle) {
    const uint64_t start = pool_.acquire(cycle);
    energy_.count(operations_);
    operate(data, image);
    return start + latency_;
  }

  const bdi::UnitPool& units() const { return pool_; }
  uint32_t latency() const { return latency_; }
  const power::EnergyAccount& energy() const { return energy_; }

  // ReportingBlock
  std::string block_name() const override { return name(); }
  const StatSet* statistics() const override { return &stats_; }
  nlohmann::json stats(uint64_t end_cycle) override;
  nlohmann::json describe() const override;
  const power::EnergyAccount* energy_account() const override { return &energy_; }

 protected:
  /// Throws TechError naming the block when the technology lacks its coefficients.
  BdiUnitPool(sc_core::sc_module_name name, const DesignContext& context, const Kind& kind,
              uint32_t units, uint32_t latency);
  /// False for an image the unit cannot take (answered TLM_GENERIC_ERROR_RESPONSE).
  virtual bool accepts(const BdiImage&) const { return true; }
  /// One unit's work on `data`, in place.
  virtual void operate(WarpRegister& data, BdiImage& image) = 0;
  /// describe()'s "organisation" and "parameters" (the block's own set, by short name).
  virtual nlohmann::json organisation() const = 0;
  virtual nlohmann::json parameters() const = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  CycleClock clock_;
  sc_core::sc_time period_;  ///< one cycle, for delay arithmetic without library calls
  bdi::UnitPool pool_;
  uint32_t latency_;
  double energy_scale_;
  BdiUnitPoolStats stats_;
  power::EnergyAccount energy_;
  power::EnergyAccount::EventId operations_;
};

}  // namespace warpreg

#include "designs/wc/wc_stage.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/bits.h"
#include "common/params.h"

namespace warpreg {

namespace {

constexpr unsigned kFlitBytes = 16;  // 128-bit wires, as the crossbar

WARPREG_REGISTER_STATS(WcStageStats);

/// Lanes whose bytes hold the first `banks` 16-byte chunks of an image.
LaneMask image_lanes(unsigned banks) {
  const unsigned lanes = banks * bdi::kBankBytes / 4;
  return lanes >= kWarpSize ? kFullMask : (1u << lanes) - 1u;
}

}  // namespace

bdi::WcStateConfig WcStage::state_config(const WcStageParams& params,
                                         const RegFileGeometry& geometry) {
  bdi::WcStateConfig c;
  c.physical_registers = geometry.physical_registers();
  c.banks = geometry.banks;
  c.lane_slices = geometry.lane_slices;
  c.entries_per_bank = geometry.entries_per_bank;
  c.gating = params.bank_gating;
  c.wakeup_latency = params.wakeup_latency;
  return c;
}

WcStage::WcStage(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name),
      compress_socket("compress"),
      decompress_socket("decompress"),
      params_(&context.params),
      geometry_(context.regfile),
      clock_(context.clock),
      // power.* has no typed parameter set: the crossbar reads the same key.
      wire_mm_(context.params.real("power.wire_mm")),
      compressor_("bdi_compressor", context),
      decompressor_("bdi_decompressor", context),
      state_(state_config(params_, geometry_)),
      storage_power_(context.storage_power),
      contents_(geometry_.physical_registers()),
      energy_(this->name(), context.clock.ns_per_cycle()) {
  const std::string block = this->name();
  const power::TechTable& tech = context.tech;
  // The range-indicator table is an SRAM of indicator_bits per physical register: the
  // table's coefficient (reading access_bytes of an array_bytes array) is carried to
  // this table by rule S3 of docs/power.md, linear in the bits read and with the
  // square root of the capacity.
  const char* const indicator_key = "range_indicator_access";
  const double indicator_bytes = codec().indicator_bits() / 8.0;
  const double table_bytes = geometry_.physical_registers() * indicator_bytes;
  const double indicator_pj = tech.value_for(block, indicator_key) * indicator_bytes /
                              tech.attribute(indicator_key, "access_bytes") *
                              std::sqrt(table_bytes / tech.attribute(indicator_key, "array_bytes"));
  indicator_reads_ = energy_.add_event(
      "indicator_reads", "range-indicator reads, in parallel with bank arbitration", indicator_pj);
  indicator_writes_ =
      energy_.add_event("indicator_writes", "range-indicator updates at writeback", indicator_pj);
  const double flit_pj = tech.value_for(block, "crossbar_transfer") * kFlitBytes /
                         tech.attribute("crossbar_transfer", "transfer_bytes") * wire_mm_;
  mov_flits_ = energy_.add_event(
      "mov_flits", "128-bit wire transfers of dummy MOVs (banks -> decompressor -> banks)",
      flit_pj);
  if (params_.bank_gating) {
    // The register file accounts the cells; this stage says which bank columns are
    // gated. Nothing is valid before the first write: every column starts gated.
    StoragePower::Fractions fractions;
    fractions.of[static_cast<unsigned>(power::PowerState::Gated)] =
        tech.value_for(block, "rf_gated_leakage_fraction");
    controller_ = storage_power_.add_controller(block, fractions, power::PowerState::On);
    const uint32_t all_slices = state_.slices_of(kFullMask);
    for (uint32_t bank = 0; bank < geometry_.banks; ++bank)
      storage_power_.set_bank(controller_, bank, all_slices, power::PowerState::Gated, 0);
    state_.set_listener(this);
  }
  compress_socket.bind(compressor_.target);
  decompress_socket.bind(decompressor_.target);
}

void WcStage::set_column(uint32_t column, power::PowerState state, uint64_t cycle) {
  const uint32_t slices = geometry_.lane_slices;
  storage_power_.set_bank(controller_, column / slices, 1u << (column % slices), state, cycle);
}

void WcStage::column_gated(uint32_t column, uint64_t cycle) {
  set_column(column, power::PowerState::Gated, cycle);
}

void WcStage::column_woken(uint32_t column, uint64_t cycle) {
  set_column(column, power::PowerState::On, cycle);
}

uint64_t WcStage::through_codec(BdiUnitPool& unit, WarpRegister& buffer, bdi::Encoding& encoding,
                                uint64_t cycle) {
  codec_image_.encoding = encoding;
  const uint64_t ready = unit.carry_at(buffer, codec_image_, cycle);
  encoding = codec_image_.encoding;
  return ready;
}

DirectTransport WcStage::direct() { return serving_at<WcStage>(OperandStage::direct(), clock_); }

bool WcStage::serve_at(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle,
                       uint64_t& ready) {
  if (a.kind != RfAccessKind::Read && a.kind != RfAccessKind::Write) return false;
  if (a.phys_reg >= geometry_.physical_registers()) return false;
  ready = a.kind == RfAccessKind::Read ? read(payload, a, cycle) : write(payload, a, cycle);
  return true;
}

void WcStage::transport(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  const uint32_t registers = geometry_.physical_registers();
  switch (a.kind) {
    case RfAccessKind::Read:
    case RfAccessKind::Write:
      if (a.phys_reg >= registers) {
        refuse(payload, tlm::TLM_ADDRESS_ERROR_RESPONSE, *this,
               "physical register beyond the register file's");
        return;
      }
      {
        const uint64_t cycle = clock_.cycle_at(delay);
        const uint64_t ready =
            a.kind == RfAccessKind::Read ? read(payload, a, cycle) : write(payload, a, cycle);
        if (payload.is_response_ok()) clock_.complete_at(delay, ready);
      }
      return;
    case RfAccessKind::Launch:
    case RfAccessKind::Retire:
      // Physical registers [phys_reg, phys_reg + regs_per_warp) become allocated or free;
      // a range reaching past the register file is the stages downstream's to refuse.
      if (a.phys_reg < registers) {
        const uint32_t count = std::min(a.regs_per_warp, registers - a.phys_reg);
        const uint64_t cycle = clock_.cycle_at(delay);
        if (a.kind == RfAccessKind::Launch)
          state_.allocate(count, cycle);
        else
          state_.release(a.phys_reg, count, cycle);
      }
      break;
    default:
      break;
  }
  forward(payload, a, delay);
}

uint64_t WcStage::read(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle) {
  const uint32_t bank = bank_of(a);
  ++stats_.reads;
  energy_.count(indicator_reads_);
  const uint8_t code = state_.indicator(a.phys_reg);
  if (code == 0) {
    // Only valid entries hold data; the others' lanes were never written (or their
    // bank is gated), so the arbiter does not read them.
    const uint32_t slices = state_.valid_slices(a.phys_reg) & state_.slices_of(a.read_lanes);
    a.read_lanes &= state_.lanes_of(slices);
    const uint64_t ready = send_at(payload, a, clock_, state_.ready_at(bank, slices, cycle));
    payload.set_data_length(popcount32(slices) * geometry_.slice_bytes());
    return ready;
  }
  // The image's slices land in the collector's buffer, which the decompressor then
  // turns into the register in place.
  bdi::Encoding encoding = codec().encoding_of(code);
  const LaneMask lanes = image_lanes(encoding.banks());
  a.read_lanes = lanes;
  const uint64_t read =
      send_at(payload, a, clock_, state_.ready_at(bank, state_.slices_of(lanes), cycle));
  if (payload.is_response_error()) return read;
  ++stats_.compressed_reads;
  const uint64_t ready = through_codec(decompressor_, register_of(payload), encoding, read);
  // What crossed the banks-to-collector wires: the crossbar charges these bytes.
  payload.set_data_length(encoding.banks() * bdi::kBankBytes);
  return ready;
}

tlm::tlm_response_status WcStage::dummy_mov(const RfAccess& a, uint32_t bank, uint64_t& cycle) {
  bdi::Encoding encoding = codec().encoding_of(state_.indicator(a.phys_reg));
  const LaneMask lanes = image_lanes(encoding.banks());
  ++stats_.dummy_movs;
  // The MOV's read: the compressed slices into the image buffer.
  tlm::tlm_generic_payload& read = mov_.prepare(RfAccessKind::Read, &image_);
  RfAccess& m = mov_.access();
  m.warp_slot = a.warp_slot;
  m.cta_slot = a.cta_slot;
  m.arch_reg = a.arch_reg;
  m.phys_reg = a.phys_reg;
  m.pc = a.pc;
  m.active_mask = kFullMask;
  m.read_lanes = lanes;
  energy_.count(indicator_reads_);
  const uint64_t read_ready =
      send_at(read, m, clock_, state_.ready_at(bank, state_.slices_of(lanes), cycle));
  if (read.is_response_error()) return read.get_response_status();
  const uint64_t ready = through_codec(decompressor_, image_, encoding, read_ready);
  // Its write: the whole register, uncompressed.
  const uint64_t awake = state_.set_valid(a.phys_reg, bank, state_.slices_of(kFullMask), cycle);
  if (awake > ready) wakeup_stall_cycles_ += awake - ready;
  const uint64_t start = std::max(ready, awake);
  // prepare() resets the physical register: a write without it would go nowhere.
  tlm::tlm_generic_payload& write = mov_.prepare(RfAccessKind::Write, &image_);
  m.phys_reg = a.phys_reg;
  m.active_mask = kFullMask;
  send_at(write, m, clock_, start);
  state_.set_indicator(a.phys_reg, 0, cycle);
  energy_.count(indicator_writes_);
  energy_.count(mov_flits_, encoding.banks() + kWarpRegisterBytes / kFlitBytes);
  cycle = start;
  return write.is_response_error() ? write.get_response_status() : tlm::TLM_OK_RESPONSE;
}

uint64_t WcStage::write(tlm::tlm_generic_payload& payload, RfAccess& a, uint64_t cycle) {
  const uint32_t bank = bank_of(a);
  const uint32_t phys = a.phys_reg;
  const WarpRegister& value = register_of(payload);
  ++stats_.writes;
  energy_.count(indicator_writes_);
  if (a.active_mask != kFullMask) {
    // Divergent: stored uncompressed, after a dummy MOV if the register is compressed.
    ++stats_.divergent_writes;
    uint64_t start = cycle;
    if (state_.indicator(phys) != 0) {
      const tlm::tlm_response_status status = dummy_mov(a, bank, start);
      if (status != tlm::TLM_OK_RESPONSE) {
        payload.set_response_status(status);
        return cycle;
      }
    }
    contents_[phys].merge(value, a.active_mask);
    // Figure 2 bins the register the write leaves: its new lanes beside the kept ones.
    count_similarity(contents_[phys], true);
    ratio_bytes_[1].add(codec().select(contents_[phys]));
    const uint32_t slices = state_.slices_of(a.active_mask);
    const uint64_t awake = state_.add_valid(phys, bank, slices, cycle);
    if (awake > start) wakeup_stall_cycles_ += awake - start;
    const uint64_t ready = send_at(payload, a, clock_, std::max(start, awake));
    payload.set_data_length(popcount32(slices) * geometry_.slice_bytes());
    return ready;
  }
  count_similarity(value, false);
  contents_[phys] = value;
  image_ = value;
  bdi::Encoding encoding;
  const uint64_t compressed_at = through_codec(compressor_, image_, encoding, cycle);
  const uint8_t code = codec().indicator_of(encoding);
  ++writes_by_indicator_[code];
  ratio_bytes_[0].add(encoding);
  const LaneMask lanes = image_lanes(encoding.banks());
  const uint64_t awake = state_.set_valid(phys, bank, state_.slices_of(lanes), cycle);
  if (awake > compressed_at) wakeup_stall_cycles_ += awake - compressed_at;
  state_.set_indicator(phys, code, cycle);
  // The banks get the image (an uncompressed register is its own image) in its lanes.
  unsigned char* data = payload.get_data_ptr();
  payload.set_data_ptr(image_.bytes());
  a.active_mask = lanes;
  const uint64_t ready = send_at(payload, a, clock_, std::max(compressed_at, awake));
  payload.set_data_ptr(data);
  a.active_mask = kFullMask;
  payload.set_data_length(encoding.banks() * bdi::kBankBytes);
  return ready;
}

std::array<uint32_t, 4> WcStage::similarity_bins(const WarpRegister& value) {
  // Counted by threshold without a branch per lane, in 32-bit arithmetic: x is the
  // difference modulo 2^32, exact unless the subtraction overflows, and then the
  // distance is at least 2^31, beyond every threshold. |d| > t as one unsigned
  // comparison: d + t wraps below zero to beyond 2t.
  unsigned above_0 = 0, above_128 = 0, above_32768 = 0;
  for (unsigned i = 1; i < kWarpSize; ++i) {
    const uint32_t a = value.lane[i], b = value.lane[i - 1];
    const uint32_t x = a - b;
    const uint32_t overflow = ((a ^ b) & (a ^ x)) >> 31;
    above_0 += x != 0;
    above_128 += uint32_t(x + 128u > 256u) | overflow;
    above_32768 += uint32_t(x + 32768u > 65536u) | overflow;
  }
  return {kWarpSize - 1 - above_0, above_0 - above_128, above_128 - above_32768, above_32768};
}

void WcStage::count_similarity(const WarpRegister& value, bool divergent) {
  auto& bins = similarity_[divergent ? 1 : 0];
  const std::array<uint32_t, 4> counts = similarity_bins(value);
  for (unsigned k = 0; k < 4; ++k) bins[k] += counts[k];
}

nlohmann::json WcStage::stats(uint64_t end_cycle) {
  energy_.finish(end_cycle);
  nlohmann::json j = energy_.to_json();
  const bdi::Codec& codec = this->codec();
  const uint64_t regs = geometry_.physical_registers();
  stats_.storage_bits.set(regs * codec.indicator_bits() + regs * geometry_.lane_slices);
  nlohmann::json by_encoding = nlohmann::json::object();
  by_encoding["uncompressed"] = writes_by_indicator_[0];
  for (size_t i = 0; i < codec.choices().size(); ++i)
    by_encoding[codec.choices()[i].name()] = writes_by_indicator_[i + 1];
  stats_.writes_by_encoding.set(by_encoding);
  // A ratio without a denominator (no divergent write, say) is null, so that the
  // sweep's results.csv leaves it empty and means skip it.
  const auto ratio = [](uint64_t a, uint64_t b) {
    return b ? nlohmann::json(double(a) / double(b)) : nlohmann::json();
  };
  const uint64_t full_writes = stats_.writes - stats_.divergent_writes;
  // Figure 5's shares, keyed base4_delta1 etc. so that they make plain CSV columns.
  nlohmann::json encoding_share = nlohmann::json::object();
  encoding_share["uncompressed"] = ratio(writes_by_indicator_[0], full_writes);
  for (size_t i = 0; i < codec.choices().size(); ++i) {
    const bdi::Encoding e = codec.choices()[i];
    encoding_share["base" + std::to_string(e.base) + "_delta" + std::to_string(e.delta)] =
        ratio(writes_by_indicator_[i + 1], full_writes);
  }
  stats_.encoding_share.set(encoding_share);
  stats_.divergent_instruction_share.set(ratio(divergent_instructions_, stats_.warp_instructions));
  stats_.dummy_mov_share.set(ratio(stats_.dummy_movs, stats_.warp_instructions));
  const RatioBytes& full = ratio_bytes_[0];
  const RatioBytes& divergent = ratio_bytes_[1];
  stats_.compression_ratio.set(
      {{"non_divergent", ratio(full.original, full.compressed)},
       {"divergent_if_compressed", ratio(divergent.original, divergent.compressed)}});
  stats_.compression_ratio_banks.set(
      {{"non_divergent", ratio(full.original, full.banked)},
       {"divergent_if_compressed", ratio(divergent.original, divergent.banked)}});
  const auto bins = [](const std::array<uint64_t, 4>& b) {
    return nlohmann::json{{"zero", b[0]}, {"le_128", b[1]}, {"le_32k", b[2]}, {"random", b[3]}};
  };
  stats_.similarity.set(
      {{"non_divergent", bins(similarity_[0])}, {"divergent", bins(similarity_[1])}});
  const auto shares = [&ratio](const std::array<uint64_t, 4>& b) {
    const uint64_t n = b[0] + b[1] + b[2] + b[3];
    return nlohmann::json{{"zero", ratio(b[0], n)},
                          {"le_128", ratio(b[1], n)},
                          {"le_32k", ratio(b[2], n)},
                          {"random", ratio(b[3], n)}};
  };
  stats_.similarity_share.set(
      {{"non_divergent", shares(similarity_[0])}, {"divergent", shares(similarity_[1])}});
  stats_.compressed_register_share.set(ratio(state_.compressed_register_cycles(end_cycle),
                                             state_.allocated_register_cycles(end_cycle)));
  const std::vector<uint64_t> gated = state_.gated_cycles(end_cycle);
  uint64_t gated_total = 0;
  nlohmann::json fraction = nlohmann::json::array();
  for (uint64_t g : gated) {
    gated_total += g;
    fraction.push_back(ratio(g, end_cycle));
  }
  // Figure 10 by position in the register's eight 16-byte banks, averaged over banks.
  nlohmann::json by_slice = nlohmann::json::object();
  const uint32_t slices = geometry_.lane_slices;
  for (uint32_t s = 0; s < slices; ++s) {
    uint64_t sum = 0;
    for (uint32_t b = 0; b < geometry_.banks; ++b) sum += gated[b * slices + s];
    by_slice["slice" + std::to_string(s)] = ratio(sum, uint64_t(geometry_.banks) * end_cycle);
  }
  stats_.bank_gating.set(
      {{"enabled", params_.bank_gating.get()},
       {"banks", state_.columns()},
       {"wakeups", state_.wakeups()},
       {"gate_events", state_.gate_events()},
       {"wakeup_stall_cycles", wakeup_stall_cycles_},
       {"gated_cycles_per_bank", gated},
       {"gated_fraction_per_bank", fraction},
       {"gated_fraction", ratio(gated_total, uint64_t(gated.size()) * end_cycle)},
       {"gated_fraction_by_slice", by_slice}});
  stats_.write(j);
  return j;
}

nlohmann::json WcStage::describe() const {
  const bdi::Codec& codec = this->codec();
  const uint64_t regs = geometry_.physical_registers();
  nlohmann::json choices = nlohmann::json::array();
  for (size_t i = 0; i < codec.choices().size(); ++i) {
    const bdi::Encoding e = codec.choices()[i];
    choices.push_back(
        {{"indicator", i + 1}, {"encoding", e.name()}, {"bytes", e.bytes()}, {"banks", e.banks()}});
  }
  choices.push_back({{"indicator", 0},
                     {"encoding", "uncompressed"},
                     {"bytes", kWarpRegisterBytes},
                     {"banks", bdi::kUncompressedBanks}});
  nlohmann::json parameters = params_.to_json();
  parameters["power.wire_mm"] = wire_mm_;
  return {{"storage_bits",
           {{"range_indicators", regs * codec.indicator_bits()},
            {"valid_bits", regs * geometry_.lane_slices}}},
          {"organisation",
           {{"range_indicator_bits_per_register", codec.indicator_bits()},
            {"physical_warp_registers", regs},
            {"gated_banks", state_.columns()},
            {"bank_bytes", geometry_.slice_bytes()},
            {"encodings", choices},
            {"blocks", {compressor_.name(), decompressor_.name()}}}},
          {"ports",
           {{"target", "operand path from the collectors' side (RfAccess payloads)"},
            {"initiator", "operand path towards the banks: images with narrowed lane masks"},
            {"compress", std::string("codec socket to ") + compressor_.name()},
            {"decompress", std::string("codec socket to ") + decompressor_.name()},
            {"range_indicator", "read with every bank arbitration request, written at writeback"},
            {"storage_power", "sets bank columns on or gated (StoragePower::set_bank)"}}},
          {"latency_cycles", {{"bank_wakeup", params_.wakeup_latency.get()}}},
          {"parameters", parameters},
          {"energy", energy_.describe()}};
}

}  // namespace warpreg

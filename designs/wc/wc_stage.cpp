#include "designs/wc/wc_stage.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "common/errors.h"
#include "common/params.h"
#include "modules/regfile/regfile_module.h"
#include "power/tech_scaling.h"

namespace warpreg {

namespace {

constexpr unsigned kFlitBytes = 16;  // 128-bit wires, as the crossbar

/// Lanes whose bytes hold the first `banks` 16-byte chunks of an image.
LaneMask image_lanes(unsigned banks) {
  const unsigned lanes = banks * bdi::kBankBytes / 4;
  return lanes >= kWarpSize ? kFullMask : (1u << lanes) - 1u;
}

}  // namespace

WcStageConfig WcStageConfig::from(const Params& p) {
  WcStageConfig c;
  try {
    c.variant = bdi::variant_from_string(p.text("wc.variant"));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("wc.variant: ") + e.what());
  }
  c.compressors = static_cast<uint32_t>(p.integer("wc.compressors"));
  c.decompressors = static_cast<uint32_t>(p.integer("wc.decompressors"));
  c.compress_latency = static_cast<uint32_t>(p.integer("wc.compress_latency"));
  c.decompress_latency = static_cast<uint32_t>(p.integer("wc.decompress_latency"));
  c.unit_energy_scale = p.real("wc.unit_energy_scale");
  c.wire_mm = p.real("power.wire_mm");
  const RegFileConfig rf = RegisterFileModule::config_from(p);
  c.state.physical_registers = rf.physical_registers();
  c.state.banks = rf.banks;
  c.state.lane_slices = rf.lane_slices;
  c.state.entries_per_bank = rf.entries_per_bank;
  c.state.gating = p.flag("wc.bank_gating");
  c.state.wakeup_latency = static_cast<uint32_t>(p.integer("wc.wakeup_latency"));
  c.gpgpusim_mapping = rf.mapping == BankMapping::Gpgpusim;
  return c;
}

WcStage::WcStage(sc_core::sc_module_name name, const WcStageConfig& config,
                 const power::TechTable& tech, const CycleClock& clock)
    : OperandStage(name),
      config_(config),
      clock_(clock),
      codec_(config.variant),
      state_(config.state),
      compressors_(config.compressors),
      decompressors_(config.decompressors),
      contents_(config.state.physical_registers),
      energy_("wc", clock.ns_per_cycle()) {
  compress_ = energy_.add_event("compressions",
                                "compressor activations (every non-divergent register write)",
                                tech.value("compressor_activation") * config_.unit_energy_scale);
  decompress_ = energy_.add_event(
      "decompressions", "decompressor activations (reads of compressed registers, dummy MOVs)",
      tech.value("decompressor_activation") * config_.unit_energy_scale);
  indicator_reads_ =
      energy_.add_event("indicator_reads",
                        "range-indicator reads, in parallel with bank arbitration (no seed "
                        "value: 0 pJ, counted)",
                        0.0);
  indicator_writes_ = energy_.add_event(
      "indicator_writes", "range-indicator updates at writeback (0 pJ, counted)", 0.0);
  mov_flits_ = energy_.add_event(
      "mov_flits", "128-bit wire transfers of dummy MOVs (banks -> decompressor -> banks)",
      power::scaled(tech, "crossbar_transfer", "transfer_bytes", kFlitBytes) * config_.wire_mm);
  const double c_mw[power::kPowerStateCount] = {tech.value("compressor_leakage"), 0, 0, 0};
  const double d_mw[power::kPowerStateCount] = {tech.value("decompressor_leakage"), 0, 0, 0};
  compressor_units_ = energy_.add_residency("compressors", "compression units", config_.compressors,
                                            power::PowerState::On, c_mw);
  decompressor_units_ = energy_.add_residency("decompressors", "decompression units",
                                              config_.decompressors, power::PowerState::On, d_mw);
  // The register file's banks, one residency group per 16-byte bank (bank, slice):
  // the same leakage per byte as RegisterFileModule's banks, which report none
  // while this stage owns their leakage.
  const double column_bytes =
      double(config_.state.entries_per_bank) * kWarpRegisterBytes / config_.state.lane_slices;
  bank_leakage_mw_ = power::scaled(tech, "rf_bank_leakage", "bank_bytes", column_bytes);
  gated_leakage_mw_ =
      bank_leakage_mw_ *
      (tech.has("rf_gated_leakage_fraction") ? tech.value("rf_gated_leakage_fraction") : 0.0);
  const double column_mw[power::kPowerStateCount] = {bank_leakage_mw_, 0, 0, gated_leakage_mw_};
  // Nothing is valid before the first write: with gating every bank starts gated.
  const power::PowerState initial =
      config_.state.gating ? power::PowerState::Gated : power::PowerState::On;
  for (uint32_t b = 0; b < config_.state.banks; ++b)
    for (uint32_t s = 0; s < config_.state.lane_slices; ++s)
      column_groups_.push_back(
          energy_.add_residency("rf_bank" + std::to_string(b) + "_slice" + std::to_string(s),
                                "16-byte register bank (bank " + std::to_string(b) +
                                    ", lane slice " + std::to_string(s) + "), on or gated",
                                1, initial, column_mw));
  column_changed_.assign(column_groups_.size(), 0);
  state_.set_listener(this);
  slice_bytes_ = kWarpRegisterBytes / config_.state.lane_slices;
}

void WcStage::move_column(uint32_t column, power::PowerState from, power::PowerState to,
                          uint64_t cycle) {
  uint64_t& changed = column_changed_[column];
  changed = std::max(changed, cycle);
  energy_.transition(column_groups_[column], from, to, changed);
}

void WcStage::column_gated(uint32_t column, uint64_t cycle) {
  move_column(column, power::PowerState::On, power::PowerState::Gated, cycle);
}

void WcStage::column_woken(uint32_t column, uint64_t cycle) {
  move_column(column, power::PowerState::Gated, power::PowerState::On, cycle);
}

uint32_t WcStage::bank_of(const RfAccess& a) const {
  // The register file's mapping (RegFileCore::bank_of), needed to know which bank
  // columns a register's valid bits belong to.
  return config_.gpgpusim_mapping ? (a.arch_reg + a.warp_slot) % config_.state.banks
                                  : a.phys_reg % config_.state.banks;
}

uint64_t WcStage::forward_at(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay,
                             uint64_t cycle) {
  clock_.complete_at(delay, cycle);
  initiator->b_transport(payload, delay);
  return clock_.cycle_at(delay);
}

void WcStage::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  RfAccess& a = rf_access_of(payload);
  const bool in_range = a.phys_reg < config_.state.physical_registers;
  switch (a.kind) {
    case RfAccessKind::Read:
      if (in_range) return read(payload, a, delay);
      break;
    case RfAccessKind::Write:
      if (in_range) return write(payload, a, delay);
      break;
    case RfAccessKind::Launch:
      state_.allocate(a.regs_per_warp, clock_.cycle_at(delay));
      break;
    case RfAccessKind::Retire:
      if (in_range) state_.release(a.phys_reg, a.regs_per_warp, clock_.cycle_at(delay));
      break;
    default:
      break;
  }
  initiator->b_transport(payload, delay);
}

void WcStage::read(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  const uint64_t cycle = clock_.cycle_at(delay);
  const uint32_t bank = bank_of(a);
  ++counters_.reads;
  energy_.count(indicator_reads_);
  const uint8_t code = state_.indicator(a.phys_reg);
  if (code == 0) {
    // Only valid entries hold data; the others' lanes were never written (or their
    // bank is gated), so the arbiter does not read them.
    const uint32_t slices = state_.valid_slices(a.phys_reg) & state_.slices_of(a.read_lanes);
    a.read_lanes &= state_.lanes_of(slices);
    forward_at(payload, delay, std::max(cycle, state_.awake_at(bank, slices)));
    payload.set_data_length(static_cast<unsigned>(__builtin_popcount(slices)) * slice_bytes_);
    return;
  }
  const bdi::Encoding enc = codec_.encoding_of(code);
  const LaneMask lanes = image_lanes(enc.banks());
  unsigned char* data = payload.get_data_ptr();
  payload.set_data_ptr(image_.bytes());
  a.read_lanes = lanes;
  const uint64_t ready =
      forward_at(payload, delay, std::max(cycle, state_.awake_at(bank, state_.slices_of(lanes))));
  payload.set_data_ptr(data);
  if (payload.is_response_error()) return;
  ++counters_.compressed_reads;
  energy_.count(decompress_);
  const uint64_t done = decompressors_.acquire(ready) + config_.decompress_latency;
  register_of(payload) = bdi::unpack(bdi::image_from_register(image_, enc));
  clock_.complete_at(delay, done);
  // What crossed the banks-to-collector wires: the crossbar charges these bytes.
  payload.set_data_length(enc.banks() * bdi::kBankBytes);
}

uint64_t WcStage::dummy_mov(const RfAccess& a, uint32_t bank, uint64_t cycle) {
  const bdi::Encoding enc = codec_.encoding_of(state_.indicator(a.phys_reg));
  const LaneMask lanes = image_lanes(enc.banks());
  ++counters_.dummy_movs;
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
  sc_core::sc_time delay;
  energy_.count(indicator_reads_);
  const uint64_t ready =
      forward_at(read, delay, std::max(cycle, state_.awake_at(bank, state_.slices_of(lanes))));
  energy_.count(decompress_);
  const uint64_t decompressed = decompressors_.acquire(ready) + config_.decompress_latency;
  mov_value_ = bdi::unpack(bdi::image_from_register(image_, enc));
  // Its write: the whole register, uncompressed.
  const uint32_t all = state_.slices_of(kFullMask);
  const uint64_t awake = state_.set_valid(a.phys_reg, bank, all, cycle);
  if (awake > decompressed) counters_.wakeup_stall_cycles += awake - decompressed;
  const uint64_t start = std::max(decompressed, awake);
  // prepare() resets the physical register: a write without it would go nowhere.
  tlm::tlm_generic_payload& write = mov_.prepare(RfAccessKind::Write, &mov_value_);
  m.phys_reg = a.phys_reg;
  m.active_mask = kFullMask;
  forward_at(write, delay, start);
  state_.set_indicator(a.phys_reg, 0, cycle);
  energy_.count(indicator_writes_);
  energy_.count(mov_flits_, enc.banks() + kWarpRegisterBytes / kFlitBytes);
  return start;
}

void WcStage::write(tlm::tlm_generic_payload& payload, RfAccess& a, sc_core::sc_time& delay) {
  const uint64_t cycle = clock_.cycle_at(delay);
  const uint32_t bank = bank_of(a);
  const uint32_t phys = a.phys_reg;
  WarpRegister& value = register_of(payload);
  ++counters_.writes;
  energy_.count(indicator_writes_);
  if (a.active_mask != kFullMask) {
    // Divergent: stored uncompressed, after a dummy MOV if the register is compressed.
    ++counters_.divergent_writes;
    count_similarity(value, a.active_mask, true);
    uint64_t start = cycle;
    if (state_.indicator(phys) != 0) start = dummy_mov(a, bank, cycle);
    contents_[phys].merge(value, a.active_mask);
    counters_.divergent_original_bytes += kWarpRegisterBytes;
    counters_.divergent_stored_bytes += codec_.select(contents_[phys]).banks() * bdi::kBankBytes;
    const uint32_t slices = state_.slices_of(a.active_mask);
    const uint64_t awake = state_.add_valid(phys, bank, slices, cycle);
    if (awake > start) counters_.wakeup_stall_cycles += awake - start;
    forward_at(payload, delay, std::max(start, awake));
    payload.set_data_length(static_cast<unsigned>(__builtin_popcount(slices)) * slice_bytes_);
    return;
  }
  count_similarity(value, kFullMask, false);
  contents_[phys] = value;
  energy_.count(compress_);
  const uint64_t compressed_at = compressors_.acquire(cycle) + config_.compress_latency;
  const bdi::Compressed c = codec_.compress(value);
  const uint8_t code = codec_.indicator_of(c.encoding);
  ++counters_.writes_by_indicator[code];
  counters_.original_bytes += kWarpRegisterBytes;
  counters_.stored_bytes += c.banks() * bdi::kBankBytes;
  const LaneMask lanes = image_lanes(c.banks());
  const uint64_t awake = state_.set_valid(phys, bank, state_.slices_of(lanes), cycle);
  if (awake > compressed_at) counters_.wakeup_stall_cycles += awake - compressed_at;
  state_.set_indicator(phys, code, cycle);
  unsigned char* data = payload.get_data_ptr();
  if (c.encoding.compressed()) {
    image_ = bdi::image_as_register(c);
    payload.set_data_ptr(image_.bytes());
    a.active_mask = lanes;
  }
  forward_at(payload, delay, std::max(compressed_at, awake));
  payload.set_data_ptr(data);
  a.active_mask = kFullMask;
  payload.set_data_length(c.banks() * bdi::kBankBytes);
}

void WcStage::count_similarity(const WarpRegister& value, LaneMask active, bool divergent) {
  auto& bins = counters_.similarity[divergent ? 1 : 0];
  for (unsigned i = 1; i < kWarpSize; ++i) {
    if (!((active >> i) & 1u) || !((active >> (i - 1)) & 1u)) continue;
    const int64_t d =
        std::llabs(int64_t(int32_t(value.lane[i])) - int64_t(int32_t(value.lane[i - 1])));
    ++bins[d == 0 ? 0 : d <= 128 ? 1 : d <= 32768 ? 2 : 3];
  }
}

nlohmann::json WcStage::stats(uint64_t end_cycle) {
  // A bank gated at the very end may have its gating dated after its wake-up ends.
  const uint64_t last_change = *std::max_element(column_changed_.begin(), column_changed_.end());
  const uint64_t end = std::max(end_cycle, last_change);
  energy_.finish(end);
  nlohmann::json j = energy_.to_json();
  const uint64_t regs = config_.state.physical_registers;
  j["storage_bits"] = regs * codec_.indicator_bits() + regs * config_.state.lane_slices;
  const Counters& c = counters_;
  j["writes"] = c.writes;
  j["divergent_writes"] = c.divergent_writes;
  j["reads"] = c.reads;
  j["compressed_reads"] = c.compressed_reads;
  j["dummy_movs"] = c.dummy_movs;
  nlohmann::json by_enc = nlohmann::json::object();
  by_enc["uncompressed"] = c.writes_by_indicator[0];
  for (size_t i = 0; i < codec_.choices().size(); ++i)
    by_enc[codec_.choices()[i].name()] = c.writes_by_indicator[i + 1];
  j["writes_by_encoding"] = by_enc;
  // A ratio without a denominator (no divergent write, say) is null, so that the
  // sweep's results.csv leaves it empty and means skip it.
  const auto ratio = [](uint64_t a, uint64_t b) {
    return b ? nlohmann::json(double(a) / double(b)) : nlohmann::json();
  };
  const uint64_t full_writes = c.writes - c.divergent_writes;
  // Figure 5's shares, keyed base4_delta1 etc. so that they make plain CSV columns.
  nlohmann::json enc_share = nlohmann::json::object();
  enc_share["uncompressed"] = ratio(c.writes_by_indicator[0], full_writes);
  for (size_t i = 0; i < codec_.choices().size(); ++i) {
    const bdi::Encoding e = codec_.choices()[i];
    enc_share["base" + std::to_string(e.base) + "_delta" + std::to_string(e.delta)] =
        ratio(c.writes_by_indicator[i + 1], full_writes);
  }
  j["encoding_share"] = enc_share;
  j["warp_instructions"] = c.warp_instructions;
  j["divergent_instruction_share"] = ratio(c.divergent_instructions, c.warp_instructions);
  j["dummy_mov_share"] = ratio(c.dummy_movs, c.warp_instructions);
  j["compression_ratio"] = {
      {"non_divergent", ratio(c.original_bytes, c.stored_bytes)},
      {"divergent_if_compressed", ratio(c.divergent_original_bytes, c.divergent_stored_bytes)}};
  const auto bins = [](const std::array<uint64_t, 4>& b) {
    return nlohmann::json{{"zero", b[0]}, {"le_128", b[1]}, {"le_32k", b[2]}, {"random", b[3]}};
  };
  j["similarity"] = {{"non_divergent", bins(c.similarity[0])},
                     {"divergent", bins(c.similarity[1])}};
  const auto shares = [&ratio](const std::array<uint64_t, 4>& b) {
    const uint64_t n = b[0] + b[1] + b[2] + b[3];
    return nlohmann::json{{"zero", ratio(b[0], n)},
                          {"le_128", ratio(b[1], n)},
                          {"le_32k", ratio(b[2], n)},
                          {"random", ratio(b[3], n)}};
  };
  j["similarity_share"] = {{"non_divergent", shares(c.similarity[0])},
                           {"divergent", shares(c.similarity[1])}};
  const auto units = [](const bdi::UnitPool& u) {
    return nlohmann::json{{"units", u.units()},
                          {"activations", u.activations()},
                          {"contended", u.contended()},
                          {"wait_cycles", u.wait_cycles()}};
  };
  j["compressors"] = units(compressors_);
  j["decompressors"] = units(decompressors_);
  j["compressed_register_share"] = ratio(state_.compressed_register_cycles(end_cycle),
                                         state_.allocated_register_cycles(end_cycle));
  std::vector<uint64_t> gated;
  for (power::EnergyAccount::GroupId g : column_groups_)
    gated.push_back(energy_.unit_cycles(g, power::PowerState::Gated, end));
  uint64_t gated_total = 0;
  for (uint64_t g : gated) gated_total += g;
  nlohmann::json fraction = nlohmann::json::array();
  for (uint64_t g : gated) fraction.push_back(ratio(g, end));
  // Figure 10 by position in the register's eight 16-byte banks, averaged over banks.
  nlohmann::json by_slice = nlohmann::json::object();
  const uint32_t slices = config_.state.lane_slices;
  for (uint32_t s = 0; s < slices; ++s) {
    uint64_t sum = 0;
    for (uint32_t b = 0; b < config_.state.banks; ++b) sum += gated[b * slices + s];
    by_slice["slice" + std::to_string(s)] = ratio(sum, uint64_t(config_.state.banks) * end);
  }
  const double ns = clock_.ns_per_cycle();
  const double all_on_pj = double(gated.size()) * double(end) * bank_leakage_mw_ * ns;
  const double saved_pj = double(gated_total) * (bank_leakage_mw_ - gated_leakage_mw_) * ns;
  j["bank_gating"] = {{"enabled", config_.state.gating},
                      {"banks", state_.columns()},
                      {"wakeups", state_.wakeups()},
                      {"gate_events", state_.gate_events()},
                      {"wakeup_stall_cycles", c.wakeup_stall_cycles},
                      {"gated_cycles_per_bank", gated},
                      {"gated_fraction_per_bank", fraction},
                      {"gated_fraction", ratio(gated_total, uint64_t(gated.size()) * end)},
                      {"gated_fraction_by_slice", by_slice},
                      {"bank_leakage_pj", all_on_pj - saved_pj},
                      {"all_on_leakage_pj", all_on_pj},
                      {"leakage_saved_pj", saved_pj}};
  return j;
}

nlohmann::json WcStage::describe() const {
  const uint64_t regs = config_.state.physical_registers;
  nlohmann::json choices = nlohmann::json::array();
  for (size_t i = 0; i < codec_.choices().size(); ++i) {
    const bdi::Encoding e = codec_.choices()[i];
    choices.push_back(
        {{"indicator", i + 1}, {"encoding", e.name()}, {"bytes", e.bytes()}, {"banks", e.banks()}});
  }
  choices.push_back({{"indicator", 0},
                     {"encoding", "uncompressed"},
                     {"bytes", kWarpRegisterBytes},
                     {"banks", bdi::kUncompressedBanks}});
  return {
      {"storage_bits",
       {{"range_indicators", regs * codec_.indicator_bits()},
        {"valid_bits", regs * config_.state.lane_slices}}},
      {"organisation",
       {{"variant", bdi::to_string(config_.variant)},
        {"range_indicator_bits_per_register", codec_.indicator_bits()},
        {"physical_warp_registers", regs},
        {"gated_banks", state_.columns()},
        {"bank_bytes", slice_bytes_},
        {"encodings", choices}}},
      {"units", {{"compressors", config_.compressors}, {"decompressors", config_.decompressors}}},
      {"ports",
       {{"range_indicator", "read with every bank arbitration request, written at writeback"},
        {"compressor", "one warp register per cycle per unit (pipelined)"},
        {"decompressor", "one warp register per cycle per unit (pipelined)"}}},
      {"latency_cycles",
       {{"compression", config_.compress_latency},
        {"decompression", config_.decompress_latency},
        {"bank_wakeup", config_.state.wakeup_latency}}},
      {"parameters",
       {{"wc.bank_gating", config_.state.gating},
        {"wc.unit_energy_scale", config_.unit_energy_scale},
        {"power.wire_mm", config_.wire_mm},
        {"bank_leakage_mw", bank_leakage_mw_},
        {"gated_bank_leakage_mw", gated_leakage_mw_}}},
      {"energy", energy_.describe()}};
}

}  // namespace warpreg

// A test-only design added without touching anything outside this folder: the build's
// test glob compiles it and a DesignRegistrar puts it into the registry, so
// `--design probe` and a preset's "designs": ["probe"] find it like a shipped design.
// The probe is a power-slot stage that delays every register read by probe.extra_cycles
// and counts what it saw.
#include "testbenches/toy_design/probe_design.h"

#include "designs/design_registry.h"
#include "modules/interfaces/rf_access.h"

namespace warpreg::testing {

WARPREG_REGISTER_STATS(ProbeStats);

ProbeStage::ProbeStage(sc_core::sc_module_name name, const DesignContext& context)
    : OperandStage(name), params_(&context.params), clock_(context.clock) {}

void ProbeStage::transport(tlm::tlm_generic_payload& payload, RfAccess& a,
                           sc_core::sc_time& delay) {
  if (a.kind == RfAccessKind::Read) {
    ++stats_.reads;
    delay += clock_.cycles(params_.extra_cycles);
  } else if (a.kind == RfAccessKind::Write) {
    ++stats_.writes;
  }
  // Through the socket, as a design that knows nothing of direct paths would.
  initiator->b_transport(payload, delay);
}

nlohmann::json ProbeStage::stats(uint64_t) {
  nlohmann::json j = nlohmann::json::object();
  stats_.write(j);
  return j;
}

nlohmann::json ProbeStage::describe() const {
  return {{"storage_bits", {{"total", 0}}}, {"parameters", params_.to_json()}};
}

namespace {

const DesignRegistrar kProbe(DesignSpec{
    "probe",
    "test-only probe: delays reads by probe.extra_cycles and counts accesses",
    "none (testbenches/toy_design)",
    {},
    [](std::vector<ParamSpec>& out) { ProbeParams().declare(out); },
    [](DesignAssembly& assembly) {
      assembly.add_stage<ProbeStage>(PathSlot::Power, "probe", assembly.context());
    },
    {}});

}  // namespace

}  // namespace warpreg::testing

#pragma once
// Golden vectors of the Warped Register File blocks for RTL test benches: a
// deterministic, seeded sequence of input events driven through the C++ core, each
// with the outputs the hardware must produce (`warpreg vectors tric|coma`).
#include <cstdint>
#include <nlohmann/json.hpp>

namespace warpreg {

/// TRIC: launch / retire of warp register ranges, wakes at collector assignment,
/// reads and writebacks served by the banks; after each event the access's first
/// readable cycle (wakes) and every entry's state at that cycle (one letter per
/// entry: O off, D drowsy, N on). Ends with the counters.
nlohmann::json tric_vectors(uint64_t seed = 1, uint32_t steps = 200);

/// COMA: mask-table writes at collector assignment, reads by collector id and
/// writebacks with the scoreboard's mask; after each event the gating mask (one
/// enable per lane word-line segment) and whether the table agreed with the access.
nlohmann::json coma_vectors(uint64_t seed = 1, uint32_t steps = 200);

}  // namespace warpreg

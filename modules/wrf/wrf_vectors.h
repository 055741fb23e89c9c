#pragma once
// Golden vectors of the Warped Register File blocks for RTL test benches
// (docs/vectors.md#tric, docs/vectors.md#coma): a deterministic, seeded sequence of input
// events driven through the C++ core, each with the outputs the hardware must produce.
#include "common/golden_vectors.h"

namespace warpreg {

/// `tric`: launch / retire of warp register ranges, wakes at collector assignment,
/// reads and writebacks served by the banks (40 entries, the last 8 never allocated);
/// after each event the access's first readable cycle (wakes) and every entry's state.
/// --count is the number of collector assignments; a file has several events per one.
vectors::VectorGenerator tric_vector_generator();

/// `coma`: mask-table writes at collector assignment, reads by collector id and
/// writebacks with the scoreboard's mask (16 collectors); after each event the gating
/// mask (one enable per lane word-line segment) and whether the table agreed.
vectors::VectorGenerator coma_vector_generator();

}  // namespace warpreg

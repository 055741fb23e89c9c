#pragma once
// Sweep and experiment specs: read, counted, and expanded when small (each point loads
// its parameters and opens its workload).
#include "apps/sweep/sweep_spec.h"
#include "fuzz/fuzz_support.h"

namespace warpreg::fuzz {

inline void read_spec(const uint8_t* data, size_t size, bool quick) {
  expect_documented_errors([&] {
    const JsonDocument doc = JsonDocument::parse(text_of(data, size), "fuzz-spec.json");
    const sweep::Spec spec =
        sweep::parse_spec(doc.root(), doc.source(), quick, scratch_dir(), &doc);
    if (sweep::point_count(spec) <= 4) sweep::expand(spec);
  });
}

}  // namespace warpreg::fuzz

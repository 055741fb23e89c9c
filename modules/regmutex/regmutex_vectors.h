#pragma once
// Golden vectors of the RegMutex shared-register-pool allocator and mapping unit for RTL
// testbenches (docs/vectors.md#regmutex): one record per issue-stage request (kernel
// start, acquire, release) with the response, the allocator's state after it and one
// architected-to-physical mapping.
#include "common/golden_vectors.h"

namespace warpreg::regmutex {

/// `regmutex`: a boundary set (the paper's N_w = 48, |B_s| = 18, |E_s| = 6, 26 sections:
/// fill the pool, stall, double acquire and release, re-take by find-first-zero; a
/// 48-section pool; a one-section pool; paired warps) then `count` seeded steps with a
/// kernel start in a random shared or paired geometry about every 512 steps.
vectors::VectorGenerator vector_generator();

}  // namespace warpreg::regmutex

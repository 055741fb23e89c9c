#pragma once
// Parameters of the GPU platform (gpu.*).
#include "common/param_set.h"

namespace warpreg {

struct GpuParams : ParamSet {
  explicit GpuParams(const Params* values = nullptr) : ParamSet("gpu", values) {}
  Param<uint32_t> sms{this,
                      "sms",
                      1,
                      {1, 128},
                      "SMs",
                      "SMs of the GPU platform, each with the preset's SM and designs, sharing "
                      "one memory system; 1 is the single-SM platform. The gpu preset sets 15.",
                      "GPGPU-Sim 3.x GTX480 -gpgpu_n_clusters 15, -gpgpu_n_cores_per_cluster 1"};
};

}  // namespace warpreg

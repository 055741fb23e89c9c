#pragma once
// The GPU platform: gpu.sms SMs (each an SmNode with the preset's designs, in an "smN"
// module), a CTA distributor spreading the grid over them as GPGPU-Sim does, and, with
// mem.model = memory_system, one memory system (interconnect, L2 slices, DRAM channels)
// behind the SMs' L1s, all bound with TLM sockets. stats.json holds the totals where a
// single SM's would be and each SM's own under "sms" (docs/gpu.md).
#include <memory>
#include <nlohmann/json.hpp>

#include "common/params.h"
#include "modules/interfaces/workload.h"
#include "platforms/sm/platform.h"

namespace warpreg {

/// What the apps run: SmPlatform or GpuPlatform.
class Platform {
 public:
  virtual ~Platform() = default;
  virtual nlohmann::json run() = 0;
  virtual nlohmann::json describe() const = 0;
  virtual const StatSet* block_statistics(const std::string& block) const = 0;
};

/// GpuPlatform for gpu.sms > 1, else SmPlatform. Throws ConfigError for a setting the
/// GPU platform does not support (a waveform, extra stages) with gpu.sms > 1.
std::unique_ptr<Platform> make_platform(const Params& params, std::unique_ptr<Workload> workload,
                                        RunSettings settings = {});

class GpuPlatformImpl;

class GpuPlatform final : public Platform {
 public:
  /// Elaborates the platform. Throws ParamError or ConfigError naming the option.
  GpuPlatform(const Params& params, std::unique_ptr<Workload> workload, RunSettings settings = {});
  ~GpuPlatform() override;

  nlohmann::json run() override;
  nlohmann::json describe() const override;
  /// The statistics of SM 0's block `block`.
  const StatSet* block_statistics(const std::string& block) const override;

 private:
  std::unique_ptr<GpuPlatformImpl> impl_;
};

}  // namespace warpreg

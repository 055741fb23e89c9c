#pragma once
// Compiler metadata as plain data: what a design's blocks need to know about the
// kernel's static code (release flags and the renaming plan, acquire/release points
// and |E_s|, register-intervals ...). The stimulus layer runs the compiler passes, once
// per kernel, and hands their results to the platform through a MetadataSource; no
// block runs a pass. Each kind of metadata is a plain struct named by a string
// ("rfv.program", "regmutex.plan", "ltrf.program") that its design defines.
#include <memory>
#include <string>
#include <typeinfo>

#include "common/errors.h"
#include "modules/interfaces/occupancy.h"
#include "modules/interfaces/regfile_geometry.h"
#include "modules/interfaces/workload.h"

namespace warpreg {

class Params;

/// What a compiler pass may know besides the kernel: the parameters (its design's
/// options), the launch, the SM's limits and the register file it compiles for.
struct PassContext {
  const Params& params;
  const KernelShape& kernel;
  const SmLimits& limits;
  const Occupancy& occupancy;  ///< the SM's occupancy of the kernel without any design
  const RegFileGeometry& regfile;
};

class MetadataSource {
 public:
  virtual ~MetadataSource() = default;

  /// True when the workload has static code, so that passes can run.
  virtual bool has_static_code() const = 0;

  /// The metadata of `kind` for this kernel, computed on first request and shared
  /// afterwards; nullptr when the workload has no static code. Throws ConfigError
  /// when the pass rejects the kernel, and std::logic_error when `kind` is produced as
  /// another type than T.
  template <class T>
  std::shared_ptr<const T> get(const std::string& kind, const PassContext& context) {
    return std::static_pointer_cast<const T>(produce(kind, typeid(T), context));
  }

 protected:
  virtual std::shared_ptr<const void> produce(const std::string& kind, const std::type_info& type,
                                              const PassContext& context) = 0;
};

/// The source of a workload without static code (a text trace, the synthetic generator).
class NoMetadata final : public MetadataSource {
 public:
  bool has_static_code() const override { return false; }

 protected:
  std::shared_ptr<const void> produce(const std::string&, const std::type_info&,
                                      const PassContext&) override {
    return nullptr;
  }
};

}  // namespace warpreg

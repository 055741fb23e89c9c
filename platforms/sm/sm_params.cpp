// The SM platform's parameter sets join the catalogue (sm_params.h declares them).
#include "platforms/sm/sm_params.h"

#include "platforms/sm/memory_params.h"

namespace warpreg {

static void declare_platform_params(std::vector<ParamSpec>& out) {
  SmParams().declare(out);
  CollectorParams().declare(out);
  ExecParams().declare(out);
  MemParams().declare(out);
  L1Params().declare(out);
  L1cParams().declare(out);
  IcntParams().declare(out);
  L2Params().declare(out);
  DramParams().declare(out);
  SimParams().declare(out);
}

// platform.cpp refers to it, so that every program with an SM links these declarations.
extern const ParamRegistrar kPlatformParams;
const ParamRegistrar kPlatformParams(declare_platform_params);

}  // namespace warpreg

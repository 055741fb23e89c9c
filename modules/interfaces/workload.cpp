#include "modules/interfaces/workload.h"

#include "modules/interfaces/kernel_metadata.h"

namespace warpreg {

MetadataSource& Workload::metadata() {
  static NoMetadata none;
  return none;
}

}  // namespace warpreg

#include "modules/interfaces/rf_access.h"

namespace warpreg {

std::string_view to_string(RfAccessKind kind) {
  switch (kind) {
    case RfAccessKind::Read:
      return "read";
    case RfAccessKind::Write:
      return "write";
    case RfAccessKind::Release:
      return "release";
    case RfAccessKind::Acquire:
      return "acquire";
    case RfAccessKind::Prefetch:
      return "prefetch";
    case RfAccessKind::Wake:
      return "wake";
    case RfAccessKind::Sleep:
      return "sleep";
    case RfAccessKind::Launch:
      return "launch";
    case RfAccessKind::Retire:
      return "retire";
  }
  return "?";
}

}  // namespace warpreg

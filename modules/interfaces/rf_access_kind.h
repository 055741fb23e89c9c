#pragma once
// What an operand-path access is and the names it carries, without SystemC: the plain
// C++ cores (renaming table, allocators) share these with the TLM extension RfAccess
// (rf_access.h).
#include <cstdint>
#include <string_view>

namespace warpreg {

enum class RfAccessKind : uint8_t {
  Read,      ///< operand read into a collector unit
  Write,     ///< writeback of a result (active lanes only)
  Release,   ///< the value is dead: a name-translation stage may free its location
  Acquire,   ///< a warp asks for extra registers (e.g. a shared-pool section)
  Prefetch,  ///< move a register towards the core (e.g. into a register-file cache)
  Wake,      ///< power a register up ahead of an access
  Sleep,     ///< return a register to its low-power state
  Launch,    ///< a warp's registers are allocated (CTA launch)
  Retire,    ///< a warp's registers are freed (warp exit)
};
inline std::string_view to_string(RfAccessKind kind) {
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

constexpr uint32_t kNoPhysical = 0xffffffffu;
/// The collector of an access no operand collector makes: a register-file cache's fill
/// of, or write-back to, the register file behind it. Stages that act per collector unit
/// (COMA's active-mask table) pass it on unchanged.
constexpr uint16_t kNoCollector = 0xffff;

}  // namespace warpreg

// `warpreg vectors regmutex`: the boundary records of the SRP allocator, and every record
// against the paper's rules (seed 003 Figures 5 and 6b) restated here.
#include <catch2/catch.hpp>
#include <string>

#include "modules/regmutex/regmutex_vectors.h"

using namespace warpreg;

namespace {

uint64_t hex(const nlohmann::ordered_json& v) {
  return std::stoull(v.get<std::string>(), nullptr, 16);
}

}  // namespace

TEST_CASE(
    "regmutex vectors: the boundary records fill the pool, stall and ignore double operations",
    "[regmutex][vectors]") {
  const auto r = vectors::records_as_json(regmutex::vector_generator(), 10, 7);
  CHECK(r[0]["op"] == "start");
  CHECK(r[0]["outcome"] == "none");
  CHECK(hex(r[0]["srp_bitmask"]) == 0xfffffc000000u);  // sections 26..47 preset
  // Acquire of warp 0, x = |B_s| - 1 = 17: section 0; base register 0 * 18 + 17.
  CHECK(r[1]["outcome"] == "acquired");
  CHECK(r[1]["section"] == 0);
  CHECK(hex(r[1]["srp_bitmask"]) == 0xfffffc000001u);
  CHECK(r[1]["phys"] == 17);
  // Warp 1, x = 18 = |B_s|: the first extended register of section 1: 864 + 1 * 6.
  CHECK(r[2]["section"] == 1);
  CHECK(r[2]["extended"] == true);
  CHECK(r[2]["phys"] == 870);
  CHECK(r[26]["outcome"] == "acquired");
  CHECK(hex(r[26]["srp_bitmask"]) == 0xffffffffffffu);
  CHECK(r[27]["outcome"] == "stall");  // warp 26: the pool is full
  CHECK(r[27]["holds"] == false);
  CHECK(r[27]["section"] == 0);
  CHECK(r[28]["outcome"] == "no_effect");  // warp 3 again
  CHECK(r[28]["section"] == 3);
  CHECK(r[29]["outcome"] == "released");  // warp 5
  CHECK(r[29]["section"] == 5);
  CHECK(hex(r[29]["srp_bitmask"]) == 0xffffffffffdfu);
  CHECK(r[30]["outcome"] == "no_effect");
  CHECK(r[31]["outcome"] == "acquired");  // warp 26 takes the first zero: section 5
  CHECK(r[31]["section"] == 5);
  CHECK(r[32]["outcome"] == "no_effect");  // warp 40 never acquired
  CHECK(r[32]["fault"] == (r[32]["x"] >= 18));
}

TEST_CASE("regmutex vectors: every record follows find-first-zero, the presets and the mapping",
          "[regmutex][vectors]") {
  const auto records = vectors::records_as_json(regmutex::vector_generator(), 20000, 11);
  uint64_t srp = 0, status = 0;
  uint32_t lut[48] = {};  // per warp: its section (shared) or unit (paired)
  uint32_t bs = 0, es = 0, sections = 0, offset = 0;
  bool paired = false;
  int starts = 0, paired_starts = 0, stalls = 0, acquired = 0, released = 0;
  for (const auto& r : records) {
    INFO("record " << r.dump());
    const uint32_t warp = r["warp"], x = r["x"];
    const uint64_t warp_bit = uint64_t{1} << warp;
    std::string outcome = "none";
    uint32_t section = 0;
    if (r["op"] == "start") {
      ++starts;
      paired = r["mode"] == "paired";
      paired_starts += paired;
      bs = r["bs"], es = r["es"], sections = r["sections"], offset = r["srp_offset"];
      status = 0;
      srp = paired ? 0 : 0xffffffffffffu & ~((uint64_t{1} << sections) - 1);
    } else {
      CHECK(r["mode"] == (paired ? "paired" : "shared"));
      CHECK(r["bs"] == bs);
      const bool held = status & warp_bit;
      const uint32_t unit = paired ? warp / 2 : 0;
      if (r["op"] == "acquire") {
        if (held) {
          outcome = "no_effect";
          section = lut[warp];
        } else if (paired ? (srp >> unit) & 1 : srp == 0xffffffffffffu) {
          outcome = "stall";
        } else {
          outcome = "acquired";
          section = paired ? unit : static_cast<uint32_t>(__builtin_ctzll(~srp));
          srp |= uint64_t{1} << section;
          status |= warp_bit;
          lut[warp] = section;
        }
      } else if (held) {
        outcome = "released";
        section = lut[warp];
        srp &= ~(uint64_t{1} << section);
        status &= ~warp_bit;
      } else {
        outcome = "no_effect";
      }
    }
    CHECK(r["outcome"] == outcome);
    CHECK(r["section"] == section);
    CHECK(hex(r["srp_bitmask"]) == srp);
    CHECK(hex(r["warp_status"]) == status);
    const bool holds = status & warp_bit;
    CHECK(r["holds"] == holds);
    CHECK(r["extended"] == (x >= bs));
    CHECK(r["fault"] == (x >= bs && !holds));
    uint32_t phys = 0;
    if (!paired && x < bs) phys = warp * bs + x;
    if (!paired && x >= bs && holds) phys = offset + lut[warp] * es + (x - bs);
    if (paired && (x < bs || holds)) {
      const uint32_t base = warp / 2 * (2 * bs + es);
      phys = x < bs ? base + warp % 2 * bs + x : base + 2 * bs + (x - bs);
    }
    CHECK(r["phys"] == phys);
    CHECK(phys < 1024);
    stalls += outcome == "stall";
    acquired += outcome == "acquired";
    released += outcome == "released";
  }
  CHECK(starts > 20);
  CHECK(paired_starts > 3);
  CHECK(stalls > 100);
  CHECK(acquired > 1000);
  CHECK(released > 1000);
}

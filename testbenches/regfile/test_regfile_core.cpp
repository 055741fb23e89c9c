// RegFileCore: bank mapping, contents, port reservations (conflicts), write
// port separate from the read port, lane slices.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "modules/regfile/regfile_core.h"

using namespace warpreg;

namespace {
WarpRegister pattern(uint32_t base) {
  WarpRegister r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.lane[i] = base + i;
  return r;
}
}  // namespace

TEST_CASE("GPGPU-Sim bank mapping is (arch_reg + warp_slot) mod banks", "[regfile][core]") {
  RegFileConfig c;
  c.banks = 16;
  RegFileCore rf(c);
  CHECK(rf.bank_of(0, 0, 0) == 0);
  CHECK(rf.bank_of(999, 3, 5) == 8);
  CHECK(rf.bank_of(999, 15, 3) == 2);
  c.mapping = BankMapping::Interleaved;
  RegFileCore interleaved(c);
  CHECK(interleaved.bank_of(37, 3, 5) == 5);
}

TEST_CASE("a read returns what was written, inactive lanes keep their value", "[regfile][core]") {
  RegFileCore rf(RegFileConfig{});
  rf.write(7, 0, 0, pattern(100), kFullMask);
  rf.write(7, 0, 1, pattern(500), 0x0000ffffu);
  WarpRegister out;
  rf.read(7, 0, 5, out);
  CHECK(out.lane[0] == 500);
  CHECK(out.lane[15] == 515);
  CHECK(out.lane[16] == 116);
  CHECK(out.lane[31] == 131);
}

TEST_CASE("two reads of one bank in one cycle conflict; other banks do not", "[regfile][core]") {
  RegFileConfig c;
  c.read_latency = 2;
  RegFileCore rf(c);
  WarpRegister out;
  const BankGrant a = rf.read(0, 3, 10, out);
  const BankGrant b = rf.read(16, 3, 10, out);
  const BankGrant other = rf.read(1, 4, 10, out);
  CHECK(a.grant_cycle == 10);
  CHECK(a.ready_cycle == 12);
  CHECK(b.grant_cycle == 11);
  CHECK(b.ready_cycle == 13);
  CHECK(other.grant_cycle == 10);
  CHECK(rf.counters().conflicted_reads == 1);
  CHECK(rf.counters().conflict_cycles == 1);
  // A later request after the port freed is served at once.
  CHECK(rf.read(0, 3, 20, out).grant_cycle == 20);
}

TEST_CASE("writes use their own port and land before a same-cycle read", "[regfile][core]") {
  RegFileCore rf(RegFileConfig{});
  WarpRegister out;
  const BankGrant r = rf.read(0, 2, 4, out);
  const BankGrant w = rf.write(0, 2, 4, pattern(9), kFullMask);
  CHECK(r.grant_cycle == 4);
  CHECK(w.grant_cycle == 4);
  CHECK(w.ready_cycle == 5);
  const BankGrant w2 = rf.write(16, 2, 4, pattern(1), kFullMask);
  CHECK(w2.grant_cycle == 5);
  CHECK(rf.counters().conflicted_writes == 1);
  rf.read(0, 2, 6, out);
  CHECK(out == pattern(9));
}

TEST_CASE("lane slices: a partial write touches and reserves only its slices", "[regfile][core]") {
  RegFileConfig c;
  c.banks = 4;
  c.lane_slices = 8;  // Warped-Compression: 8 consecutive 16-byte banks
  c.entries_per_bank = 256;
  RegFileCore rf(c);
  CHECK(rf.slice_mask(0x0000000fu) == 0x01u);
  CHECK(rf.slice_mask(0x000000f0u) == 0x02u);
  CHECK(rf.slice_mask(0x80000001u) == 0x81u);
  const BankGrant low = rf.write(0, 1, 3, pattern(0), 0x0000000fu);
  const BankGrant high = rf.write(4, 1, 3, pattern(0), 0xf0000000u);
  CHECK(low.slices == 1);
  CHECK(high.grant_cycle == 3);  // disjoint slices: no conflict
  const BankGrant full = rf.write(8, 1, 3, pattern(0), kFullMask);
  CHECK(full.grant_cycle == 4);  // overlaps both
  CHECK(full.slices == 8);
  CHECK(rf.counters().slice_writes == 10);
}

TEST_CASE("lane slices: a narrowed read touches only the slices of its lanes", "[regfile][core]") {
  RegFileConfig c;
  c.banks = 4;
  c.lane_slices = 8;
  c.entries_per_bank = 256;
  RegFileCore rf(c);
  rf.write(0, 1, 0, pattern(100), kFullMask);
  WarpRegister out = pattern(0);
  // Lanes 0 and 5 live in slices 0 and 1: lanes 0..7 are read, the rest untouched.
  const BankGrant narrow = rf.read(0, 1, 2, out, 0x21u);
  CHECK(narrow.slices == 2);
  for (unsigned i = 0; i < kWarpSize; ++i) CHECK(out.lane[i] == (i < 8 ? 100 + i : i));
  // A full read in the same cycle on the other slices does not wait for the narrow one's.
  const BankGrant upper = rf.read(0, 1, 2, out, 0xffffff00u);
  CHECK(upper.grant_cycle == 2);
  CHECK(upper.slices == 6);
  const BankGrant full = rf.read(0, 1, 2, out);
  CHECK(full.grant_cycle == 3);
  CHECK(out == pattern(100));
  CHECK(rf.counters().slice_reads == 16);
}

TEST_CASE("impossible register-file shapes are rejected", "[regfile][core]") {
  RegFileConfig c;
  c.lane_slices = 3;
  CHECK_THROWS_AS(RegFileCore(c), std::invalid_argument);
  c.lane_slices = 1;
  c.banks = 0;
  CHECK_THROWS_AS(RegFileCore(c), std::invalid_argument);
}

// Seed 004 §2.2: the main register file's banks are CACTI's non-pipelined bank models,
// so a bank takes its next access only once the previous one's latency has passed.
TEST_CASE("a bank that is not pipelined is busy for the whole latency", "[regfile][core]") {
  RegFileConfig c;
  c.read_latency = 3;
  c.write_latency = 3;
  RegFileCore pipelined(c);
  c.pipelined = false;
  RegFileCore blocking(c);
  WarpRegister out;
  CHECK(pipelined.read(0, 0, 10, out).grant_cycle == 10);
  CHECK(pipelined.read(16, 0, 10, out).grant_cycle == 11);
  CHECK(blocking.read(0, 0, 10, out).grant_cycle == 10);
  const BankGrant second = blocking.read(16, 0, 10, out);
  CHECK(second.grant_cycle == 13);
  CHECK(second.ready_cycle == 16);
  CHECK(blocking.write(32, 0, 11, WarpRegister{}, kFullMask).grant_cycle == 11);  // own port
  CHECK(blocking.write(48, 0, 11, WarpRegister{}, kFullMask).grant_cycle == 14);
}

// reserve() keeps whole-warp accesses as a per-bank floor and partial ones as groups of
// slices free at one cycle; the reference is one port per (bank, slice), each access
// taking the latest of its slices' ports.
TEST_CASE("lane slices: grants match one port per slice, mixed whole and partial accesses",
          "[regfile][core][property]") {
  uint64_t s = 0x51ce;
  const auto next = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
  };
  for (const uint32_t slices : {1u, 4u, 8u, 32u})
    for (const bool pipelined : {true, false}) {
      RegFileConfig c;
      c.banks = 3;
      c.lane_slices = slices;
      c.entries_per_bank = 16;
      c.read_latency = 2;
      c.write_latency = 1;
      c.pipelined = pipelined;
      RegFileCore rf(c);
      const uint32_t lanes_per_slice = kWarpSize / slices;
      std::vector<uint64_t> read_port(size_t(c.banks) * slices, 0), write_port(read_port);
      uint64_t cycle = 0;
      WarpRegister out;
      for (int step = 0; step < 4000; ++step) {
        cycle += next() % 3 == 0 ? 1 : 0;
        // Some accesses ask for a cycle before the last one asked (a stage delayed another).
        const uint64_t at = cycle >= 2 && next() % 5 == 0 ? cycle - 2 : cycle;
        const uint32_t bank = next() % c.banks;
        const uint32_t pick = next() % 4;
        const LaneMask mask = pick == 0   ? kFullMask
                              : pick == 1 ? LaneMask(next()) & LaneMask(next())
                                          : LaneMask(next());
        const bool read = next() % 2 == 0;
        std::vector<uint64_t>& ports = read ? read_port : write_port;
        const uint32_t latency = read ? c.read_latency : c.write_latency;
        uint64_t expected = at;
        bool any = false;
        for (uint32_t sl = 0; sl < slices; ++sl) {
          const LaneMask slice_lanes = lanes_per_slice == 32 ? kFullMask
                                                             : ((1u << lanes_per_slice) - 1)
                                                                   << (sl * lanes_per_slice);
          if ((mask & slice_lanes) == 0) continue;
          any = true;
          expected = std::max(expected, ports[bank * slices + sl]);
        }
        for (uint32_t sl = 0; any && sl < slices; ++sl) {
          const LaneMask slice_lanes = lanes_per_slice == 32 ? kFullMask
                                                             : ((1u << lanes_per_slice) - 1)
                                                                   << (sl * lanes_per_slice);
          if ((mask & slice_lanes) != 0)
            ports[bank * slices + sl] = expected + (pipelined ? 1 : latency);
        }
        const BankGrant g =
            read ? rf.read(bank, bank, at, out, mask) : rf.write(bank, bank, at, out, mask);
        INFO("slices " << slices << " step " << step);
        REQUIRE(g.grant_cycle == expected);
      }
    }
}

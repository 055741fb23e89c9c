#include "modules/memory/coalescer.h"

#include <stdexcept>
#include <string>

#include "common/errors.h"

namespace warpreg::memory {

namespace {

constexpr uint64_t kBlock = 128;  // GPGPU-Sim's chunk and byte masks cover a 128-byte block

bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Bytes [addr, end) that fall in the segment at `segment`, as a mask of its 128-byte block.
ByteMask bytes_in(uint64_t segment, uint64_t segment_bytes, uint64_t addr, uint64_t end) {
  const uint64_t first = std::max(addr, segment);
  const uint64_t last = std::min(end, segment + segment_bytes);
  return ByteMask::range(static_cast<uint32_t>(first & (kBlock - 1)),
                         static_cast<uint32_t>(last - first));
}

uint8_t chunks_of(const ByteMask& m) {
  uint8_t chunks = 0;
  if (m.lo & 0x00000000ffffffffull) chunks |= 1;
  if (m.lo & 0xffffffff00000000ull) chunks |= 2;
  if (m.hi & 0x00000000ffffffffull) chunks |= 4;
  if (m.hi & 0xffffffff00000000ull) chunks |= 8;
  return chunks;
}

bool overlaps(const ByteMask& a, const ByteMask& b) {
  return (a.lo & b.lo) != 0 || (a.hi & b.hi) != 0;
}

// memory_coalescing_arch_reduce_and_send: a 128-byte segment whose chunks lie in one half
// becomes that 64-byte half, and a 64-byte segment whose chunks lie in one quarter
// becomes that 32-byte quarter.
void reduce(LineRequest& r) {
  const uint8_t q = r.sectors;
  if (r.bytes == 128) {
    const bool lower = q & 0x3, upper = q & 0xc;
    if (lower && !upper) {
      r.bytes = 64;
    } else if (upper && !lower) {
      r.bytes = 64;
      r.address += 64;
    }
  }
  if (r.bytes == 64) {
    const uint8_t half = (r.address % kBlock) == 0 ? (q & 0x3) : ((q >> 2) & 0x3);
    if (half == 1) {
      r.bytes = 32;
    } else if (half == 2) {
      r.bytes = 32;
      r.address += 32;
    }
  }
}

void sort_by_address(CoalescedAccess& out) {
  for (uint32_t i = 1; i < out.count; ++i) {
    const LineRequest r = out.requests[i];
    uint32_t j = i;
    for (; j > 0 && out.requests[j - 1].address > r.address; --j)
      out.requests[j] = out.requests[j - 1];
    out.requests[j] = r;
  }
}

}  // namespace

void CoalescerConfig::validate(std::string_view name) const {
  const std::string n(name);
  if (!power_of_two(constant_line_bytes) || constant_line_bytes > kMaxLineBytes)
    throw ConfigError(n + ".constant_line_bytes must be a power of two up to 128 (got " +
                      std::to_string(constant_line_bytes) + ")");
  if (shared_banks == 0) throw ConfigError(n + ".shared_banks must be at least 1");
  if (!power_of_two(shared_bank_bytes))
    throw ConfigError(n + ".shared_bank_bytes must be a power of two (got " +
                      std::to_string(shared_bank_bytes) + ")");
}

Coalescer::Coalescer(const CoalescerConfig& config, std::string_view name) : config_(config) {
  config_.validate(name);
}

void Coalescer::coalesce(const WarpAccess& a, CoalescedAccess& out) const {
  out.count = 0;
  out.shared_passes = 0;
  if (a.bytes != 1 && a.bytes != 2 && a.bytes != 4 && a.bytes != 8 && a.bytes != 16)
    throw std::invalid_argument("memory access of " + std::to_string(a.bytes) +
                                " bytes per lane (expected 1, 2, 4, 8 or 16)");
  if (a.active == 0) return;
  switch (a.space) {
    case MemSpace::Shared:
      out.shared_passes = shared_passes(a);
      return;
    case MemSpace::Constant:
      if (a.kind != MemKind::Load)
        throw std::invalid_argument("constant memory is read-only: only loads coalesce");
      coalesce_lines(a, config_.constant_line_bytes, out);
      return;
    case MemSpace::Global:
    case MemSpace::Local:
      coalesce_segments(a, out);
      return;
  }
}

void Coalescer::coalesce_segments(const WarpAccess& a, CoalescedAccess& out) const {
  const bool sectors = config_.skip_l1 || a.bypass_l1;
  const uint64_t segment = a.bytes == 1 ? 32 : sectors ? 32 : a.bytes == 2 ? 64 : 128;
  const bool split = a.space == MemSpace::Local && a.bytes > 4 && a.local_word_stride != 0;
  const uint32_t words = split ? a.bytes / 4 : 1;
  const uint64_t size = split ? 4 : a.bytes;
  const bool atomic = a.kind == MemKind::Atomic;

  const auto add = [&](uint64_t seg, uint32_t lane, const ByteMask& bytes) {
    LineRequest* r = nullptr;
    for (uint32_t i = 0; i < out.count && r == nullptr; ++i) {
      LineRequest& c = out.requests[i];
      // Atomics: lanes that write the same bytes need separate requests.
      if (c.address == seg && !(atomic && overlaps(c.byte_mask, bytes))) r = &c;
    }
    if (r == nullptr) {
      r = &out.requests[out.count++];
      *r = LineRequest{seg, static_cast<uint32_t>(segment), 0, 0, ByteMask{}};
    }
    r->lanes |= 1u << lane;
    r->byte_mask |= bytes;
    r->sectors = chunks_of(r->byte_mask);
  };

  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(a.active & (1u << lane))) continue;
    for (uint32_t w = 0; w < words; ++w) {
      const uint64_t addr = a.address[lane] + w * a.local_word_stride;
      const uint64_t end = addr + size;
      const uint64_t first = addr & ~(segment - 1);
      add(first, lane, bytes_in(first, segment, addr, end));
      const uint64_t last = (end - 1) & ~(segment - 1);
      if (last != first) add(last, lane, bytes_in(last, segment, addr, end));
    }
  }
  sort_by_address(out);
  for (uint32_t i = 0; i < out.count; ++i) reduce(out.requests[i]);
}

void Coalescer::coalesce_lines(const WarpAccess& a, uint32_t line_bytes,
                               CoalescedAccess& out) const {
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(a.active & (1u << lane))) continue;
    const uint64_t addr = a.address[lane];
    const uint64_t line = addr & ~uint64_t(line_bytes - 1);
    LineRequest* r = nullptr;
    for (uint32_t i = 0; i < out.count && r == nullptr; ++i)
      if (out.requests[i].address == line) r = &out.requests[i];
    if (r == nullptr) {
      r = &out.requests[out.count++];
      *r = LineRequest{line, line_bytes, 0, 0, ByteMask{}};
    }
    r->lanes |= 1u << lane;
    r->byte_mask |= bytes_in(line, line_bytes, addr, addr + a.bytes);
    r->sectors = chunks_of(r->byte_mask);
  }
  sort_by_address(out);
}

uint32_t Coalescer::shared_passes(const WarpAccess& a) const {
  // Distinct words per bank; the access takes as many passes as the busiest bank.
  std::array<uint64_t, kWarpSize> words{};
  uint32_t distinct = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(a.active & (1u << lane))) continue;
    const uint64_t word = a.address[lane] / config_.shared_bank_bytes;
    bool seen = false;
    for (uint32_t i = 0; i < distinct && !seen; ++i) seen = words[i] == word;
    if (!seen) words[distinct++] = word;
  }
  uint32_t passes = 0;
  for (uint32_t i = 0; i < distinct; ++i) {
    const uint64_t bank = words[i] % config_.shared_banks;
    uint32_t in_bank = 0;
    for (uint32_t j = 0; j < distinct; ++j) in_bank += (words[j] % config_.shared_banks) == bank;
    passes = std::max(passes, in_bank);
  }
  return passes;
}

}  // namespace warpreg::memory

#include "modules/ltrf/ltrf_vectors.h"

#include <vector>

#include "modules/ltrf/address_allocation.h"

namespace warpreg {

namespace {

constexpr uint32_t kSlots = 16;

/// A queue as one number: entry k (k = 0 the head) in bits [slot_bits × k, ...).
std::vector<uint32_t> packed(const std::vector<uint32_t>& queue, uint32_t slot_bits) {
  std::vector<uint32_t> words((slot_bits * kSlots + 31) / 32, 0);
  for (size_t k = 0; k < queue.size(); ++k) {
    const size_t at = slot_bits * k;
    words[at / 32] |= queue[k] << (at % 32);
  }
  return words;
}

void write_steps(vectors::RecordSink& out, uint64_t steps, uint64_t seed) {
  AddressAllocationUnit aau(kSlots);
  const uint32_t slot_bits = bits_for(kSlots);
  vectors::SplitMix64 rng(seed);
  for (uint64_t i = 0; i < steps; ++i) {
    const uint64_t r = rng.next();
    // The first slots + 2 steps fill the unit and try twice more (the "empty" answer);
    // then a random walk deallocates more often the fuller the unit is.
    const bool allocate =
        i < kSlots + 2 || aau.occupied_slots() == 0 || (r % kSlots) >= aau.occupied_slots();
    vectors::Record& rec = out.next();
    if (allocate) {
      const uint32_t got = aau.allocate();
      rec.set_enum("op", "allocate");
      if (got != AddressAllocationUnit::kNone) rec.set("granted", true).set("slot", got);
    } else {
      const auto& occupied = aau.occupied_queue();
      const uint32_t slot = occupied[(r >> 32) % occupied.size()];
      aau.deallocate(slot);
      rec.set_enum("op", "deallocate").set("slot", slot);
    }
    const std::vector<uint32_t> unused = packed(aau.unused_queue(), slot_bits);
    const std::vector<uint32_t> occupied = packed(aau.occupied_queue(), slot_bits);
    rec.set("unused_count", aau.free_slots());
    rec.set_words("unused", unused.data(), unused.size());
    rec.set("occupied_count", aau.occupied_slots());
    rec.set_words("occupied", occupied.data(), occupied.size());
    out.emit();
  }
}

}  // namespace

vectors::VectorGenerator aau_vector_generator() {
  const uint32_t slot_bits = bits_for(kSlots);
  vectors::VectorGenerator g;
  g.name = "aau";
  g.block = "ltrf-address-allocation-unit";
  g.description =
      "LTRF address allocation unit (16 cache banks): seeded allocations and deallocations "
      "with the result and the unused and occupied queues after each";
  g.doc = "docs/vectors.md#aau";
  g.count_meaning = "allocations and deallocations";
  g.parameters = {{"slots", kSlots}, {"slot_bits", slot_bits}};
  using namespace vectors;
  g.fields = {enum_field("op", {"allocate", "deallocate"}),
              bool_field("granted"),
              unsigned_field("slot", slot_bits),
              unsigned_field("unused_count", bits_for(kSlots + 1)),
              unsigned_field("unused", slot_bits * kSlots),
              unsigned_field("occupied_count", bits_for(kSlots + 1)),
              unsigned_field("occupied", slot_bits * kSlots)};
  g.records = [](uint64_t count) { return count; };
  g.write = write_steps;
  return g;
}

}  // namespace warpreg

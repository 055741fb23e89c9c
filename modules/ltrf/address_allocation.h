#pragma once
// LTRF's Address Allocation Unit (seed 004 §4.2, Figure 8): an *unused* queue of free
// slots and an *occupied* queue of allocated ones. An allocation takes the head of the
// unused queue and appends it to the occupied queue; a deallocation moves the entry
// back to the tail of the unused queue. One unit per warp hands out register-file-cache
// banks; one global unit hands out warp-offset addresses to active warps. The RFC
// baseline uses the occupied queue's head as its FIFO victim. Plain C++, no SystemC.
#include <cstdint>
#include <vector>

namespace warpreg {

class AddressAllocationUnit {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  /// `slots` entries 0..slots-1, all in the unused queue in order.
  AddressAllocationUnit() = default;
  explicit AddressAllocationUnit(uint32_t slots);

  /// Head of the unused queue moved to the occupied tail; kNone when the unused queue is empty.
  uint32_t allocate();
  /// Moves `slot` from the occupied queue to the unused tail. Throws std::logic_error
  /// when `slot` is not occupied.
  void deallocate(uint32_t slot);
  /// Every occupied slot back to the unused queue, in occupied order.
  void deallocate_all();
  /// Back to the state of a new unit: every slot unused, in order.
  void reset();

  /// Oldest occupied slot (FIFO victim); kNone when nothing is occupied.
  uint32_t oldest_occupied() const { return occupied_head_; }
  uint32_t slots() const { return slots_; }
  uint32_t free_slots() const { return unused_count_; }
  uint32_t occupied_slots() const { return slots_ - unused_count_; }
  /// The queues, head first (for tests and vectors: each builds a list).
  std::vector<uint32_t> unused_queue() const;
  std::vector<uint32_t> occupied_queue() const;

  /// Hardware: two queues of `slots` entries of ceil(log2 slots) bits each.
  uint64_t storage_bits() const;

 private:
  // Both queues in O(1) per operation: the unused queue is a ring (allocation takes its
  // head, deallocation appends), the occupied queue a doubly linked list through the
  // slots (a deallocation unlinks any slot).
  uint32_t slots_ = 0;
  std::vector<uint32_t> ring_;  ///< unused queue from ring_[unused_head_], unused_count_ long
  uint32_t unused_head_ = 0;
  uint32_t unused_count_ = 0;
  std::vector<uint32_t> older_, newer_;  ///< per occupied slot: its neighbours (kNone: none)
  std::vector<uint8_t> occupied_;        ///< per slot: in the occupied queue
  uint32_t occupied_head_ = kNone;       ///< oldest
  uint32_t occupied_tail_ = kNone;       ///< newest
};

/// ceil(log2(n)) for n >= 1 (1 for n == 1: a field is never narrower than one bit).
uint32_t bits_for(uint32_t n);

}  // namespace warpreg

#include "modules/interfaces/workload.h"

#include <algorithm>

#include "modules/interfaces/kernel_metadata.h"

namespace warpreg {

namespace {

/// Copies the ring entries [first, end) of `ring` into one twice as large (16 at first).
template <typename T>
void grow_ring(std::vector<T>& ring, uint32_t& mask, uint32_t first, uint32_t end) {
  const size_t capacity = std::max<size_t>(16, ring.size() * 2);
  if (capacity > (size_t{1} << 31))
    throw std::length_error("a warp stream holds more than 2^31 entries in flight");
  std::vector<T> grown(capacity);
  const auto new_mask = static_cast<uint32_t>(capacity - 1);
  for (uint32_t i = first; i != end; ++i) grown[i & new_mask] = ring[i & mask];
  ring.swap(grown);
  mask = new_mask;
}

}  // namespace

void WarpStream::restart() {
  first_ = produced_ = 0;
  values_first_ = values_end_ = 0;
  exit_produced_ = false;
}

void WarpStream::produce_through(uint32_t index) {
  // Indices run modulo 2^32 like the rings; one more than 2^31 behind is a retired one.
  if (index - first_ >= (uint32_t{1} << 31))
    throw std::logic_error("warp stream: instruction " + std::to_string(index) +
                           " was retired already");
  while (index - first_ >= produced_ - first_) {
    if (exit_produced_)
      throw std::logic_error("warp stream: instruction " + std::to_string(index) +
                             " lies past the exit");
    const uint32_t before = produced_;
    generate();
    if (produced_ == before) throw std::logic_error("warp stream: generate() produced nothing");
  }
}

void WarpStream::emit(const WarpInst& inst) {
  if (produced_ - first_ >= insts_.size()) {
    uint32_t flags_mask = inst_mask_;  // instructions retired out of order keep their flag
    grow_ring(retired_, flags_mask, first_, produced_);
    grow_ring(insts_, inst_mask_, first_, produced_);
  }
  insts_[produced_ & inst_mask_] = inst;
  retired_[produced_ & inst_mask_] = 0;
  ++produced_;
  if (inst.cls == InstClass::Exit) exit_produced_ = true;
}

WarpRegister& WarpStream::emit_value() {
  if (values_end_ - values_first_ >= values_.size())
    grow_ring(values_, value_mask_, values_first_, values_end_);
  return values_[values_end_++ & value_mask_];
}

void WarpStream::retire(uint32_t index) {
  retired_[index & inst_mask_] = 1;
  while (first_ != produced_ && retired_[first_ & inst_mask_]) ++first_;
  values_first_ = first_ != produced_ ? insts_[first_ & inst_mask_].value_index : values_end_;
}

void StoredWarpStream::play(const WarpTrace& trace) {
  trace_ = &trace;
  next_ = 0;
  restart();
}

void StoredWarpStream::generate() {
  if (trace_ == nullptr || next_ >= trace_->insts.size())
    throw std::logic_error("stored warp stream: no exit at the end of the warp");
  // A few instructions at a time: the ring stays as small as the consumer's window.
  const size_t end = std::min(trace_->insts.size(), next_ + 16);
  for (; next_ < end; ++next_) {
    WarpInst inst = trace_->insts[next_];
    const uint32_t stored = inst.value_index;
    inst.value_index = next_value_index();
    for (unsigned k = 0; k < inst.value_count(); ++k) emit_value() = trace_->values[stored + k];
    emit(inst);
    if (inst.cls == InstClass::Exit) break;
  }
}

WarpStream& StoredStreamSlots::play(uint32_t slot, const WarpTrace& trace) {
  if (slot >= slots_.size()) slots_.resize(size_t{slot} + 1);
  if (!slots_[slot]) slots_[slot] = std::make_unique<StoredWarpStream>();
  slots_[slot]->play(trace);
  return *slots_[slot];
}

WarpTrace record(WarpStream& stream) {
  WarpTrace out;
  visit_stream(stream, [&](const WarpInst& inst, uint32_t) {
    out.insts.push_back(inst);
    out.insts.back().value_index = static_cast<uint32_t>(out.values.size());
    for (unsigned k = 0; k < inst.value_count(); ++k) out.values.push_back(stream.value(inst, k));
  });
  return out;
}

MetadataSource& Workload::metadata() {
  static NoMetadata none;
  return none;
}

}  // namespace warpreg

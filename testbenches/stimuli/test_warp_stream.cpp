// The incremental warp stream (modules/interfaces/workload.h): instructions produced on
// demand, reclaimed as the consumer retires them in any order.
#include <catch2/catch.hpp>

#include "modules/interfaces/workload.h"

using namespace warpreg;

namespace {

/// Instruction i writes one value whose lanes hold i; the last one is the exit.
class Counting : public WarpStream {
 public:
  explicit Counting(uint32_t length) : length_(length) {}
  uint32_t generate_calls = 0;

 private:
  void generate() override {
    ++generate_calls;
    for (unsigned batch = 0; batch < 4 && next_ < length_; ++batch, ++next_) {
      WarpInst inst;
      inst.pc = next_;
      inst.cls = next_ + 1 == length_ ? InstClass::Exit : InstClass::Alu;
      inst.value_index = next_value_index();
      if (inst.cls == InstClass::Alu) {
        inst.num_dst = 1;
        emit_value().lane.fill(next_);
      }
      emit(inst);
    }
  }
  uint32_t length_;
  uint32_t next_ = 0;
};

}  // namespace

TEST_CASE("warp stream: produced on demand, reclaimed in order of the oldest retirement",
          "[stimuli][stream]") {
  Counting stream(1000);
  CHECK(stream.held() == 0);
  for (uint32_t i = 0; i < 8; ++i) CHECK(stream.at(i).pc == i);
  CHECK(stream.generate_calls == 2);
  for (uint32_t i = 1; i < 8; i += 2) stream.retire(i);  // out of order: 0 still in flight
  CHECK(stream.held() == 8);
  // Growing the ring past 16 entries keeps what was retired out of order.
  for (uint32_t i = 8; i < 40; ++i) {
    const WarpInst& inst = stream.at(i);
    CHECK(stream.value(inst, 0).lane[31] == i);
  }
  stream.retire(0);
  CHECK(stream.held() == 38);  // 0 and 1 reclaimed; 2 is in flight
  CHECK(stream.value(stream.at(2), 0).lane[0] == 2);
  CHECK(stream.value(stream.at(39), 0).lane[0] == 39);
}

TEST_CASE("warp stream: a consumer that retires as it goes holds a bounded window",
          "[stimuli][stream]") {
  Counting stream(1000000);
  uint32_t most = 0;
  uint64_t count = 0;
  visit_stream(stream, [&](const WarpInst& inst, uint32_t i) {
    REQUIRE(inst.pc == i);
    if (inst.num_dst) REQUIRE(stream.value(inst, 0).lane[5] == i);
    most = std::max(most, stream.held());
    ++count;
  });
  CHECK(count == 1000000);
  CHECK(most <= 4);
  CHECK_THROWS_AS(stream.at(1000000), std::logic_error);  // past the exit
}

TEST_CASE("warp stream: a stored trace plays whole and the slot restarts it", "[stimuli][stream]") {
  WarpTrace trace;
  for (uint32_t i = 0; i < 40; ++i) {
    WarpInst inst;
    inst.pc = i * 8;
    inst.num_dst = 1;
    inst.dst[0] = 3;
    inst.value_index = static_cast<uint32_t>(trace.values.size());
    trace.values.emplace_back();
    trace.values.back().lane.fill(i);
    trace.insts.push_back(inst);
  }
  WarpInst exit;
  exit.cls = InstClass::Exit;
  exit.value_index = static_cast<uint32_t>(trace.values.size());
  trace.insts.push_back(exit);

  StoredStreamSlots slots;
  WarpStream& stream = slots.play(2, trace);
  CHECK(stream.at(3).pc == 24);
  const WarpTrace whole = record(slots.play(2, trace));  // the same slot, from the start
  REQUIRE(whole.insts.size() == 41);
  CHECK(whole.values == trace.values);
  CHECK(&slots.play(2, trace) == &stream);
}

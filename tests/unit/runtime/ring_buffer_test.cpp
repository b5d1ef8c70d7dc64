#include "core/runtime/ring_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

using prof::core::RingBuffer;

namespace {
struct OwnedRing {
  explicit OwnedRing(uint64_t capacity)
      : memory(static_cast<char *>(std::aligned_alloc(64, RingBuffer::bytes_for(capacity)))),
        ring(RingBuffer::format(memory, capacity)) {}
  ~OwnedRing() { std::free(memory); }
  char *memory;
  RingBuffer ring;
};

prof_event event_with(uint64_t ts) {
  prof_event e{};
  e.type = PROF_EVENT_INSTANT;
  e.ts = ts;
  return e;
}
} // namespace

TEST(RingBuffer, CapacityIsAPowerOfTwoNotAboveTheRequest) {
  EXPECT_EQ(RingBuffer::capacity_for(1000), 512u);
  EXPECT_EQ(RingBuffer::capacity_for(1024), 1024u);
  EXPECT_EQ(RingBuffer::capacity_for(0), 2u);
}

TEST(RingBuffer, KeepsOrderAcrossTheWrap) {
  OwnedRing owned(8);
  std::vector<prof_event> out(8);
  uint64_t next = 0, expected = 0;
  for (int round = 0; round < 10; ++round) {
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(owned.ring.push(event_with(next++)));
    size_t n = owned.ring.pop(out.data(), out.size());
    ASSERT_EQ(n, 5u);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i].ts, expected++);
  }
}

TEST(RingBuffer, DropsAndCountsWhenFull) {
  OwnedRing owned(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(owned.ring.push(event_with(i)));
  EXPECT_FALSE(owned.ring.push(event_with(4)));
  EXPECT_FALSE(owned.ring.push(event_with(5)));
  EXPECT_EQ(owned.ring.dropped(), 2u);
  std::vector<prof_event> out(4);
  EXPECT_EQ(owned.ring.pop(out.data(), 4), 4u);
  EXPECT_EQ(out[3].ts, 3u);
  EXPECT_TRUE(owned.ring.push(event_with(6)));
}

TEST(RingBuffer, ProducerAndConsumerThreadsLoseNothingUnlessCounted) {
  OwnedRing owned(1024);
  constexpr uint64_t kEvents = 200000;
  std::thread producer([&] {
    for (uint64_t i = 0; i < kEvents; ++i) owned.ring.push(event_with(i));
  });
  std::vector<prof_event> out(256);
  uint64_t received = 0, last = 0;
  bool ordered = true;
  while (received + owned.ring.dropped() < kEvents) {
    size_t n = owned.ring.pop(out.data(), out.size());
    for (size_t i = 0; i < n; ++i) {
      if (received + i > 0 && out[i].ts <= last) ordered = false;
      last = out[i].ts;
    }
    received += n;
  }
  producer.join();
  received += owned.ring.pop(out.data(), out.size());
  EXPECT_TRUE(ordered);
  EXPECT_EQ(received + owned.ring.dropped(), kEvents);
}

// The consumer gives back the pages of what it read (RingBuffer::pop with a
// PageGiveBack, RingPool::set_give_back): what went back must never be a slot
// still to be read, and a ring's headers stay.
#include "core/ring_pool.hpp"
#include "tests/support/page_mapped.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using prof::core::PageGiveBack;
using prof::core::RingBuffer;
using prof::core::RingPool;
using prof::core::RingSlot;

namespace {

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

/// Private anonymous memory, as prof's own rings have.
struct Mapping {
  explicit Mapping(size_t bytes) : bytes((bytes + kPage - 1) & ~(kPage - 1)) {
    memory = static_cast<char *>(
        mmap(nullptr, this->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  }
  ~Mapping() { munmap(memory, bytes); }
  bool resident(const void *address) const { return prof::testing::page_mapped(address); }
  size_t bytes;
  char *memory;
};

prof_event numbered(uint64_t n) {
  prof_event e{};
  e.type = PROF_EVENT_INSTANT;
  e.ts = n;
  return e;
}

/// Address of slot `index` of the ring at `memory`.
const char *slot_at(const char *memory, uint64_t index) {
  return memory + sizeof(prof::core::RingHeader) + index * sizeof(prof_event);
}

} // namespace

TEST(RingBuffer, AReserveLeavesThatManySlotsFree) {
  Mapping mapping(RingBuffer::bytes_for(1024));
  RingBuffer::format(mapping.memory, 1024);
  RingBuffer ring = RingBuffer::attach(mapping.memory, 1024, 256);
  for (uint64_t i = 0; i < 768; ++i)
    ASSERT_TRUE(ring.push(numbered(i)));
  EXPECT_FALSE(ring.push(numbered(768)));
  const prof_event group[2] = {numbered(1), numbered(2)};
  EXPECT_FALSE(ring.push_group(group, 2));
  EXPECT_EQ(ring.dropped(), 2u);
}

TEST(RingBuffer, GivesBackThePagesItReadButNotTheHeadersOrWhatIsLeft) {
  constexpr uint64_t kCapacity = 4096;
  Mapping mapping(RingBuffer::bytes_for(kCapacity));
  RingBuffer::format(mapping.memory, kCapacity);
  RingBuffer ring = RingBuffer::attach(mapping.memory, kCapacity, 256);
  for (uint64_t i = 0; i < 3000; ++i)
    ASSERT_TRUE(ring.push(numbered(i)));
  std::vector<prof_event> out(2000);
  PageGiveBack give_back{256, 0};
  ASSERT_EQ(ring.pop(out.data(), out.size(), &give_back), 2000u);
  EXPECT_TRUE(mapping.resident(mapping.memory)); // the header
  EXPECT_FALSE(mapping.resident(slot_at(mapping.memory, 100)));
  EXPECT_FALSE(mapping.resident(slot_at(mapping.memory, 1900)));
  // The page holding the next slot to read, and those after it, stay.
  EXPECT_TRUE(mapping.resident(slot_at(mapping.memory, 2000)));
  EXPECT_TRUE(mapping.resident(slot_at(mapping.memory, 2999)));
  ASSERT_EQ(ring.pop(out.data(), out.size(), &give_back), 1000u);
  EXPECT_EQ(out[0].ts, 2000u);
  EXPECT_EQ(out[999].ts, 2999u);
  EXPECT_FALSE(mapping.resident(slot_at(mapping.memory, 2000)));
}

TEST(RingBuffer, AProducerWithAReserveNeverWritesWhatTheConsumerGivesBack) {
  // Small ring, many laps, small reads: each read gives back pages right
  // behind it while the producer runs as close as it may.
  constexpr uint64_t kCapacity = 2048, kEvents = 400000;
  Mapping mapping(RingBuffer::bytes_for(kCapacity));
  RingBuffer::format(mapping.memory, kCapacity);
  std::thread producer([&] {
    RingBuffer ring = RingBuffer::attach(mapping.memory, kCapacity, 256);
    for (uint64_t i = 1; i <= kEvents; ++i)
      ring.push(numbered(i));
  });
  RingBuffer ring = RingBuffer::attach(mapping.memory, kCapacity);
  PageGiveBack give_back{256, 0};
  std::vector<prof_event> out(300);
  uint64_t received = 0, last = 0, out_of_order = 0;
  const auto read = [&] {
    const size_t n = ring.pop(out.data(), out.size(), &give_back);
    for (size_t i = 0; i < n; ++i) {
      if (out[i].ts <= last) ++out_of_order; // a zeroed slot reads as 0
      last = out[i].ts;
    }
    received += n;
  };
  while (received + ring.dropped() < kEvents)
    read();
  producer.join();
  read();
  EXPECT_EQ(out_of_order, 0u);
  EXPECT_EQ(received + ring.dropped(), kEvents);
}

TEST(RingPool, ASlowRingGivesBackWhatItsFullDrainsRead) {
  constexpr uint64_t kCapacity = 16384;
  const size_t stride = (RingBuffer::bytes_for(kCapacity) + kPage - 1) & ~(kPage - 1);
  Mapping mapping(stride);
  RingSlot slot;
  std::atomic<uint64_t> no_ring{0};
  RingPool pool(mapping.memory, stride, &slot, 1, kCapacity, 0, &no_ring, false);
  pool.set_give_back(RingPool::GiveBack::PrivateMemory);
  std::thread([&] {
    for (uint64_t i = 0; i < 400; ++i)
      pool.emit(numbered(i));
  }).join();
  // 400 events in 100 ms: the ring would take minutes to go round.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(mapping.resident(slot_at(mapping.memory, 100)));
  uint64_t drained = 0;
  pool.drain([&](prof_event *, size_t n) { drained += n; }, true);
  EXPECT_EQ(drained, 400u);
  EXPECT_TRUE(mapping.resident(mapping.memory));
  EXPECT_FALSE(mapping.resident(slot_at(mapping.memory, 100)));
}

TEST(RingPool, AFastRingKeepsItsPages) {
  constexpr uint64_t kCapacity = 16384;
  const size_t stride = (RingBuffer::bytes_for(kCapacity) + kPage - 1) & ~(kPage - 1);
  Mapping mapping(stride);
  RingSlot slot;
  std::atomic<uint64_t> no_ring{0};
  RingPool pool(mapping.memory, stride, &slot, 1, kCapacity, 0, &no_ring, false);
  pool.set_give_back(RingPool::GiveBack::PrivateMemory);
  // Half the ring at once: going round within the cycle, its pages would be
  // written again soon.
  std::thread([&] {
    for (uint64_t i = 0; i < kCapacity / 2; ++i)
      pool.emit(numbered(i));
  }).join();
  pool.drain([](prof_event *, size_t) {}, true);
  EXPECT_TRUE(mapping.resident(slot_at(mapping.memory, 100)));
}

TEST(RingPool, ARingWithoutGiveBackKeepsItsPages) {
  constexpr uint64_t kCapacity = 16384;
  const size_t stride = (RingBuffer::bytes_for(kCapacity) + kPage - 1) & ~(kPage - 1);
  Mapping mapping(stride);
  RingSlot slot;
  std::atomic<uint64_t> no_ring{0};
  RingPool pool(mapping.memory, stride, &slot, 1, kCapacity, 0, &no_ring, false);
  std::thread([&] {
    for (uint64_t i = 0; i < 400; ++i)
      pool.emit(numbered(i));
  }).join();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  pool.drain([](prof_event *, size_t) {}, true);
  EXPECT_TRUE(mapping.resident(slot_at(mapping.memory, 100)));
}

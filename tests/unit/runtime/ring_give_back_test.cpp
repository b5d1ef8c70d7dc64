// The consumer gives back the pages of what it read (RingBuffer::pop with a
// PageGiveBack, RingPool::set_give_back): what went back must never be a slot
// still to be read, and a ring's headers stay.
#include "core/runtime/ring_pool.hpp"
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

namespace {

/// One ring of 16,384 slots in a pool of its own, in private memory.
struct OneRingPool {
  static constexpr uint64_t kCapacity = 16384;
  explicit OneRingPool(RingPool::GiveBack mode)
      : mapping((RingBuffer::bytes_for(kCapacity) + kPage - 1) & ~(kPage - 1)),
        pool(mapping.memory, mapping.bytes, &slot, 1, kCapacity, 0, &no_ring, false) {
    pool.set_give_back(mode);
  }
  /// Emits `count` events from a thread of their own.
  void emit(uint64_t count) {
    std::thread([&] {
      for (uint64_t i = 0; i < count; ++i)
        pool.emit(numbered(i));
    }).join();
  }
  uint64_t drain() {
    uint64_t drained = 0;
    pool.drain([&](prof_event *, size_t n) { drained += n; }, true);
    return drained;
  }
  bool resident(uint64_t slot_index) const {
    return mapping.resident(slot_at(mapping.memory, slot_index));
  }

  Mapping mapping;
  RingSlot slot;
  std::atomic<uint64_t> no_ring{0};
  RingPool pool;
};

} // namespace

TEST(RingPool, ASlowRingGivesBackWhatItsFullDrainsRead) {
  OneRingPool one(RingPool::GiveBack::PrivateMemory);
  one.emit(400);
  // 400 events in 100 ms: the ring would take minutes to go round.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(one.resident(100));
  EXPECT_EQ(one.drain(), 400u);
  EXPECT_TRUE(one.mapping.resident(one.mapping.memory)); // the header
  EXPECT_FALSE(one.resident(100));
}

TEST(RingPool, AFastRingKeepsItsPages) {
  OneRingPool one(RingPool::GiveBack::PrivateMemory);
  // Half the ring at once: going round within the cycle, its pages would be
  // written again soon.
  one.emit(OneRingPool::kCapacity / 2);
  EXPECT_EQ(one.drain(), OneRingPool::kCapacity / 2);
  EXPECT_TRUE(one.resident(100));
}

TEST(RingPool, ARingWithoutGiveBackKeepsItsPages) {
  OneRingPool one(RingPool::GiveBack::Never);
  one.emit(400);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(one.drain(), 400u);
  EXPECT_TRUE(one.resident(100));
}

// The memory source's heap table: every block in and out by address, exact
// totals, the peak and when it was made, size classes, growth far past its
// first capacity, and threads adding and removing at once.
#include "heap_table.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace prof::memory {
namespace {

uint64_t g_clock = 0;
uint64_t fake_now() { return g_clock; }

TEST(HeapTable, BlocksComeAndGoWithExactTotals) {
  static HeapTable table; // large: not on the stack
  g_clock = 100;
  ASSERT_TRUE(table.add({0x1000, 100, 0xA}, &fake_now));
  g_clock = 200;
  ASSERT_TRUE(table.add({0x2000, 5000, 0xB}, &fake_now));
  g_clock = 300;
  Block removed;
  ASSERT_TRUE(table.remove(0x1000, &removed));
  EXPECT_EQ(removed.size, 100u);
  EXPECT_EQ(removed.site, 0xAu);
  EXPECT_FALSE(table.remove(0x1000, nullptr));        // twice: not known any more
  EXPECT_FALSE(table.remove(0x9000, nullptr));        // never seen
  ASSERT_TRUE(table.add({0x1000, 10, 0xC}, &fake_now)); // the address again

  const HeapTotals t = table.totals();
  EXPECT_EQ(t.allocations, 3u);
  EXPECT_EQ(t.frees, 1u);
  EXPECT_EQ(t.bytes_allocated, 5110u);
  EXPECT_EQ(t.in_use, 5010);
  EXPECT_EQ(t.peak, 5100u);
  EXPECT_EQ(t.peak_ns, 200u);
  EXPECT_EQ(t.unknown_frees, 2u);
  EXPECT_EQ(t.by_class[size_class(100)], 1u);
  EXPECT_EQ(t.by_class[size_class(10)], 1u);
  uint64_t live = 0, bytes = 0;
  table.for_each([&](const Block &b) {
    ++live;
    bytes += b.size;
  });
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(bytes, 5010u);
}

TEST(HeapTable, SizeClassesArePowersOfTwoFrom16Bytes) {
  EXPECT_EQ(size_class(0), 0);
  EXPECT_EQ(size_class(16), 0);
  EXPECT_EQ(size_class(17), 1);
  EXPECT_EQ(size_class(32), 1);
  EXPECT_EQ(size_class(4096), 8);
  EXPECT_EQ(size_class(~uint64_t{0}), kSizeClasses - 1);
}

#if defined(__SANITIZE_THREAD__)
constexpr int kBlocksEach = 25'000; // ThreadSanitizer is 100 times slower
#else
constexpr int kBlocksEach = 250'000;
#endif

TEST(HeapTable, ThreadsAddAndRemoveAMillionBlocks) {
  static HeapTable table;
  constexpr int kThreads = 4, kBlocks = kBlocksEach;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      const uintptr_t base = (static_cast<uintptr_t>(t) + 1) << 40;
      for (int i = 0; i < kBlocks; ++i)
        ASSERT_TRUE(table.add({base + uintptr_t(i) * 16, 8, base}, nullptr));
      for (int i = 0; i < kBlocks; i += 2) // half of them go
        ASSERT_TRUE(table.remove(base + uintptr_t(i) * 16, nullptr));
    });
  for (std::thread &thread : threads)
    thread.join();
  const HeapTotals t = table.totals();
  EXPECT_EQ(t.allocations, uint64_t{kThreads} * kBlocks);
  EXPECT_EQ(t.frees, uint64_t{kThreads} * kBlocks / 2);
  EXPECT_EQ(t.in_use, int64_t{kThreads} * kBlocks / 2 * 8);
  // At least one thread's blocks were all live at once, at most everyone's.
  EXPECT_GE(t.peak, uint64_t{kBlocks} * 8);
  EXPECT_LE(t.peak, uint64_t{kThreads} * kBlocks * 8);
  uint64_t live = 0;
  table.for_each([&](const Block &) { ++live; });
  EXPECT_EQ(live, uint64_t{kThreads} * kBlocks / 2);
}

// --memory-profile events: every add and remove of a known block, with its
// thread and time, taken in time order across shards; a full log counts
// what it could not keep.
TEST(HeapTable, TheEventLogKeepsEachAllocationAndFreeInTimeOrder) {
  static HeapTable table;
  EXPECT_FALSE(table.logs_events());
  g_clock = 10;
  ASSERT_TRUE(table.add({0x1000, 64, 0xA}, &fake_now, 7)); // before the log: not in it
  ASSERT_TRUE(table.start_events(4, &fake_now));
  EXPECT_TRUE(table.logs_events());
  g_clock = 20;
  ASSERT_TRUE(table.add({0x2000, 100, 0xB}, &fake_now, 8));
  g_clock = 30;
  ASSERT_TRUE(table.remove(0x1000, nullptr, false, 9));
  EXPECT_FALSE(table.remove(0x5000, nullptr, false, 9)); // unknown: no event
  g_clock = 25;                                          // another shard's earlier clock
  ASSERT_TRUE(table.add({0x3000, 300, 0xC}, &fake_now, 8));
  std::vector<HeapEvent> events;
  EXPECT_EQ(table.take_events(events), 0u);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].ts, 20u);
  EXPECT_EQ(events[0].address, 0x2000u);
  EXPECT_EQ(events[0].size, 100u);
  EXPECT_EQ(events[0].tid, 8);
  EXPECT_FALSE(events[0].free);
  EXPECT_EQ(events[1].address, 0x3000u);
  EXPECT_EQ(events[2].address, 0x1000u);
  EXPECT_EQ(events[2].size, 64u); // the freed block's size
  EXPECT_EQ(events[2].tid, 9);
  EXPECT_TRUE(events[2].free);

  // The log holds 4 between takes: one address in and out, one shard.
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(table.add({0x7000, 8, 0xD}, &fake_now, 1));
    ASSERT_TRUE(table.remove(0x7000, nullptr, false, 1));
  }
  events.clear();
  EXPECT_EQ(table.take_events(events), 6u);
  EXPECT_EQ(events.size(), 4u);
  events.clear();
  EXPECT_EQ(table.take_events(events), 0u); // taken: the log starts again
  EXPECT_TRUE(events.empty());
}

// Threads allocating and freeing while the worker takes the log: every
// event is taken once or counted as lost, each take is in time order, and
// every event of a take comes after every event of the take before it.
TEST(HeapTable, TakesWhileThreadsLogFollowEachOtherInTime) {
  static HeapTable table;
  static std::atomic<uint64_t> ticks{0};
  constexpr int kThreads = 3, kBlocks = 20'000;
  ASSERT_TRUE(table.start_events(4096, [] { return ticks.fetch_add(1) + 1; }));
  std::atomic<int> running{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &running] {
      const uintptr_t base = (static_cast<uintptr_t>(t) + 1) << 40;
      for (int i = 0; i < kBlocks; ++i) {
        ASSERT_TRUE(table.add({base + uintptr_t(i % 64) * 16, 8, base}, nullptr, t + 1));
        ASSERT_TRUE(table.remove(base + uintptr_t(i % 64) * 16, nullptr, false, t + 1));
      }
      --running;
    });
  uint64_t taken = 0, lost = 0, last_of_previous = 0;
  bool ordered = true;
  for (bool last = false; !last;) {
    last = running.load() == 0;
    std::vector<HeapEvent> events;
    lost += table.take_events(events);
    taken += events.size();
    for (size_t i = 0; i < events.size(); ++i)
      ordered &= events[i].ts > (i == 0 ? last_of_previous : events[i - 1].ts);
    if (!events.empty()) last_of_previous = events.back().ts;
    std::this_thread::yield();
  }
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_TRUE(ordered);
  EXPECT_EQ(taken + lost, uint64_t{kThreads} * kBlocks * 2);
  EXPECT_GT(taken, 0u);
}

} // namespace
} // namespace prof::memory

#include "core/events/event_bus.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <thread>
#include <vector>

using prof::core::EventBus;
using prof::core::EventBusConfig;

namespace {
prof_event instant(uint32_t track, uint64_t ts) {
  prof_event e{};
  e.type = PROF_EVENT_INSTANT;
  e.track = track;
  e.ts = ts;
  return e;
}
} // namespace

TEST(EventBus, EachThreadGetsItsOwnRingAndNothingIsLost) {
  EventBus bus(EventBusConfig{1 << 20, 1 << 19, 8});
  constexpr int kThreads = 4;
  constexpr uint64_t kEach = 5000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < kEach; ++i) bus.emit(instant(t + 1, i));
    });
  for (auto &thread : threads) thread.join();
  std::map<uint32_t, std::vector<uint64_t>> seen;
  bus.drain(
      [&](prof_event *events, size_t n) {
        for (size_t i = 0; i < n; ++i) seen[events[i].track].push_back(events[i].ts);
      },
      true);
  ASSERT_EQ(seen.size(), size_t(kThreads));
  for (auto &[track, times] : seen) {
    ASSERT_EQ(times.size(), kEach) << "track " << track;
    for (uint64_t i = 0; i < kEach; ++i) EXPECT_EQ(times[i], i);
  }
  EXPECT_EQ(bus.dropped(), 0u);
}

TEST(EventBus, FullRingDropsAreCountedPerRing) {
  EventBus bus(EventBusConfig{64 * sizeof(prof_event), 32 * sizeof(prof_event), 2});
  std::thread([&] {
    for (int i = 0; i < 100; ++i) bus.emit(instant(1, i));
  }).join();
  auto drops = bus.drops();
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].dropped, 36u);
  EXPECT_GT(drops[0].tid, 0);
  EXPECT_EQ(bus.dropped(), 36u);
}

TEST(EventBus, WatermarkDrainSkipsRingsBelowIt) {
  EventBus bus(EventBusConfig{1024 * sizeof(prof_event), 100 * sizeof(prof_event), 2});
  for (int i = 0; i < 10; ++i) bus.emit(instant(1, i));
  size_t got = bus.drain([](prof_event *, size_t) {}, false);
  EXPECT_EQ(got, 0u);
  for (int i = 0; i < 100; ++i) bus.emit(instant(1, i));
  got = bus.drain([](prof_event *, size_t) {}, false);
  EXPECT_EQ(got, 110u);
}

TEST(EventBus, ThreadsThatExitGiveTheirRingBack) {
  EventBus bus(EventBusConfig{1024 * sizeof(prof_event), 512 * sizeof(prof_event), 2});
  uint64_t received = 0;
  for (int round = 0; round < 10; ++round) {
    std::thread([&] { bus.emit(instant(1, round)); }).join();
    received += bus.drain([](prof_event *, size_t) {}, true);
  }
  EXPECT_EQ(received, 10u);
  EXPECT_EQ(bus.dropped_without_ring(), 0u);
}

TEST(EventBus, ThreadsBeyondThePoolAreCountedAsDrops) {
  EventBus bus(EventBusConfig{1024 * sizeof(prof_event), 512 * sizeof(prof_event), 1});
  std::atomic<bool> hold{true};
  std::thread owner([&] {
    bus.emit(instant(1, 0));
    while (hold.load()) std::this_thread::yield();
  });
  while (bus.drain([](prof_event *, size_t) {}, true) == 0) std::this_thread::yield();
  bus.emit(instant(2, 0)); // this thread finds no free ring
  EXPECT_EQ(bus.dropped_without_ring(), 1u);
  EXPECT_EQ(bus.dropped(), 1u);
  // Listed with the drops, so the report keeps it (not only the footer).
  const std::vector<prof::core::RingDrops> drops = bus.drops();
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].dropped, 1u);
  hold = false;
  owner.join();
}

// A thread's ring goes back when its thread_local destructors run, yet code
// running after them (the main thread's static destructors and ELF fini
// functions at exit: the agent's) may still emit. Those events must not go
// into the given-back ring, which a drain may free (and clear) at any time.
TEST(EventBus, EmitsAfterTheThreadGaveItsRingBackAreKept) {
  EventBus bus(EventBusConfig{1 << 20, 1 << 19, 4});
  std::vector<uint64_t> seen;
  const auto drain = [&] {
    bus.drain(
        [&](prof_event *events, size_t n) {
          for (size_t i = 0; i < n; ++i) seen.push_back(events[i].ts);
        },
        true);
  };
  struct LateEmitter {
    EventBus &bus;
    const std::function<void()> &drain;
    ~LateEmitter() {
      drain(); // prof drains between the ring's return and the late emits
      bus.emit(instant(1, 2));
    }
  };
  std::thread thread([&] {
    // Built before the first emit, so destroyed after the ring's exit hook.
    thread_local LateEmitter late{bus, drain};
    (void)late;
    bus.emit(instant(1, 1));
  });
  thread.join();
  drain();
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2}));
}

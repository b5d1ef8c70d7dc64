// RawMutex excludes like a mutex, contended or not.
#include "core/runtime/raw_mutex.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace prof::core {
namespace {

TEST(RawMutex, ExcludesAcrossThreads) {
  RawMutex mutex;
  uint64_t counter = 0; // plain: only the lock orders the increments
  constexpr int kThreads = 4, kEach = 50000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        std::lock_guard lock(mutex);
        ++counter;
        if (i % 1000 == 0) std::this_thread::yield(); // holds it while others wait
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(counter, uint64_t{kThreads} * kEach);
}

TEST(RawMutex, TryLockFailsWhileTaken) {
  RawMutex mutex;
  ASSERT_TRUE(mutex.try_lock());
  bool other = true;
  std::thread([&] { other = mutex.try_lock(); }).join();
  EXPECT_FALSE(other);
  mutex.unlock();
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

} // namespace
} // namespace prof::core

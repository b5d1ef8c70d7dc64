// Stopping the mpi source waits for every call still recording: threads
// that record as fast as they can while the main thread takes their
// recorder away and frees it, again and again, never touch a freed one
// (ASan would say so) and never see it retired.
#include "recording_guard.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace prof::mpi {
namespace {

struct Recorder {
  std::atomic<uint64_t> alive{0xA11CE};
  std::atomic<uint64_t> calls{0};
};

TEST(RecordingGuard, ARecorderIsFreedOnlyOnceNoThreadIsInsideIt) {
  prepare_recording_guard();
  std::atomic<Recorder *> current{nullptr};
  std::atomic<bool> done{false};
  std::atomic<uint64_t> seen_retired{0}, recorded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      while (!done.load(std::memory_order_relaxed)) {
        const RecordingMark mark;
        if (Recorder *r = current.load(std::memory_order_relaxed)) {
          // A recording takes a while: the window a broken guard would lose it in.
          for (int i = 0; i < 200; ++i) {
            if (r->alive.load(std::memory_order_relaxed) != 0xA11CE) {
              seen_retired.fetch_add(1);
              break;
            }
            r->calls.fetch_add(1, std::memory_order_relaxed);
          }
          recorded.fetch_add(1, std::memory_order_relaxed);
        }
      }
    });
  // 300 rounds, and on a loaded machine more until a thread has recorded
  // at least once (the guard is only tested while recordings happen).
  for (int round = 0; round < 300 || (recorded.load() == 0 && round < 1'000'000); ++round) {
    auto recorder = std::make_unique<Recorder>();
    current.store(recorder.get(), std::memory_order_seq_cst);
    std::this_thread::yield();
    current.store(nullptr, std::memory_order_seq_cst);
    wait_for_recordings();
    recorder->alive.store(0, std::memory_order_relaxed); // retired: no thread may see this
    recorder.reset();
  }
  done = true;
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(seen_retired.load(), 0u);
  EXPECT_GT(recorded.load(), 0u);
}

} // namespace
} // namespace prof::mpi

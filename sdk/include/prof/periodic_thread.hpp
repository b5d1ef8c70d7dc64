// Header-only helper for sampling sources: a thread that calls a function at
// a fixed rate until stopped.
#ifndef PROF_PERIODIC_THREAD_HPP
#define PROF_PERIODIC_THREAD_HPP

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace prof {

/// Calls `tick` every `period` on its own thread. Deadlines are absolute, so
/// the rate does not drift; ticks missed while the machine was busy are
/// skipped and counted, never run in a burst. stop() returns promptly.
class PeriodicThread {
public:
  struct Hooks {
    std::function<void()> on_start; ///< first thing on the thread (timer slack, ...)
    std::function<void()> on_exit;  ///< last thing on the thread (statistics, ...)
  };

  PeriodicThread() = default;
  PeriodicThread(const PeriodicThread &) = delete;
  PeriodicThread &operator=(const PeriodicThread &) = delete;
  ~PeriodicThread() { stop(); }

  /// Starts ticking; false when already running or the period is not positive.
  bool start(std::chrono::nanoseconds period, std::function<void()> tick, Hooks hooks = {}) {
    if (thread_.joinable() || period.count() <= 0) return false;
    {
      std::lock_guard lock(mutex_);
      stopping_ = false;
      paused_ = false;
    }
    ticks_ = 0;
    missed_ = 0;
    thread_ = std::thread([this, period, tick = std::move(tick), hooks = std::move(hooks)] {
      if (hooks.on_start) hooks.on_start();
      run(period, tick);
      if (hooks.on_exit) hooks.on_exit();
    });
    return true;
  }
  /// Stops and joins the thread; a tick in progress finishes first.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  /// While paused the thread keeps time but does not call `tick`.
  void set_paused(bool paused) {
    std::lock_guard lock(mutex_);
    paused_ = paused;
  }
  bool running() const { return thread_.joinable(); }
  /// Ticks run and ticks skipped so far.
  uint64_t ticks() const { return ticks_.load(std::memory_order_relaxed); }
  uint64_t missed() const { return missed_.load(std::memory_order_relaxed); }

private:
  void run(std::chrono::nanoseconds period, const std::function<void()> &tick) {
    using clock = std::chrono::steady_clock;
    auto deadline = clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      if (!paused_) {
        lock.unlock();
        tick();
        ticks_.fetch_add(1, std::memory_order_relaxed);
        lock.lock();
      }
      deadline += period;
      const auto now = clock::now();
      if (deadline < now) {
        const auto behind = (now - deadline) / period + 1;
        missed_.fetch_add(static_cast<uint64_t>(behind), std::memory_order_relaxed);
        deadline += behind * period;
      }
      wake_.wait_until(lock, deadline, [this] { return stopping_; });
    }
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool paused_ = false;
  std::atomic<uint64_t> ticks_{0};
  std::atomic<uint64_t> missed_{0};
};

} // namespace prof

#endif

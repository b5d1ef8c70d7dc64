// A stream: commands run in order on the stream's own worker thread, started
// on the first command and asleep while the queue is empty.
#ifndef PROF_GCUSIM_COMMAND_STREAM_HPP
#define PROF_GCUSIM_COMMAND_STREAM_HPP

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace prof::gcusim {

class CommandStream {
public:
  CommandStream(uint32_t device, uint32_t id) : device_(device), id_(id) {}
  /// Runs what is queued, then ends the worker.
  ~CommandStream();
  CommandStream(const CommandStream &) = delete;
  CommandStream &operator=(const CommandStream &) = delete;

  uint32_t device() const noexcept { return device_; }
  /// Process-wide stream number that records carry (never 0).
  uint32_t id() const noexcept { return id_; }
  void enqueue(std::function<void()> command);
  /// Returns when everything queued before the call has run.
  void synchronize();
  /// Like synchronize(), but gives up at `deadline`; true when everything ran.
  bool synchronize_until(std::chrono::steady_clock::time_point deadline);
  /// From now on, workers of every stream skip the commands they have not
  /// started: at process exit, what is left may use memory being destroyed.
  static void halt_all() noexcept { halted_.store(true); }

private:
  void run();

  const uint32_t device_;
  const uint32_t id_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable progress_;
  std::deque<std::function<void()>> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  bool stopping_ = false;
  std::thread worker_;
  static inline std::atomic<bool> halted_{false};
};

} // namespace prof::gcusim

#endif

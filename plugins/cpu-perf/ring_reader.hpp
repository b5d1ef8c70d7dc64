// A thread that waits on the perf fds (poll with a timeout, woken by the
// rings' watermark) and copies raw records out of the rings, one byte store
// per ring, until stopped; a consumer takes the stores as they fill.
#ifndef PROF_PLUGINS_CPU_PERF_RING_READER_HPP
#define PROF_PLUGINS_CPU_PERF_RING_READER_HPP

#include "perf_records.hpp"
#include "perf_ring.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace prof::cpu_perf {

class RingReader {
public:
  ~RingReader() { stop(); }

  /// Starts reading `rings` (fds[i] belongs to rings[i]); both outlive
  /// stop(). Samples' stack copies are trimmed as they are copied.
  void start(std::vector<int> fds, std::vector<PerfRing *> rings, const RecordLayout &layout);
  /// Stops the thread and copies what the rings still hold.
  void stop();
  /// Hands over what was copied since the last take, one store per ring,
  /// and returns the CLOCK_MONOTONIC time at which the last copy began: a
  /// record not yet copied was written after it. The stores `stores` held
  /// are emptied and copied into next, so their memory serves again.
  uint64_t take(std::vector<std::vector<uint8_t>> &stores);
  /// Drops what was copied (a new capture).
  void clear();
  /// While the copies not yet taken hold `limit` bytes, the thread stops
  /// copying: the rings fill and the kernel counts what it loses, rather
  /// than prof's memory growing without bound. Once they hold `wake` bytes,
  /// the thread calls `on_filled` (set before start) after each copy.
  void set_limits(size_t wake, size_t limit, std::function<void()> on_filled) {
    wake_ = wake;
    limit_ = limit;
    on_filled_ = std::move(on_filled);
  }

private:
  void run();
  /// Copies what the rings hold; true when the copies reach the wake mark.
  bool drain_all(bool whole);

  std::vector<int> fds_;
  std::vector<PerfRing *> rings_;
  RecordLayout layout_;
  std::vector<std::vector<uint8_t>> stores_;
  size_t held_ = 0;                           ///< bytes in stores_
  size_t wake_ = SIZE_MAX, limit_ = SIZE_MAX; ///< see set_limits()
  size_t room_ = 0;                           ///< bytes reserved per store
  std::function<void()> on_filled_;
  uint64_t drained_at_ = 0; ///< when the last copy began
  std::mutex mutex_;        ///< guards rings_ and stores_
  std::atomic<bool> stopping_{false};
  int wake_fd_ = -1; ///< eventfd that ends the poll at stop()
  std::thread thread_;
};

} // namespace prof::cpu_perf

#endif

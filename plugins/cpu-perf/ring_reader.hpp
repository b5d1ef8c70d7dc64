// A thread that waits on the perf fds (poll with a timeout, woken by the
// rings' watermark) and copies raw records out of the rings, one byte store
// per ring, until stopped.
#ifndef PROF_PLUGINS_CPU_PERF_RING_READER_HPP
#define PROF_PLUGINS_CPU_PERF_RING_READER_HPP

#include "perf_ring.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace prof::cpu_perf {

class RingReader {
public:
  ~RingReader() { stop(); }

  /// Starts reading `rings` (fds[i] belongs to rings[i]); both outlive stop().
  void start(std::vector<int> fds, std::vector<PerfRing *> rings);
  /// Stops the thread and copies what the rings still hold.
  void stop();
  /// The copied bytes of ring i; valid after stop().
  std::vector<std::vector<uint8_t>> &stores() { return stores_; }
  /// Drops what was copied (a new capture).
  void clear();

private:
  void run();
  void drain_all();

  std::vector<int> fds_;
  std::vector<PerfRing *> rings_;
  std::vector<std::vector<uint8_t>> stores_;
  std::mutex mutex_; ///< guards rings_ while draining
  std::atomic<bool> stopping_{false};
  int wake_fd_ = -1; ///< eventfd that ends the poll at stop()
  std::thread thread_;
};

} // namespace prof::cpu_perf

#endif

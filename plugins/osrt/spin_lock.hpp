// A lock made of one atomic flag, for the recorder's small shared tables: it
// never calls into the C library (whose lock functions are interposed) and
// can be reset in a forked child.
#ifndef PROF_PLUGINS_OSRT_SPIN_LOCK_HPP
#define PROF_PLUGINS_OSRT_SPIN_LOCK_HPP

#include <atomic>

namespace prof::osrt {

class SpinLock {
public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed))
        __builtin_ia32_pause();
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }
  /// For a forked child, whose other threads (perhaps holding it) are gone.
  void reset() noexcept { locked_.store(false, std::memory_order_relaxed); }

private:
  std::atomic<bool> locked_{false};
};

} // namespace prof::osrt

#endif

// A lock made of one atomic flag, for process-scope plugins that take locks
// inside the application's calls (osrt's recorder, the memory source's heap
// table): it never calls into the C library, whose lock and allocation
// functions a plugin may interpose, and can be reset in a forked child.
// Header-only.
#ifndef PROF_SPIN_LOCK_HPP
#define PROF_SPIN_LOCK_HPP

#include <atomic>

namespace prof {

/// Spins until the flag is its own; for short critical sections.
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

} // namespace prof

#endif

// A mutex that calls no function a tracing plugin can interpose: the futex
// system call itself, never pthread_mutex_lock or sched_yield. The host
// code that runs inside the application (the shared catalog, the ring
// pools) takes it. With std::mutex, osrt timed the host's own lock when it
// was contended and, holding it, recorded the wait through the same host:
// the thread waited for itself and the application hung.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace prof::core {

class RawMutex {
public:
  RawMutex() = default;
  RawMutex(const RawMutex &) = delete;
  RawMutex &operator=(const RawMutex &) = delete;

  void lock() noexcept {
    // 0 free, 1 taken, 2 taken with waiters (Drepper, "Futexes Are Tricky").
    uint32_t seen = 0;
    if (state_.compare_exchange_strong(seen, 1, std::memory_order_acquire)) return;
    if (seen != 2) seen = state_.exchange(2, std::memory_order_acquire);
    while (seen != 0) {
      syscall(SYS_futex, word(), FUTEX_WAIT_PRIVATE, 2, nullptr, nullptr, 0);
      seen = state_.exchange(2, std::memory_order_acquire);
    }
  }
  bool try_lock() noexcept {
    uint32_t seen = 0;
    return state_.compare_exchange_strong(seen, 1, std::memory_order_acquire);
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2)
      syscall(SYS_futex, word(), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }
  /// In a forked child, whose only thread does not hold it: a holder in the
  /// parent left it taken in the child's copy, with no thread to release it.
  /// Only for locks whose data stays usable mid-update, or is not used again.
  void reset_in_forked_child() noexcept { state_.store(0, std::memory_order_relaxed); }

private:
  uint32_t *word() noexcept { return reinterpret_cast<uint32_t *>(&state_); }

  std::atomic<uint32_t> state_{0};
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
};

} // namespace prof::core

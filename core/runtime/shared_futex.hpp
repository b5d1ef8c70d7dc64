// A futex on a word in memory shared between processes (the region prof
// shares with the agents): shared, not private, so that a wake in one
// process reaches a wait in another.
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::core {

/// Sleeps while `word` holds `value`, at most `timeout`; returns at once when it moved.
inline void shared_futex_wait(std::atomic<uint32_t> &word, uint32_t value, timespec timeout) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT, value, &timeout, nullptr, 0);
}

/// Wakes up to `waiters` sleepers on `word`, in any process.
inline void shared_futex_wake(std::atomic<uint32_t> &word, int waiters) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE, waiters, nullptr, nullptr, 0);
}

} // namespace prof::core

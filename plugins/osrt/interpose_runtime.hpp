// What every interposer shares: the switch that says an instance is tracing,
// the per-thread state (reentrancy guard, track cache), and the wrappers that
// time a call and hand a long one to the recorder.
//
// The path of a call shorter than the threshold reads one global flag, two
// thread-local words and the clock twice, and stores three words in the
// thread's open-call slot; it never allocates, locks, or makes a system call
// of its own.
#ifndef PROF_PLUGINS_OSRT_INTERPOSE_RUNTIME_HPP
#define PROF_PLUGINS_OSRT_INTERPOSE_RUNTIME_HPP

#include "call_clock.hpp"
#include "open_calls.hpp"
#include "osrt_functions.hpp"

#include <prof/event.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

/// Interposers are exported from the plugin (whose default is hidden) so
/// that, preloaded, they stand in front of the C library's definitions.
#define PROF_OSRT_EXPORT __attribute__((visibility("default")))
/// Return address of the interposer: the application's call site, where a
/// recorded call stack starts.
#define PROF_OSRT_CALLER __builtin_return_address(0)

namespace prof::osrt {

/// Per-thread state. Zero for a new thread; kept small because it lives in
/// static TLS (initial-exec: no allocation, no __tls_get_addr).
struct ThreadState {
  uint32_t guard;      ///< >0 while this thread records: its calls pass straight through
  uint32_t epoch;      ///< g_epoch when `track` was declared
  prof_track_id track; ///< this thread's track in that epoch
};

// __thread rather than thread_local: a plain TLS access, without the
// wrapper call C++ adds for variables that might need dynamic initialization.
extern __thread ThreadState t_thread __attribute__((tls_model("initial-exec")));
/// True while an instance is started and not suspended.
extern std::atomic<bool> g_tracing;
/// Calls at least this long (CallClock ticks) are recorded.
extern std::atomic<uint64_t> g_threshold_ticks;
/// Bumped per installed recorder and in every forked child: thread tracks
/// declared in another epoch are declared again.
extern std::atomic<uint32_t> g_epoch;

/// Records a call timed [t0, t1) in ticks; `caller` is its call site.
/// Preserves errno; does nothing when no instance is tracing by now.
[[gnu::noinline, gnu::cold]] void record_call(OsrtFunction function, uint64_t t0, uint64_t t1,
                                              void *caller) noexcept;

/// Whether calls on this thread are to be timed now.
inline bool tracing_here() noexcept {
  return g_tracing.load(std::memory_order_acquire) && t_thread.guard == 0;
}

/// Times `call`, which runs while tracing, and records it when it took at
/// least the threshold; while it runs, the thread's open-call slot names it.
template <class Call>
[[gnu::always_inline]] inline auto time_call(OsrtFunction function, void *caller, Call call) {
  OpenCallSlot *slot = OpenCallSlots::own();
  const uint64_t t0 = CallClock::ticks();
  open_call_begins(slot, function, t0, caller);
  auto result = call();
  open_call_ends(slot);
  const uint64_t t1 = CallClock::ticks();
  if (t1 - t0 >= g_threshold_ticks.load(std::memory_order_relaxed)) [[unlikely]]
    record_call(function, t0, t1, caller);
  return result;
}

/// Runs `call`, timed while this thread is traced.
template <class Call>
[[gnu::always_inline]] inline auto timed_call(OsrtFunction function, void *caller, Call call) {
  if (!tracing_here()) return call();
  return time_call(function, caller, call);
}

/// The blocking half of lock_call, kept out of line so that the path of a
/// lock taken at once saves no registers.
template <class Block>
[[gnu::noinline]] int time_blocked_lock(OsrtFunction function, void *caller, Block block) {
  return time_call(function, caller, block);
}

/// A lock acquisition: try first, and time only an acquisition that would
/// have blocked. `try_lock` returns `busy` when the lock is taken. Lambdas
/// that capture by value keep the path of a free lock in registers, with
/// tail calls.
template <class Try, class Block>
[[gnu::always_inline]] inline int lock_call(OsrtFunction function, void *caller, Try try_lock,
                                            Block block, int busy = EBUSY) {
  if (!tracing_here()) return block();
  const int tried = try_lock();
  if (tried != busy) [[likely]]
    return tried;
  return time_blocked_lock(function, caller, block);
}

} // namespace prof::osrt

#endif

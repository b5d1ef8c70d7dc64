// Which OS runtime call each thread is inside now, for the flight recorder's
// dumps. The interposers mark it with plain stores in the thread's slot;
// another thread reads a slot as a seqlock keyed by the call's begin.
#ifndef PROF_PLUGINS_OSRT_OPEN_CALLS_HPP
#define PROF_PLUGINS_OSRT_OPEN_CALLS_HPP

#include "osrt_functions.hpp"

#include <prof/thread_slots.hpp>

#include <atomic>
#include <cstdint>

namespace prof::osrt {

/// One thread's open call.
struct alignas(64) OpenCallSlot {
  std::atomic<uint32_t> owned{0};
  std::atomic<uint32_t> function{0};
  std::atomic<int32_t> tid{0};
  std::atomic<uint64_t> since{0}; ///< CallClock ticks at its begin; written last, 0 while none
  std::atomic<uintptr_t> caller{0};

  /// Records the owning thread's id (on claiming, and in a forked child).
  void claimed() noexcept;
  /// Its thread is gone (cancelled inside a call, say): no call is open.
  void released() noexcept { since.store(0, std::memory_order_release); }
};

/// Threads past this number are not shown.
using OpenCallSlots = ThreadSlots<OpenCallSlot, 1024>;

/// The calling thread enters `function` at `since` ticks, called from `caller`.
inline void open_call_begins(OpenCallSlot *slot, OsrtFunction function, uint64_t since,
                             void *caller) noexcept {
  if (slot == nullptr) return;
  // The previous call's end (since = 0) is seen before this one's fields.
  std::atomic_thread_fence(std::memory_order_release);
  slot->function.store(static_cast<uint32_t>(function), std::memory_order_relaxed);
  slot->caller.store(reinterpret_cast<uintptr_t>(caller), std::memory_order_relaxed);
  slot->since.store(since, std::memory_order_release);
}

inline void open_call_ends(OpenCallSlot *slot) noexcept {
  if (slot != nullptr) slot->since.store(0, std::memory_order_release);
}

/// A call some thread is inside.
struct OpenCall {
  OsrtFunction function;
  int tid;
  uint64_t since; ///< CallClock ticks
  uintptr_t caller;
};

/// Calls `visit(const OpenCall &)` for each call a thread is inside now.
template <class Visit> void for_each_open_call(Visit &&visit) {
  for (OpenCallSlot &slot : OpenCallSlots::all()) {
    const uint64_t since = slot.since.load(std::memory_order_acquire);
    if (since == 0) continue;
    const uint32_t function = slot.function.load(std::memory_order_relaxed);
    const OpenCall call{static_cast<OsrtFunction>(function),
                        slot.tid.load(std::memory_order_relaxed), since,
                        slot.caller.load(std::memory_order_relaxed)};
    std::atomic_thread_fence(std::memory_order_acquire);
    // Its thread left that call meanwhile (and may be in the next): not shown.
    if (slot.since.load(std::memory_order_relaxed) == since && function < kOsrtFunctionCount)
      visit(call);
  }
}

} // namespace prof::osrt

#endif

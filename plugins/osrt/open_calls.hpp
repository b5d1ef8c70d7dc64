// Which OS runtime call each thread is inside now, for the flight recorder's
// dumps. The interposers mark it with plain stores in the thread's slot (two
// as a call begins, one as it ends); another thread reads a slot as a
// seqlock keyed by the call's begin.
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
  std::atomic<int32_t> tid{0};
  std::atomic<uint64_t> what{0};  ///< the call site, with the function in the top byte
  std::atomic<uint64_t> since{0}; ///< CallClock ticks at its begin; written last, 0 while none

  /// Records the owning thread's id (on claiming, and in a forked child).
  void claimed() noexcept;
  /// Its thread is gone (cancelled inside a call, say): no call is open.
  void released() noexcept { since.store(0, std::memory_order_release); }
};

/// Threads past this number are not shown.
using OpenCallSlots = ThreadSlots<OpenCallSlot, 1024>;

/// Bits of OpenCallSlot::what below the function: user-space code addresses
/// fit (a call site above them is not named).
inline constexpr unsigned kCallerBits = 56;
static_assert(kOsrtFunctionCount <= 1u << (64 - kCallerBits));

/// The calling thread enters `function` at `since` ticks, called from
/// `caller`: two plain stores on x86, no fence.
inline void open_call_begins(OpenCallSlot *slot, OsrtFunction function, uint64_t since,
                             void *caller) noexcept {
  if (slot == nullptr) return;
  uint64_t site = reinterpret_cast<uintptr_t>(caller);
  if (site >> kCallerBits != 0) [[unlikely]]
    site = 0;
  // Release: a reader that sees this call's `what` sees the previous call's
  // end (since = 0) too, so never pairs that call's begin with this call.
  slot->what.store(site | uint64_t{static_cast<uint8_t>(function)} << kCallerBits,
                   std::memory_order_release);
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
    const uint64_t what = slot.what.load(std::memory_order_relaxed);
    const uint64_t function = what >> kCallerBits;
    const OpenCall call{static_cast<OsrtFunction>(function),
                        slot.tid.load(std::memory_order_relaxed), since,
                        static_cast<uintptr_t>(what & ((uint64_t{1} << kCallerBits) - 1))};
    std::atomic_thread_fence(std::memory_order_acquire);
    // Its thread left that call meanwhile (and may be in the next): not shown.
    if (slot.since.load(std::memory_order_relaxed) == since && function < kOsrtFunctionCount)
      visit(call);
  }
}

} // namespace prof::osrt

#endif

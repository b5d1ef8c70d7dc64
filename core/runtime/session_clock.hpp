// The session clock (CLOCK_MONOTONIC nanoseconds) and the CPU time-stamp
// counter, the cheapest clock an emitting thread can read.
#pragma once

#include <cstdint>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace prof::core {

/// Now on the session clock: CLOCK_MONOTONIC in nanoseconds.
inline uint64_t session_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

/// Now on CLOCK_REALTIME in nanoseconds (for the report's wall-clock anchor).
inline uint64_t realtime_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

/// Raw time-stamp counter ticks; falls back to the session clock where the
/// CPU has no TSC, so PROF_CLOCK_TSC tracks always have a meaning.
inline uint64_t tsc_now() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return session_now_ns();
#endif
}

/// Whether tsc_now() reads a real counter rather than the session clock.
constexpr bool has_tsc() {
#if defined(__x86_64__) || defined(__i386__)
  return true;
#else
  return false;
#endif
}

} // namespace prof::core

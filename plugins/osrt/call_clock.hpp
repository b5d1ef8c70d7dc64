// The stopwatch around every interposed call. Two reads of it are all an
// untraced-length call pays, so it reads the TSC (about 10 ns here) where the
// TSC is constant and non-stop, and CLOCK_MONOTONIC through the vDSO (about
// 23 ns here, which alone would cost a 200 ns write() 1.23x) elsewhere.
// Durations are converted to nanoseconds only for calls that are recorded.
#ifndef PROF_PLUGINS_OSRT_CALL_CLOCK_HPP
#define PROF_PLUGINS_OSRT_CALL_CLOCK_HPP

#include <atomic>
#include <cstdint>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PROF_OSRT_HAVE_TSC 1
#endif

namespace prof::osrt {

class CallClock {
public:
  /// Current time in ticks (TSC cycles or nanoseconds, see uses_tsc()).
  static uint64_t ticks() noexcept {
#ifdef PROF_OSRT_HAVE_TSC
    if (use_tsc_.load(std::memory_order_relaxed)) return __rdtsc();
#endif
    return monotonic_ns();
  }
  /// CLOCK_MONOTONIC in nanoseconds: the session clock.
  static uint64_t monotonic_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
  }
  /// Picks the tick source and measures its rate; `allow_tsc` false forces
  /// CLOCK_MONOTONIC. Called by start() before any call is timed; sleeps
  /// until 0.2 ms have passed since the library was loaded.
  static void calibrate(bool allow_tsc);
  /// CLOCK_MONOTONIC now, and with the TSC a sharper rate measured against
  /// calibrate()'s first pair: the longer the baseline, the smaller the error
  /// a long call's duration inherits. Costs two TSC reads more than
  /// monotonic_ns(); for the recording path only.
  static uint64_t monotonic_ns_refining_rate() noexcept;
  static bool uses_tsc() noexcept { return use_tsc_.load(std::memory_order_relaxed); }
  /// Length of `ticks` in nanoseconds.
  static uint64_t to_ns(uint64_t ticks) noexcept {
    return static_cast<uint64_t>(static_cast<double>(ticks) *
                                 ns_per_tick_.load(std::memory_order_relaxed));
  }
  /// Ticks in `ns` nanoseconds (rounded up, so a threshold never lets a shorter call through).
  static uint64_t from_ns(uint64_t ns) noexcept;

private:
  static bool tsc_is_reliable();
  static inline std::atomic<bool> use_tsc_{false};
  static inline std::atomic<double> ns_per_tick_{1.0};
  // The (TSC, monotonic) pair the rate is measured from.
  static inline std::atomic<uint64_t> anchor_tsc_{0};
  static inline std::atomic<uint64_t> anchor_ns_{0};
  static inline std::atomic<uint64_t> refined_ns_{0}; ///< monotonic time of the last refinement
};

} // namespace prof::osrt

#endif

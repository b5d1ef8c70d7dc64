#include "call_clock.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace prof::osrt {

bool CallClock::tsc_is_reliable() {
#ifdef PROF_OSRT_HAVE_TSC
  // Only when the kernel itself trusts the TSC: constant rate, ticking in
  // deep C-states, and chosen as the clock source (so it is synchronized
  // across CPUs).
  char source[32] = {};
  int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY);
  if (fd < 0) return false;
  ssize_t got = read(fd, source, sizeof source - 1);
  close(fd);
  if (got <= 0 || std::strncmp(source, "tsc", 3) != 0) return false;

  static char cpuinfo[8192];
  fd = open("/proc/cpuinfo", O_RDONLY);
  if (fd < 0) return false;
  got = read(fd, cpuinfo, sizeof cpuinfo - 1);
  close(fd);
  if (got <= 0) return false;
  cpuinfo[got] = '\0';
  return std::strstr(cpuinfo, " constant_tsc") != nullptr &&
         std::strstr(cpuinfo, " nonstop_tsc") != nullptr;
#else
  return false;
#endif
}

#ifdef PROF_OSRT_HAVE_TSC
namespace {

struct ClockPair {
  uint64_t tsc = 0;
  uint64_t ns = 0;
  uint64_t spread = 0; // TSC ticks between the reads around the clock read
};

/// A monotonic reading and the TSC at that instant: the middle of the two
/// TSC reads around it.
ClockPair bracketed_pair() noexcept {
  const uint64_t before = __rdtsc();
  const uint64_t ns = CallClock::monotonic_ns();
  const uint64_t after = __rdtsc();
  return {before + (after - before) / 2, ns, after - before};
}

/// The tightest of several bracketed pairs: a pair whose reads were split by
/// preemption or a VM exit would put microseconds of error into the rate.
ClockPair tightest_pair() noexcept {
  ClockPair best = bracketed_pair();
  for (int attempt = 1; attempt < 16; ++attempt) {
    const ClockPair pair = bracketed_pair();
    if (pair.spread < best.spread) best = pair;
  }
  return best;
}

// Pairs spread wider than this (about 2 us at 2 GHz) do not refine the rate.
constexpr uint64_t kMaxRefiningSpread = 4096;
// calibrate()'s baseline: short, since the application waits for it. Its
// rate is within about 2e-5 of the true one on these VMs (a 1 ms call off by
// 20 ns); the first call recorded at least kMinRefiningBaselineNs after it
// refines the rate to what a 2 ms baseline gives, and later ones further.
constexpr long kCalibrationNs = 200000;
constexpr uint64_t kMinRefiningBaselineNs = 2000000;

// The baseline starts when the library is loaded: what the agent does before
// it starts osrt (mapping the region, starting its plugins) counts toward
// it, and calibrate() sleeps only for what is left.
ClockPair loaded_pair;
__attribute__((constructor)) void take_loaded_pair() { loaded_pair = tightest_pair(); }

} // namespace
#endif

void CallClock::calibrate(bool allow_tsc) {
#ifdef PROF_OSRT_HAVE_TSC
  if (allow_tsc && tsc_is_reliable()) {
    const ClockPair first = loaded_pair.ns != 0 ? loaded_pair : tightest_pair();
    const uint64_t elapsed = monotonic_ns() - first.ns;
    if (elapsed < kCalibrationNs) {
      timespec pause{0, kCalibrationNs - static_cast<long>(elapsed)};
      nanosleep(&pause, nullptr);
    }
    const ClockPair second = tightest_pair();
    if (second.tsc > first.tsc && second.ns > first.ns) {
      anchor_tsc_.store(first.tsc);
      anchor_ns_.store(first.ns);
      refined_ns_.store(first.ns);
      ns_per_tick_.store(static_cast<double>(second.ns - first.ns) /
                         static_cast<double>(second.tsc - first.tsc));
      use_tsc_.store(true);
      return;
    }
  }
#endif
  (void)allow_tsc;
  ns_per_tick_.store(1.0);
  use_tsc_.store(false);
}

uint64_t CallClock::monotonic_ns_refining_rate() noexcept {
#ifdef PROF_OSRT_HAVE_TSC
  if (use_tsc_.load(std::memory_order_relaxed)) {
    const ClockPair now = bracketed_pair();
    const uint64_t anchor_tsc = anchor_tsc_.load(std::memory_order_relaxed);
    const uint64_t anchor_ns = anchor_ns_.load(std::memory_order_relaxed);
    // Each refinement at least doubles the baseline, so the rate, which
    // every timed call reads, is written a few dozen times in a capture.
    uint64_t refined_ns = refined_ns_.load(std::memory_order_relaxed);
    const uint64_t refined_after = refined_ns > anchor_ns ? refined_ns - anchor_ns : 0;
    const uint64_t baseline = std::max(kMinRefiningBaselineNs, 2 * refined_after);
    if (now.spread <= kMaxRefiningSpread && now.ns >= anchor_ns + baseline &&
        now.tsc > anchor_tsc &&
        refined_ns_.compare_exchange_strong(refined_ns, now.ns, std::memory_order_relaxed))
      ns_per_tick_.store(static_cast<double>(now.ns - anchor_ns) /
                             static_cast<double>(now.tsc - anchor_tsc),
                         std::memory_order_relaxed);
    return now.ns;
  }
#endif
  return monotonic_ns();
}

uint64_t CallClock::from_ns(uint64_t ns) noexcept {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(ns) / ns_per_tick_.load()));
}

} // namespace prof::osrt

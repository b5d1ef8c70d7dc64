// prof's session clock (CLOCK_MONOTONIC nanoseconds) read through the CPU's
// time-stamp counter, for sources whose every event needs a timestamp and
// whose cost is the point (NVTX ranges): on x86 a TSC read costs about 12 ns
// against 29 ns for CLOCK_MONOTONIC through the vDSO on these VMs.
//
// The TSC stands in only where it is invariant (constant and non-stop) and
// synchronized (the kernel's clock source, or a hypervisor that says it is
// reliable). Conversion: the nanoseconds of an anchor pair plus the ticks
// since then at a measured rate. The first rate is measured over 0.2 ms (the
// application waits for it) and its anchor retaken 2 ms later; after that
// the anchor is retaken every 50 ms by the first reader past that age, and
// the rate refined over the growing baseline since the first pair, so a
// stamp stays within a few hundred nanoseconds of CLOCK_MONOTONIC. Elsewhere
// now_ns() is CLOCK_MONOTONIC itself.
#ifndef PROF_TSC_CLOCK_HPP
#define PROF_TSC_CLOCK_HPP

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PROF_TSC_CLOCK_HAVE_TSC 1
#endif

namespace prof {

namespace tsc_clock_detail {
struct Anchor {
  uint64_t tsc = 0, ns = 0;
  double ns_per_tick = 1.0;
  uint64_t reanchor_ticks = ~uint64_t{0};
};
struct Pair {
  uint64_t tsc = 0, ns = 0, spread = ~uint64_t{0};
};
} // namespace tsc_clock_detail

/// The session clock through the TSC (see above); every member is static.
class TscClock {
public:
  /// CLOCK_MONOTONIC in nanoseconds, read from the kernel.
  static uint64_t monotonic_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
  }

  /// Uses the TSC from now on where it can stand in for CLOCK_MONOTONIC
  /// (measures its rate once: about 0.2 ms); returns whether it does.
  static bool enable() noexcept;
  static bool enabled() noexcept { return enabled_.load(std::memory_order_relaxed); }

  /// CLOCK_MONOTONIC nanoseconds, through the TSC once enabled.
  static uint64_t now_ns() noexcept {
#ifdef PROF_TSC_CLOCK_HAVE_TSC
    if (enabled_.load(std::memory_order_relaxed)) {
      const uint64_t tsc = __rdtsc();
      const Anchor &a = *anchor_.load(std::memory_order_acquire);
      if (tsc - a.tsc > a.reanchor_ticks) return reanchor(tsc);
      return a.ns + static_cast<uint64_t>(static_cast<double>(tsc - a.tsc) * a.ns_per_tick);
    }
#endif
    return monotonic_ns();
  }

private:
  using Anchor = tsc_clock_detail::Anchor;
  using Pair = tsc_clock_detail::Pair;
  static constexpr uint64_t kReanchorNs = 50'000'000;
  /// The first rate's baseline, and how long its anchor serves: a rate
  /// within about 2e-5 of the true one (these VMs) errs by 40 ns in 2 ms.
  static constexpr long kFirstBaselineNs = 200'000;
  static constexpr uint64_t kFirstReanchorNs = 2'000'000;
  static constexpr size_t kSlots = 16; // a reader never holds one across 16 re-anchors

  static bool trustworthy() noexcept;
  static Pair tightest_pair() noexcept;
  static uint64_t reanchor(uint64_t tsc) noexcept;
  static void publish(const Pair &pair, double ns_per_tick,
                      uint64_t reanchor_ns = kReanchorNs) noexcept;

  static inline std::atomic<bool> enabled_{false};
  static inline Anchor slots_[kSlots];
  static inline std::atomic<size_t> next_slot_{0};
  static inline std::atomic<const Anchor *> anchor_{&slots_[0]};
  static inline std::atomic_flag reanchoring_ = ATOMIC_FLAG_INIT;
  static inline Pair first_; // the rate's baseline starts here
};

#ifdef PROF_TSC_CLOCK_HAVE_TSC
inline bool TscClock::trustworthy() noexcept {
  char source[32] = {};
  if (FILE *file =
          std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re")) {
    if (!std::fgets(source, sizeof source, file)) source[0] = '\0';
    std::fclose(file);
  }
  bool constant = false, nonstop = false, reliable = std::strncmp(source, "tsc", 3) == 0;
  if (FILE *cpuinfo = std::fopen("/proc/cpuinfo", "re")) {
    char line[4096];
    while (std::fgets(line, sizeof line, cpuinfo)) {
      if (std::strncmp(line, "flags", 5) != 0) continue;
      constant = std::strstr(line, " constant_tsc") != nullptr;
      nonstop = std::strstr(line, " nonstop_tsc") != nullptr;
      reliable = reliable || std::strstr(line, " tsc_reliable") != nullptr;
      break;
    }
    std::fclose(cpuinfo);
  }
  return constant && nonstop && reliable;
}

inline TscClock::Pair TscClock::tightest_pair() noexcept {
  Pair best;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const uint64_t before = __rdtsc();
    const uint64_t ns = monotonic_ns();
    const uint64_t after = __rdtsc();
    if (after - before < best.spread) best = {before + (after - before) / 2, ns, after - before};
  }
  return best;
}

inline void TscClock::publish(const Pair &pair, double ns_per_tick, uint64_t reanchor_ns) noexcept {
  Anchor &slot = slots_[next_slot_.fetch_add(1, std::memory_order_relaxed) % kSlots];
  slot = {pair.tsc, pair.ns, ns_per_tick,
          static_cast<uint64_t>(static_cast<double>(reanchor_ns) / ns_per_tick)};
  anchor_.store(&slot, std::memory_order_release);
}

inline bool TscClock::enable() noexcept {
  if (enabled()) return true;
  if (!trustworthy()) return false;
  const Pair first = tightest_pair();
  timespec pause{0, kFirstBaselineNs};
  nanosleep(&pause, nullptr);
  const Pair second = tightest_pair();
  if (second.tsc <= first.tsc || second.ns <= first.ns) return false;
  first_ = first;
  publish(second,
          static_cast<double>(second.ns - first.ns) / static_cast<double>(second.tsc - first.tsc),
          kFirstReanchorNs);
  enabled_.store(true, std::memory_order_release);
  return true;
}

inline uint64_t TscClock::reanchor(uint64_t tsc) noexcept {
  const Anchor &old = *anchor_.load(std::memory_order_acquire);
  const uint64_t estimate =
      old.ns + static_cast<uint64_t>(static_cast<double>(tsc - old.tsc) * old.ns_per_tick);
  if (reanchoring_.test_and_set(std::memory_order_acquire)) return estimate; // another thread does
  const Pair pair = tightest_pair();
  // The rate over everything since the first pair: the longer, the truer.
  double rate = old.ns_per_tick;
  if (pair.tsc > first_.tsc && pair.ns > first_.ns)
    rate = static_cast<double>(pair.ns - first_.ns) / static_cast<double>(pair.tsc - first_.tsc);
  publish(pair, rate);
  reanchoring_.clear(std::memory_order_release);
  return estimate;
}
#else
inline bool TscClock::enable() noexcept { return false; }
#endif

} // namespace prof

#endif

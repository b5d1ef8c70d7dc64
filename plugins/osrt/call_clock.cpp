#include "call_clock.hpp"

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

void CallClock::calibrate(bool allow_tsc) {
#ifdef PROF_OSRT_HAVE_TSC
  if (allow_tsc && tsc_is_reliable()) {
    // Two (TSC, monotonic) pairs 2 ms apart, each pair read back to back.
    const uint64_t ns0 = monotonic_ns();
    const uint64_t tsc0 = __rdtsc();
    timespec pause{0, 2000000};
    nanosleep(&pause, nullptr);
    const uint64_t ns1 = monotonic_ns();
    const uint64_t tsc1 = __rdtsc();
    if (tsc1 > tsc0 && ns1 > ns0) {
      ns_per_tick_.store(static_cast<double>(ns1 - ns0) / static_cast<double>(tsc1 - tsc0));
      use_tsc_.store(true);
      return;
    }
  }
#endif
  (void)allow_tsc;
  ns_per_tick_.store(1.0);
  use_tsc_.store(false);
}

uint64_t CallClock::from_ns(uint64_t ns) noexcept {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(ns) / ns_per_tick_.load()));
}

} // namespace prof::osrt

// Host clocks the model measures real work with.
#ifndef PROF_GCUSIM_HOST_CLOCK_HPP
#define PROF_GCUSIM_HOST_CLOCK_HPP

#include <cstdint>
#include <ctime>

namespace prof::gcusim {

inline uint64_t read_clock_ns(clockid_t clock) noexcept {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

/// CLOCK_MONOTONIC in nanoseconds: the host clock of clock_pair and API records.
inline uint64_t host_now_ns() noexcept { return read_clock_ns(CLOCK_MONOTONIC); }

/// CPU time the calling thread has used, in nanoseconds.
inline uint64_t thread_cpu_ns() noexcept { return read_clock_ns(CLOCK_THREAD_CPUTIME_ID); }

} // namespace prof::gcusim

#endif

#include "tick_cost.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <thread>

namespace prof::nic {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double measure_tick_cpu_seconds(const std::function<void()> &tick, int ticks,
                                std::chrono::nanoseconds gap) {
  const double begin = thread_cpu_seconds();
  for (int i = 0; i < ticks; ++i) {
    tick();
    std::this_thread::sleep_for(gap);
  }
  return (thread_cpu_seconds() - begin) / ticks;
}

int64_t sustainable_frequency(double tick_cpu_seconds, double budget) {
  if (!(tick_cpu_seconds > 0)) return std::numeric_limits<int64_t>::max();
  const double hz = std::floor(budget / tick_cpu_seconds);
  if (hz >= 1e15) return std::numeric_limits<int64_t>::max();
  return std::max<int64_t>(1, static_cast<int64_t>(hz));
}

} // namespace prof::nic

// Parsing of /proc/stat's cpu lines and CPU utilization between two reads.
#ifndef PROF_PLUGINS_CPU_UTIL_PROC_STAT_HPP
#define PROF_PLUGINS_CPU_UTIL_PROC_STAT_HPP

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace prof::cpu_util {

/// Cumulative time of one CPU (or all of them) in clock ticks.
struct CpuTicks {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;

  uint64_t busy() const { return user + nice + system + irq + softirq + steal; }
  /// guest and guest_nice are left out on purpose: the kernel already counts
  /// them inside user and nice.
  uint64_t total() const { return busy() + idle + iowait; }
};

/// One read of /proc/stat: the aggregate "cpu" line and each "cpuN" line.
struct CpuTimes {
  CpuTicks all;
  std::vector<std::pair<int, CpuTicks>> per_cpu; ///< (cpu index, ticks), online CPUs only
};

/// Parses the text of /proc/stat; nullopt when it has no aggregate cpu line.
std::optional<CpuTimes> parse_proc_stat(std::string_view text);

/// Busy share of the time between two reads, in percent (0..100); 0 when
/// no time passed or the counters went backwards.
double cpu_utilization(const CpuTicks &before, const CpuTicks &after);

} // namespace prof::cpu_util

#endif

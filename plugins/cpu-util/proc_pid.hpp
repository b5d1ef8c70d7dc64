// Parsing of a process's /proc/PID/stat and /proc/PID/status.
#ifndef PROF_PLUGINS_CPU_UTIL_PROC_PID_HPP
#define PROF_PLUGINS_CPU_UTIL_PROC_PID_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace prof::cpu_util {

/// The fields of /proc/PID/stat that the sampler uses. Times in clock ticks.
struct ProcessStat {
  int pid = 0;
  std::string comm; ///< command name, without the parentheses
  char state = '?';
  int ppid = 0;
  uint64_t utime = 0, stime = 0;   ///< the process's own CPU time
  uint64_t cutime = 0, cstime = 0; ///< CPU time of its waited-for children
  uint64_t start_time = 0;         ///< ticks after boot; tells reused pids apart
  uint64_t rss_pages = 0;          ///< resident pages (the same count as VmRSS)

  uint64_t own_ticks() const { return utime + stime; }
  uint64_t child_ticks() const { return cutime + cstime; }
};

/// Parses /proc/PID/stat. The command name may hold spaces and parentheses,
/// so it runs from the first '(' to the last ')'.
std::optional<ProcessStat> parse_pid_stat(std::string_view text);

/// Memory lines of /proc/PID/status, in bytes; absent for kernel threads and zombies.
struct ProcessMemory {
  std::optional<uint64_t> rss_bytes; ///< VmRSS
  std::optional<uint64_t> hwm_bytes; ///< VmHWM, the peak of VmRSS
};

ProcessMemory parse_pid_status(std::string_view text);

} // namespace prof::cpu_util

#endif

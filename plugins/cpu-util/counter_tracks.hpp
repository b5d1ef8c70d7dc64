// The counter tracks the cpu-util source emits on, declared on first use.
#ifndef PROF_PLUGINS_CPU_UTIL_COUNTER_TRACKS_HPP
#define PROF_PLUGINS_CPU_UTIL_COUNTER_TRACKS_HPP

#include "system_sampler.hpp"

#include <prof/plugin.hpp>

#include <map>
#include <optional>
#include <string>

namespace prof::cpu_util {

/// Track names, as a summary prints them.
namespace track_names {
inline constexpr const char *kCpuGroup = "CPU utilization";
inline constexpr const char *kCpuTotal = "CPU utilization (total)";
inline constexpr const char *kTreeCpu = "Process tree CPU usage";
inline constexpr const char *kTreeRss = "Process tree RSS";
inline constexpr const char *kRootHwm = "Process RSS high-water mark";
inline constexpr const char *kTreeRssPeak = "Process tree RSS peak";
inline constexpr const char *kMemoryUsed = "System memory used";
inline constexpr const char *kMemoryUsedPercent = "System memory used (%)";
} // namespace track_names

/// "cpu3 utilization" for CPU 3.
std::string per_cpu_track_name(int cpu);

class CounterTracks {
public:
  /// `process_name` names the PROCESS track of `target_pid` (0: no process counters).
  CounterTracks(const Host &host, int target_pid, std::string process_name)
      : host_(host), target_pid_(target_pid), process_name_(std::move(process_name)) {}

  /// Emits every value `sample` holds at `ts`.
  void emit(const Sample &sample, uint64_t ts);

private:
  void put(std::optional<prof_track_id> &slot, const char *name, prof_track_id parent,
           const char *unit, int index, const std::optional<double> &value, uint64_t ts);
  prof_track_id cpu_group();
  prof_track_id process();

  Host host_;
  int target_pid_;
  std::string process_name_;
  std::optional<prof_track_id> cpu_group_, process_;
  std::optional<prof_track_id> cpu_total_, tree_cpu_, tree_rss_, root_hwm_, tree_rss_peak_;
  std::optional<prof_track_id> memory_used_, memory_used_percent_;
  std::map<int, std::optional<prof_track_id>> per_cpu_;
};

} // namespace prof::cpu_util

#endif

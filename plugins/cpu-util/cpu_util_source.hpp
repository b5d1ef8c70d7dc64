// The cpu-util source: samples /proc on its own thread at a fixed rate and
// emits CPU utilization, process-tree CPU and memory counters.
#ifndef PROF_PLUGINS_CPU_UTIL_SOURCE_HPP
#define PROF_PLUGINS_CPU_UTIL_SOURCE_HPP

#include "counter_tracks.hpp"
#include "proc_fs.hpp"
#include "system_sampler.hpp"

#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace prof::cpu_util {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "samples per second (Hz); topsprof --utilization-frequency"},
    {"cpu", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "CPU utilization: total, per CPU, and the profiled process tree"},
    {"memory", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "memory: process tree RSS and its peaks, system memory used"},
};

class CpuUtilSource {
public:
  explicit CpuUtilSource(Host host) : host_(host) {}
  ~CpuUtilSource();

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  void sample_and_emit();
  bool check_readable(const char *file);

  Host host_;
  SystemProcFs fs_;
  int frequency_hz_ = 100;
  std::unique_ptr<SystemSampler> sampler_;
  std::unique_ptr<CounterTracks> tracks_;
  std::mutex sample_mutex_; ///< sampler_ and tracks_: the thread and flush() share them

  PeriodicThread thread_;
};

} // namespace prof::cpu_util

#endif

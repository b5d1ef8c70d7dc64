// One tick of the cpu-util source: reads /proc and turns it into the values
// of every counter, independent of the plugin ABI.
#ifndef PROF_PLUGINS_CPU_UTIL_SYSTEM_SAMPLER_HPP
#define PROF_PLUGINS_CPU_UTIL_SYSTEM_SAMPLER_HPP

#include "proc_fs.hpp"
#include "proc_stat.hpp"
#include "process_tree.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace prof::cpu_util {

struct SamplerOptions {
  bool cpu = true;             ///< CPU utilization and the tree's CPU usage
  bool memory = true;          ///< RSS and system memory
  int target_pid = 0;          ///< root of the profiled tree, 0 for none
  long ticks_per_second = 100; ///< sysconf(_SC_CLK_TCK)
  long page_size = 4096;       ///< sysconf(_SC_PAGESIZE)
};

/// Values read at one tick; a value is absent when it is disabled, cannot be
/// read, or needs a previous tick.
struct Sample {
  std::optional<double> cpu_total_percent;
  std::vector<std::pair<int, double>> cpu_percent; ///< (cpu index, percent)
  std::optional<double> tree_cpu_percent;          ///< 100 = one CPU busy
  std::optional<double> tree_rss_bytes;
  std::optional<double> root_rss_hwm_bytes;  ///< the root's VmHWM
  std::optional<double> tree_rss_peak_bytes; ///< largest tree RSS seen so far
  std::optional<double> memory_used_bytes;
  std::optional<double> memory_used_percent;
};

class SystemSampler {
public:
  SystemSampler(const ProcFs &fs, SamplerOptions options) : fs_(fs), options_(options) {}

  /// Reads everything at `now_ns` (session clock).
  Sample take(uint64_t now_ns);
  /// Forgets the previous tick, e.g. after a pause: the next take() only
  /// primes the CPU figures.
  void reset();

private:
  /// The kernel counts CPU time in ticks of 1/CLK_TCK s (10 ms): a rate over a
  /// shorter span swings between 0 and several CPUs, so CPU figures are
  /// averaged over the last kRateWindowNs (or the sampling interval, if longer).
  static constexpr uint64_t kRateWindowNs = 100'000'000;
  /// The history entry to measure a rate against at `now_ns`, nullptr before there is one.
  template <class T>
  static const std::pair<uint64_t, T> *rate_base(std::deque<std::pair<uint64_t, T>> &history,
                                                 uint64_t now_ns);

  void take_cpu(Sample &sample, uint64_t now_ns);
  void take_tree(Sample &sample, uint64_t now_ns);
  void take_memory(Sample &sample);

  const ProcFs &fs_;
  SamplerOptions options_;
  std::deque<std::pair<uint64_t, CpuTimes>> cpu_history_; ///< (ns, /proc/stat times)
  ProcessTreeCpuMeter tree_meter_;
  uint64_t tree_ticks_ = 0;                               ///< tree CPU ticks since start
  std::deque<std::pair<uint64_t, uint64_t>> tree_history_; ///< (ns, tree_ticks_)
  uint64_t tree_rss_peak_ = 0;
  /// The target has left prof's memory (exec'd); it never comes back, so it
  /// is asked no more.
  bool target_on_its_own_ = false;
};

} // namespace prof::cpu_util

#endif

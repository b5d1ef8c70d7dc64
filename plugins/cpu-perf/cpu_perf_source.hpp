// The cpu-perf source: perf_event sampling and context switches of the
// profiled process tree (or the whole system), decoded, symbolized and
// emitted after the capture.
#ifndef PROF_PLUGINS_CPU_PERF_SOURCE_HPP
#define PROF_PLUGINS_CPU_PERF_SOURCE_HPP

#include "capture.hpp"
#include "cpu_perf_options.hpp"
#include "perf_event_set.hpp"
#include "ring_reader.hpp"

#include <prof/plugin.hpp>

#include <optional>
#include <unordered_map>

namespace prof::cpu_perf {

class CpuPerfSource {
public:
  explicit CpuPerfSource(Host host) : host_(host) {}
  ~CpuPerfSource();

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  void read_counter_totals();

  Host host_;
  std::optional<CpuPerfOptions> options_;
  int pid_ = -1; ///< the target, -1 system-wide
  PerfEventSet events_;
  RingReader reader_;
  ProcessSnapshot snapshot_;
  std::vector<CounterValue> totals_;
  std::unordered_map<uint64_t, size_t> counter_ids_; ///< kernel event id -> counter
  uint64_t begin_ = 0, end_ = 0;
  bool running_ = false;
  bool pending_ = false; ///< a stopped capture waits for flush()
};

} // namespace prof::cpu_perf

#endif

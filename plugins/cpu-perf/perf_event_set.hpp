// The perf events of one capture: per CPU, a sampling (or side-band) event
// with its ring, and the hardware counters that write into that ring.
#ifndef PROF_PLUGINS_CPU_PERF_PERF_EVENT_SET_HPP
#define PROF_PLUGINS_CPU_PERF_PERF_EVENT_SET_HPP

#include "cpu_perf_options.hpp"
#include "perf_records.hpp"
#include "perf_ring.hpp"

#include <prof/plugin.hpp>

#include <memory>
#include <string>
#include <vector>

struct perf_event_attr;

namespace prof::cpu_perf {

/// One hardware counter event on one CPU.
struct CounterFd {
  int fd = -1;
  uint64_t id = 0;   ///< kernel event id (PERF_EVENT_IOC_ID)
  size_t counter = 0; ///< index into CpuPerfOptions::counters
};

class PerfEventSet {
public:
  PerfEventSet() = default;
  ~PerfEventSet();
  PerfEventSet(const PerfEventSet &) = delete;
  PerfEventSet &operator=(const PerfEventSet &) = delete;

  /// Opens and maps every event (disabled). `pid` is the target, -1 for
  /// system-wide. Logs warnings and, on failure, one error line.
  bool open(const Host &host, const CpuPerfOptions &options, int pid);
  void enable();
  void disable();
  void close();

  const std::vector<int> &fds() const { return fds_; }
  std::vector<std::unique_ptr<PerfRing>> &rings() { return rings_; }
  const std::vector<CounterFd> &counter_fds() const { return counter_fds_; }
  const RecordLayout &layout() const { return layout_; }
  bool kernel_callchains() const { return kernel_callchains_; }

private:
  bool open_counters(const Host &host, const CpuPerfOptions &options, int pid,
                     const perf_event_attr &base);

  std::vector<int> fds_;
  std::vector<std::unique_ptr<PerfRing>> rings_;
  std::vector<CounterFd> counter_fds_;
  RecordLayout layout_;
  bool kernel_callchains_ = false;
};

/// CPUs to open events on: /sys/devices/system/cpu/online, else 0..N-1.
std::vector<int> online_cpus();
/// Opens a perf event; returns the fd or -1 with errno set.
int perf_event_open_fd(perf_event_attr &attr, int pid, int cpu, int group_fd, unsigned long flags);
/// Checks that a hardware counter can be opened here; false with the user's message.
bool hardware_counter_supported(const HardwareCounter &counter, std::string &message);
/// "cpu-perf: kernel call stacks are not permitted on this machine (perf_event_paranoid=N)".
std::string kernel_stacks_refused_message();
/// "cpu-perf: perf_event_open was refused (perf_event_paranoid=N); run as root or lower it".
std::string refused_message();

} // namespace prof::cpu_perf

#endif

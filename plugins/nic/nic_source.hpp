// The nic source: samples network interfaces and RDMA ports on its own
// thread at a fixed rate and emits rate, packet-size, CNP and send-wait counters.
#ifndef PROF_PLUGINS_NIC_SOURCE_HPP
#define PROF_PLUGINS_NIC_SOURCE_HPP

#include "nic_sampler.hpp"
#include "nic_tracks.hpp"

#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace prof::nic {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"include", PROF_OPTION_STRING, "", 0, -1, nullptr,
     "comma-separated regexes (ECMAScript); a device is sampled if any matches part of its "
     "name; empty: all; asys --nic-device-include"},
    {"frequency", PROF_OPTION_INT, "1000", 1, 100000, nullptr,
     "samples per second (Hz), lowered with a warning to what keeps sampling under 15% of a "
     "core; asys --nic-metrics-frequency"},
    {"sysfs-root", PROF_OPTION_STRING, "/sys", 0, -1, nullptr,
     "where class/net and class/infiniband are read (a prepared tree for tests)"},
    {"loopback", PROF_OPTION_BOOL, "false", 0, -1, nullptr, "also sample loopback devices (lo)"},
    {"netdev-stats", PROF_OPTION_ENUM, "auto", 0, -1, "auto,proc,sysfs",
     "netdev counters from /proc/net/dev (one read for all) or sysfs statistics files; auto: "
     "proc when sysfs-root is /sys"},
};

class NicSource {
public:
  explicit NicSource(Host host) : host_(host) {}
  ~NicSource();

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  /// Reads the options into a sampler; false after logging why not.
  bool make_sampler(int64_t &frequency);
  /// Lowers `frequency` to what one tick's measured cost sustains, with a warning.
  void cap_frequency(int64_t &frequency);
  void sample_and_emit();

  Host host_;
  int64_t frequency_hz_ = 1000;
  std::unique_ptr<NicSampler> sampler_;
  std::unique_ptr<NicTracks> tracks_;
  std::vector<DeviceMetrics> metrics_;
  std::mutex sample_mutex_; ///< sampler_, tracks_, metrics_: the thread and flush() share them

  PeriodicThread thread_;
};

} // namespace prof::nic

#endif

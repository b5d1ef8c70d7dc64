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

// --gcu-utilization: per-device and per-cluster busy percentage of the
// compute units, sampled from the driver's cumulative busy ticks.
#pragma once

#include "device_tracks.hpp"

#include <prof/gcu_driver.h>
#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <vector>

namespace prof::gcu {

class UtilizationSampler {
public:
  UtilizationSampler(const Host &host, const prof_gcu_driver &driver, DeviceTracks &tracks,
                     std::vector<uint32_t> devices);
  ~UtilizationSampler() { stop(); }
  bool start(int frequency_hz);
  void stop() { thread_.stop(); }
  void set_paused(bool paused) { thread_.set_paused(paused); }

private:
  struct Unit {
    uint32_t device;
    int32_t group;        ///< -1: the whole device
    uint32_t group_index;
    prof_track_id track = 0;
    uint64_t busy = 0;    ///< busy ticks at the last sample
    uint64_t ticks = 0;   ///< device clock at the last sample
  };
  void sample();

  const Host &host_;
  const prof_gcu_driver &driver_;
  DeviceTracks &tracks_;
  std::vector<Unit> units_;
  PeriodicThread thread_;
};

} // namespace prof::gcu

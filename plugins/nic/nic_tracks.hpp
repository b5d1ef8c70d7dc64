// The tracks the nic source emits on: one PROF_TRACK_NETWORK track per
// device with a PROF_TRACK_COUNTER child per metric, declared on first use.
#ifndef PROF_PLUGINS_NIC_TRACKS_HPP
#define PROF_PLUGINS_NIC_TRACKS_HPP

#include "nic_sampler.hpp"

#include <prof/plugin.hpp>

#include <array>
#include <map>
#include <optional>

namespace prof::nic {

class NicTracks {
public:
  explicit NicTracks(const Host &host) : host_(host) {}

  /// Emits every metric `device` holds at `ts`.
  void emit(const DeviceMetrics &device, uint64_t ts);

private:
  struct DeviceTracks {
    prof_track_id network = 0;
    std::array<std::optional<prof_track_id>, kMetricCount> metrics;
  };

  Host host_;
  std::map<std::string, DeviceTracks, std::less<>> devices_;
};

} // namespace prof::nic

#endif

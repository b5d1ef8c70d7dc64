#include "nic_tracks.hpp"

namespace prof::nic {

void NicTracks::emit(const DeviceMetrics &device, uint64_t ts) {
  auto found = devices_.find(device.name);
  if (found == devices_.end()) {
    DeviceTracks tracks;
    tracks.network = host_.track(PROF_TRACK_NETWORK, device.name);
    found = devices_.emplace(std::string(device.name), tracks).first;
  }
  DeviceTracks &tracks = found->second;
  for (size_t i = 0; i < kMetricCount; ++i) {
    if (!device.metrics[i]) continue;
    std::optional<prof_track_id> &slot = tracks.metrics[i];
    if (!slot) {
      const MetricInfo &info = metric_info(static_cast<Metric>(i));
      slot = host_.track(PROF_TRACK_COUNTER, info.track_name, tracks.network, 0, 0, -1, info.unit);
    }
    if (*slot != 0) host_.counter(*slot, ts, *device.metrics[i]);
  }
}

} // namespace prof::nic

#include "utilization_sampler.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace prof::gcu {

UtilizationSampler::UtilizationSampler(const Host &host, const prof_gcu_driver &driver,
                                       DeviceTracks &tracks, std::vector<uint32_t> devices)
    : host_(host), driver_(driver), tracks_(tracks) {
  const prof_gcu_topology &topology = *driver.topology();
  for (uint32_t device : devices) {
    units_.push_back({device, -1, 0});
    for (uint32_t g = 0; g < topology.group_count; ++g)
      for (uint32_t i = 0; i < topology.groups[g].count; ++i)
        units_.push_back({device, static_cast<int32_t>(g), i});
  }
}

bool UtilizationSampler::start(int frequency_hz) {
  const prof_gcu_topology &topology = *driver_.topology();
  for (Unit &unit : units_) {
    const prof_track_id parent = tracks_.group(unit.device, unit.group, unit.group_index);
    const std::string name = unit.group < 0 ? "GCU " + std::to_string(unit.device) + " utilization"
                                            : std::string(topology.groups[unit.group].name) + " " +
                                                  std::to_string(unit.group_index) + " utilization";
    unit.track = tracks_.utilization(parent, name);
    uint32_t count = 0;
    uint64_t host_ns = 0;
    driver_.busy_ticks(unit.device, unit.group, unit.group_index, &unit.busy, &count);
    driver_.clock_pair(unit.device, &host_ns, &unit.ticks);
  }
  const auto period = std::chrono::nanoseconds(1000000000LL / std::max(1, frequency_hz));
  return thread_.start(period, [this] { sample(); });
}

void UtilizationSampler::sample() {
  for (Unit &unit : units_) {
    uint64_t busy = 0, host_ns = 0, ticks = 0;
    uint32_t count = 0;
    if (driver_.busy_ticks(unit.device, unit.group, unit.group_index, &busy, &count) != 0 ||
        driver_.clock_pair(unit.device, &host_ns, &ticks) != 0 || count == 0)
      continue;
    const uint64_t elapsed = ticks > unit.ticks ? ticks - unit.ticks : 0;
    if (elapsed == 0) continue;
    const double percent = 100.0 * static_cast<double>(busy - unit.busy) /
                           (static_cast<double>(elapsed) * count);
    host_.counter(unit.track, host_ns, std::clamp(percent, 0.0, 100.0));
    unit.busy = busy;
    unit.ticks = ticks;
  }
}

} // namespace prof::gcu

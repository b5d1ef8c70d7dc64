#include "device_tracks.hpp"

namespace prof::gcu {
namespace {
constexpr int64_t kNone = -1;
constexpr int64_t kEngineKind = -1;
constexpr int64_t kInstance = -2;
constexpr int64_t kMemoryRow = -2; // in the engine field: no engine has it
constexpr int64_t kMemoryUsed = -3;
int64_t stream_key(uint32_t stream) { return -3 - static_cast<int64_t>(stream); }
} // namespace

DeviceTracks::DeviceTracks(const Host &host, const prof_gcu_driver &driver, int owner)
    : host_(host), driver_(driver), topology_(*driver.topology()), owner_(owner) {}

prof_track_id DeviceTracks::owned(prof_track_kind kind, const std::string &name,
                                  prof_track_id parent, int index, const char *unit,
                                  prof_clock_id clock) const {
  return host_.track(kind, name, parent, owner_, 0, index, unit, clock);
}

prof_track_id DeviceTracks::shared(prof_track_kind kind, const std::string &name,
                                   prof_track_id parent, int index, const char *unit,
                                   prof_clock_id clock) const {
  return host_.track(kind, name, parent, 0, 0, index, unit, clock, PROF_TRACK_SHARED);
}

prof_clock_id DeviceTracks::clock(uint32_t device) {
  std::lock_guard lock(mutex_);
  return clock_locked(device);
}

prof_clock_id DeviceTracks::clock_locked(uint32_t device) {
  if (auto it = clocks_.find(device); it != clocks_.end()) return it->second;
  const std::string name = "GCU " + std::to_string(device) + " clock";
  const prof_clock_id id =
      host_.api()->register_clock_domain(host_.context(), name.c_str(), driver_.clock_frequency(device));
  uint64_t host_ns = 0, ticks = 0;
  if (id != 0 && driver_.clock_pair(device, &host_ns, &ticks) == 0)
    host_.api()->add_calibration(host_.context(), id, ticks, host_ns);
  clocks_.emplace(device, id);
  return id;
}

void DeviceTracks::calibrate() {
  std::lock_guard lock(mutex_);
  for (const auto &[device, id] : clocks_) {
    uint64_t host_ns = 0, ticks = 0;
    if (id != 0 && driver_.clock_pair(device, &host_ns, &ticks) == 0)
      host_.api()->add_calibration(host_.context(), id, ticks, host_ns);
  }
}

prof_track_id DeviceTracks::device(uint32_t device) {
  std::lock_guard lock(mutex_);
  return device_locked(device);
}

prof_track_id DeviceTracks::device_locked(uint32_t device) {
  auto key = std::make_tuple(device, -1, 0u, kNone, kNone, kNone);
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const prof_track_id id =
      shared(PROF_TRACK_DEVICE, "GCU " + std::to_string(device), 0, static_cast<int>(device));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::group(uint32_t device, int32_t group, uint32_t group_index) {
  std::lock_guard lock(mutex_);
  return group_locked(device, group, group_index);
}

prof_track_id DeviceTracks::group_locked(uint32_t device, int32_t group, uint32_t group_index) {
  if (group < 0 || static_cast<uint32_t>(group) >= topology_.group_count) return device_locked(device);
  auto key = std::make_tuple(device, group, group_index, kNone, kNone, kNone);
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const std::string name =
      std::string(topology_.groups[group].name) + " " + std::to_string(group_index);
  const prof_track_id id =
      shared(PROF_TRACK_CLUSTER, name, device_locked(device), static_cast<int>(group_index));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::engine_kind_locked(uint32_t device, int32_t group,
                                               uint32_t group_index, uint32_t engine) {
  auto key = std::make_tuple(device, group, group_index, int64_t{engine}, kEngineKind, kNone);
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const prof_gcu_engine_desc &desc = topology_.engines[engine];
  // An engine with one instance is its own row of work: no "TS" > "TS 0"
  // nesting. One with several is a container of the device.
  const prof_track_id parent = group_locked(device, group, group_index);
  const prof_track_id id = desc.count == 1 ? owned(PROF_TRACK_ENGINE, desc.name, parent, 0, nullptr,
                                                   clock_locked(device))
                                           : shared(PROF_TRACK_ENGINE, desc.name, parent, -1);
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::instance_locked(uint32_t device, int32_t group, uint32_t group_index,
                                            uint32_t engine, uint32_t engine_index) {
  const prof_gcu_engine_desc &desc = topology_.engines[engine];
  if (desc.count == 1) return engine_kind_locked(device, group, group_index, engine);
  auto key = std::make_tuple(device, group, group_index, int64_t{engine}, int64_t{engine_index},
                             kInstance);
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const prof_track_id id =
      owned(PROF_TRACK_ENGINE, std::string(desc.name) + " " + std::to_string(engine_index),
            engine_kind_locked(device, group, group_index, engine), static_cast<int>(engine_index),
            nullptr, clock_locked(device));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::engine_instance(uint32_t device, int32_t group, uint32_t group_index,
                                            uint32_t engine, uint32_t engine_index) {
  if (engine >= topology_.engine_count) return 0;
  std::lock_guard lock(mutex_);
  return instance_locked(device, group, group_index, engine, engine_index);
}

prof_track_id DeviceTracks::stream(uint32_t device, uint32_t engine, uint32_t stream) {
  if (engine >= topology_.engine_count) return 0;
  std::lock_guard lock(mutex_);
  auto key = std::make_tuple(device, -1, 0u, int64_t{engine}, kNone, stream_key(stream));
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const std::string name = std::string(topology_.engines[engine].name) + " stream " + std::to_string(stream);
  const prof_track_id id = owned(PROF_TRACK_ENGINE, name, device_locked(device),
                                 static_cast<int>(stream), nullptr, clock_locked(device));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::counter(uint32_t device, int32_t group, uint32_t group_index,
                                    uint32_t engine, uint32_t engine_index, uint32_t event) {
  if (engine >= topology_.engine_count || event >= topology_.engines[engine].event_count) return 0;
  std::lock_guard lock(mutex_);
  auto key = std::make_tuple(device, group, group_index, int64_t{engine}, int64_t{engine_index},
                             int64_t{event});
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  // The instance row is a container here (session clock); the counter carries the device clock.
  const prof_gcu_engine_desc &desc = topology_.engines[engine];
  const prof_track_id parent = shared(
      PROF_TRACK_ENGINE, std::string(desc.name) + " " + std::to_string(engine_index),
      engine_kind_locked(device, group, group_index, engine), static_cast<int>(engine_index));
  const prof_track_id id =
      shared(PROF_TRACK_COUNTER, desc.events[event], parent, -1, "cycles", clock_locked(device));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::device_child(uint32_t device, int64_t what, prof_track_kind kind,
                                         const char *name, const char *unit) {
  std::lock_guard lock(mutex_);
  auto key = std::make_tuple(device, -1, 0u, what, kNone, kNone);
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const prof_track_id id = owned(kind, name, device_locked(device), -1, unit, clock_locked(device));
  tracks_.emplace(key, id);
  return id;
}

prof_track_id DeviceTracks::memory(uint32_t device) {
  return device_child(device, kMemoryRow, PROF_TRACK_CUSTOM, "Memory", nullptr);
}

prof_track_id DeviceTracks::memory_used(uint32_t device) {
  return device_child(device, kMemoryUsed, PROF_TRACK_COUNTER, PROF_MEMORY_USED_TRACK, "bytes");
}

prof_track_id DeviceTracks::utilization(prof_track_id parent, const std::string &name) {
  return shared(PROF_TRACK_COUNTER, name, parent, -1, "%");
}

} // namespace prof::gcu

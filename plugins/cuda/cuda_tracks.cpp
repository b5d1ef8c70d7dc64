#include "cuda_tracks.hpp"

#include <prof/thread_track.hpp>

namespace prof::cuda {
namespace {

// Rows under a device other than its streams (which are >= 0); counters and
// the waits on a stream are told apart by the name in the key.
constexpr int64_t kSync = -1;
constexpr int64_t kMemory = -2;
constexpr int64_t kCounter = -3;
constexpr int64_t kStreamSync = -4;
constexpr int64_t kDeviceCounter = -5;

} // namespace

prof_track_id CudaTracks::device_locked(uint32_t device) {
  if (auto it = devices_.find(device); it != devices_.end()) return it->second;
  // Only the index: every process, and the metrics sampler, must name it alike.
  const prof_track_id id =
      host_.track(PROF_TRACK_DEVICE, "GPU " + std::to_string(device), 0, 0, 0,
                  static_cast<int>(device), nullptr, PROF_CLOCK_SESSION, PROF_TRACK_SHARED);
  devices_.emplace(device, id);
  return id;
}

prof_track_id CudaTracks::child_locked(uint32_t device, int64_t what, prof_track_kind kind,
                                       const std::string &name, int index, const char *unit,
                                       bool shared) {
  const bool named = what == kCounter || what == kDeviceCounter;
  const auto key = std::make_tuple(device, what, named ? name : std::string());
  return child_locked(key, device, kind, name, index, unit, 0, shared);
}

prof_track_id CudaTracks::child_locked(const Key &key, uint32_t device, prof_track_kind kind,
                                       const std::string &name, int index, const char *unit,
                                       prof_track_id parent, bool shared) {
  if (auto it = children_.find(key); it != children_.end()) return it->second;
  if (parent == 0) parent = device_locked(device);
  if (parent == 0) return 0;
  const prof_track_id id = host_.track(kind, name, parent, shared ? 0 : owner_, 0, index, unit,
                                       PROF_CLOCK_SESSION, shared ? PROF_TRACK_SHARED : 0u);
  children_.emplace(key, id);
  return id;
}

prof_track_id CudaTracks::device(uint32_t device) {
  std::lock_guard lock(mutex_);
  return device_locked(device);
}

prof_track_id CudaTracks::stream(uint32_t device, uint32_t stream) {
  std::lock_guard lock(mutex_);
  return child_locked(device, stream, PROF_TRACK_ENGINE, "Stream " + std::to_string(stream),
                      static_cast<int>(stream));
}

prof_track_id CudaTracks::sync(uint32_t device, uint32_t stream) {
  std::lock_guard lock(mutex_);
  if (stream == UINT32_MAX) return child_locked(device, kSync, PROF_TRACK_CUSTOM, "Sync", -1);
  const prof_track_id row =
      child_locked(device, stream, PROF_TRACK_ENGINE, "Stream " + std::to_string(stream),
                   static_cast<int>(stream));
  if (row == 0) return 0;
  return child_locked(std::make_tuple(device, kStreamSync, std::to_string(stream)), device,
                      PROF_TRACK_CUSTOM, "Sync", -1, nullptr, row);
}

prof_track_id CudaTracks::memory(uint32_t device) {
  std::lock_guard lock(mutex_);
  return child_locked(device, kMemory, PROF_TRACK_CUSTOM, "Memory", -1);
}

prof_track_id CudaTracks::counter(uint32_t device, const std::string &name, const char *unit) {
  std::lock_guard lock(mutex_);
  return child_locked(device, kCounter, PROF_TRACK_COUNTER, name, -1, unit);
}

prof_track_id CudaTracks::device_counter(uint32_t device, const std::string &name,
                                         const char *unit) {
  std::lock_guard lock(mutex_);
  return child_locked(device, kDeviceCounter, PROF_TRACK_COUNTER, name, -1, unit, true);
}

prof_track_id CudaTracks::thread(uint32_t tid) {
  std::lock_guard lock(mutex_);
  if (auto it = threads_.find(tid); it != threads_.end()) return it->second;
  const prof_track_id id = declare_thread_track(host_, static_cast<int>(tid));
  threads_.emplace(tid, id);
  return id;
}

} // namespace prof::cuda

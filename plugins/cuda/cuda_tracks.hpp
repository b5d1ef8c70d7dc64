// Tracks of CUDA work: a device ("GPU 0") with a row per stream,
// its memory and its counters, and the threads that called the API. Declared
// on first use, from any thread.
//
// Owners (ABI 1.10): CUPTI reports the work of this process's contexts, so
// its streams, waits, memory rows and counters are the process's (`owner`);
// the device and the counters NVML reads of it are PROF_TRACK_SHARED.
#ifndef PROF_PLUGINS_CUDA_CUDA_TRACKS_HPP
#define PROF_PLUGINS_CUDA_CUDA_TRACKS_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace prof::cuda {

class CudaTracks {
public:
  /// `owner`: this process's pid, whose work CUPTI reports; 0 for none.
  explicit CudaTracks(const Host &host, int owner = 0) : host_(host), owner_(owner) {}

  prof_track_id device(uint32_t device);
  /// A stream's row ("Stream 7") under its device.
  prof_track_id stream(uint32_t device, uint32_t stream);
  /// Waits (synchronization) on a stream, or on the whole device for stream -1.
  prof_track_id sync(uint32_t device, uint32_t stream);
  /// Allocations and frees of the device's memory.
  prof_track_id memory(uint32_t device);
  /// A counter of this process's work on the device ("Memory used") in `unit`.
  prof_track_id counter(uint32_t device, const std::string &name, const char *unit);
  /// A counter of the device itself, every process's ("SM clock"), in `unit`.
  prof_track_id device_counter(uint32_t device, const std::string &name, const char *unit);
  /// Thread `tid` of this process (its OS name), where its API calls go.
  prof_track_id thread(uint32_t tid);

private:
  prof_track_id device_locked(uint32_t device);
  using Key = std::tuple<uint32_t, int64_t, std::string>;
  prof_track_id child_locked(uint32_t device, int64_t what, prof_track_kind kind,
                             const std::string &name, int index, const char *unit = nullptr,
                             bool shared = false);
  prof_track_id child_locked(const Key &key, uint32_t device, prof_track_kind kind,
                             const std::string &name, int index, const char *unit,
                             prof_track_id parent = 0, bool shared = false);

  const Host &host_;
  const int owner_;
  std::mutex mutex_;
  std::map<uint32_t, prof_track_id> devices_;
  // (device, what, name): what is a stream (>= 0) or a kind of row (cuda_tracks.cpp).
  std::map<Key, prof_track_id> children_;
  std::map<uint32_t, prof_track_id> threads_;
};

} // namespace prof::cuda

#endif

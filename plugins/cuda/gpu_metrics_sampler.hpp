// GPU metrics through NVML at a fixed rate, on counter tracks under each
// device: utilization, memory used, SM clock, power and temperature.
#ifndef PROF_PLUGINS_CUDA_GPU_METRICS_SAMPLER_HPP
#define PROF_PLUGINS_CUDA_GPU_METRICS_SAMPLER_HPP

#include "cuda_tracks.hpp"
#include "nvml_library.hpp"

#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <atomic>
#include <vector>

namespace prof::cuda {

class GpuMetricsSampler {
public:
  GpuMetricsSampler(const Host &host, const NvmlLibrary &nvml, CudaTracks &tracks)
      : host_(host), nvml_(nvml), tracks_(tracks) {}
  ~GpuMetricsSampler() { stop(); }

  /// Initializes NVML and starts sampling every device; false with `error` set when it cannot.
  bool start(int frequency_hz, std::string &error);
  void stop();
  void set_paused(bool paused) { paused_ = paused; }

  /// Reads every device once (the sampler's tick).
  void sample();

private:
  struct Device {
    NvmlDevice handle;
    prof_track_id utilization, memory_utilization, memory_used, sm_clock, power, temperature;
    prof_track_id memory_total; ///< the device's memory size (event.h's "Memory total")
  };

  const Host &host_;
  const NvmlLibrary &nvml_;
  CudaTracks &tracks_;
  std::vector<Device> devices_;
  PeriodicThread thread_;
  std::atomic<bool> paused_{false};
  bool initialized_ = false;
};

} // namespace prof::cuda

#endif

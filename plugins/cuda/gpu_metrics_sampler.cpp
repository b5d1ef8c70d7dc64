#include "gpu_metrics_sampler.hpp"

#include <chrono>

namespace prof::cuda {

bool GpuMetricsSampler::start(int frequency_hz, std::string &error) {
  if (const NvmlReturn result = nvml_.init(); result != 0) {
    error = "NVML init failed: " + nvml_.describe(result);
    return false;
  }
  initialized_ = true;
  unsigned int count = 0;
  if (const NvmlReturn result = nvml_.device_count(&count); result != 0) {
    error = "NVML device count failed: " + nvml_.describe(result);
    return false;
  }
  for (unsigned int index = 0; index < count; ++index) {
    Device device{};
    if (nvml_.device_by_index(index, &device.handle) != 0) continue;
    device.utilization = tracks_.device_counter(index, "GPU utilization", "%");
    device.memory_utilization = tracks_.device_counter(index, "Memory utilization", "%");
    device.memory_used = tracks_.device_counter(index, "Memory used (NVML)", "bytes");
    device.memory_total = tracks_.device_counter(index, PROF_MEMORY_TOTAL_TRACK, "bytes");
    device.sm_clock = tracks_.device_counter(index, "SM clock", "MHz");
    device.power = tracks_.device_counter(index, "Power", "W");
    device.temperature = tracks_.device_counter(index, "Temperature", "C");
    devices_.push_back(device);
  }
  if (devices_.empty()) {
    error = "NVML sees no GPU";
    return false;
  }
  thread_.start(std::chrono::nanoseconds(1'000'000'000 / frequency_hz), [this] { sample(); });
  return true;
}

void GpuMetricsSampler::stop() {
  thread_.stop();
  if (initialized_) nvml_.shutdown();
  initialized_ = false;
}

void GpuMetricsSampler::sample() {
  if (paused_) return;
  for (const Device &device : devices_) {
    const uint64_t now = host_.now();
    NvmlUtilization utilization{};
    if (nvml_.utilization(device.handle, &utilization) == 0) {
      host_.counter(device.utilization, now, utilization.gpu);
      host_.counter(device.memory_utilization, now, utilization.memory);
    }
    NvmlMemory memory{};
    if (nvml_.memory(device.handle, &memory) == 0) {
      host_.counter(device.memory_used, now, static_cast<double>(memory.used));
      host_.counter(device.memory_total, now, static_cast<double>(memory.total));
    }
    unsigned int value = 0;
    if (nvml_.clock(device.handle, kNvmlClockSm, &value) == 0)
      host_.counter(device.sm_clock, now, value);
    if (nvml_.power(device.handle, &value) == 0) host_.counter(device.power, now, value / 1000.0);
    if (nvml_.temperature(device.handle, kNvmlTemperatureGpu, &value) == 0)
      host_.counter(device.temperature, now, value);
  }
}

} // namespace prof::cuda

#include "nvml_library.hpp"

#include "dynamic_library.hpp"

namespace prof::cuda {

std::string NvmlLibrary::describe(NvmlReturn result) const {
  const char *text = error_string ? error_string(result) : nullptr;
  return text ? text : "NVML error " + std::to_string(result);
}

const NvmlLibrary *open_nvml(const std::string &path, std::string &error) {
  void *library = open_library(path, "NVML", error);
  if (library == nullptr) return nullptr;
  auto *nvml = new NvmlLibrary;
  error.clear(); // names the first entry point missing, if any
  bool ok = resolve(library, "NVML", "nvmlInit_v2", nvml->init, error);
  ok &= resolve(library, "NVML", "nvmlShutdown", nvml->shutdown, error);
  ok &= resolve(library, "NVML", "nvmlErrorString", nvml->error_string, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetCount_v2", nvml->device_count, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetHandleByIndex_v2", nvml->device_by_index, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetUtilizationRates", nvml->utilization, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetMemoryInfo", nvml->memory, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetClockInfo", nvml->clock, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetPowerUsage", nvml->power, error);
  ok &= resolve(library, "NVML", "nvmlDeviceGetTemperature", nvml->temperature, error);
  if (!ok) {
    delete nvml;
    dlclose(library);
    return nullptr;
  }
  return nvml;
}

} // namespace prof::cuda

#include "nvml_library.hpp"

#include <dlfcn.h>

namespace prof::cuda {
namespace {

template <class F> bool resolve(void *library, const char *name, F &function, std::string &error) {
  function = reinterpret_cast<F>(dlsym(library, name));
  if (function == nullptr && error.empty()) error = std::string("NVML lacks ") + name;
  return function != nullptr;
}

} // namespace

std::string NvmlLibrary::describe(NvmlReturn result) const {
  const char *text = error_string ? error_string(result) : nullptr;
  return text ? text : "NVML error " + std::to_string(result);
}

const NvmlLibrary *open_nvml(const std::string &path, std::string &error) {
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char *reason = dlerror();
    error = "cannot load NVML (" + path + "): " + (reason ? reason : "unknown error");
    return nullptr;
  }
  auto *nvml = new NvmlLibrary;
  error.clear();
  bool ok = resolve(library, "nvmlInit_v2", nvml->init, error);
  ok &= resolve(library, "nvmlShutdown", nvml->shutdown, error);
  ok &= resolve(library, "nvmlErrorString", nvml->error_string, error);
  ok &= resolve(library, "nvmlDeviceGetCount_v2", nvml->device_count, error);
  ok &= resolve(library, "nvmlDeviceGetHandleByIndex_v2", nvml->device_by_index, error);
  ok &= resolve(library, "nvmlDeviceGetUtilizationRates", nvml->utilization, error);
  ok &= resolve(library, "nvmlDeviceGetMemoryInfo", nvml->memory, error);
  ok &= resolve(library, "nvmlDeviceGetClockInfo", nvml->clock, error);
  ok &= resolve(library, "nvmlDeviceGetPowerUsage", nvml->power, error);
  ok &= resolve(library, "nvmlDeviceGetTemperature", nvml->temperature, error);
  if (!ok) {
    delete nvml;
    dlclose(library);
    return nullptr;
  }
  return nvml;
}

} // namespace prof::cuda

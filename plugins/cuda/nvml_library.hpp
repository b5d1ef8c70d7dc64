// NVML, opened at run time from the driver's libnvidia-ml.so.1. The few
// declarations prof needs are written here from NVML's documented C API, so
// no NVML header is needed to build.
#ifndef PROF_PLUGINS_CUDA_NVML_LIBRARY_HPP
#define PROF_PLUGINS_CUDA_NVML_LIBRARY_HPP

#include <string>

namespace prof::cuda {

using NvmlReturn = int; ///< nvmlReturn_t: 0 is NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque *;

struct NvmlUtilization {
  unsigned int gpu;    ///< percent of time a kernel ran
  unsigned int memory; ///< percent of time device memory was read or written
};
struct NvmlMemory {
  unsigned long long total, free, used; ///< bytes
};

inline constexpr int kNvmlClockSm = 1;        ///< NVML_CLOCK_SM
inline constexpr int kNvmlTemperatureGpu = 0; ///< NVML_TEMPERATURE_GPU

/// The NVML entry points the metrics sampler calls.
struct NvmlLibrary {
  NvmlReturn (*init)() = nullptr;     ///< nvmlInit_v2
  NvmlReturn (*shutdown)() = nullptr; ///< nvmlShutdown
  const char *(*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*device_count)(unsigned int *) = nullptr;                 ///< nvmlDeviceGetCount_v2
  NvmlReturn (*device_by_index)(unsigned int, NvmlDevice *) = nullptr;  ///< ..._v2
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization *) = nullptr;   ///< GetUtilizationRates
  NvmlReturn (*memory)(NvmlDevice, NvmlMemory *) = nullptr;             ///< GetMemoryInfo
  NvmlReturn (*clock)(NvmlDevice, int, unsigned int *) = nullptr;       ///< GetClockInfo, MHz
  NvmlReturn (*power)(NvmlDevice, unsigned int *) = nullptr;            ///< GetPowerUsage, mW
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned int *) = nullptr; ///< GetTemperature, C

  std::string describe(NvmlReturn result) const;
};

/// Opens `path` and resolves every entry point; nullptr with `error` set when it cannot.
const NvmlLibrary *open_nvml(const std::string &path, std::string &error);

} // namespace prof::cuda

#endif

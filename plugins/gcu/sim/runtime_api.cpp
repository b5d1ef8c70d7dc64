// Runtime API: initialization, devices, the profiler flag, error strings.
#include "api_call.hpp"
#include "runtime_export.hpp"
#include "runtime_state.hpp"

#include <prof/profiler_api.h>

using namespace prof::gcusim;

GCUSIM_EXPORT gcuError_t gcuInit(unsigned int flags) {
  ApiCall call(kGcuInit);
  RuntimeState::instance();
  return call.finish(flags == 0 ? gcuSuccess : gcuErrorInvalidValue);
}

GCUSIM_EXPORT gcuError_t gcuGetDeviceCount(int *count) {
  ApiCall call(kGcuGetDeviceCount);
  if (count == nullptr) return call.finish(gcuErrorInvalidValue);
  *count = static_cast<int>(Simulator::instance().device_count());
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuSetDevice(int device) {
  ApiCall call(kGcuSetDevice);
  if (device < 0 || static_cast<uint32_t>(device) >= Simulator::instance().device_count())
    return call.finish(gcuErrorInvalidDevice);
  call.set_device(device);
  RuntimeState::set_current_device(static_cast<uint32_t>(device));
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuGetDevice(int *device) {
  ApiCall call(kGcuGetDevice);
  uint32_t current = RuntimeState::current_device();
  call.set_device(static_cast<int32_t>(current));
  if (device == nullptr) return call.finish(gcuErrorInvalidValue);
  *device = static_cast<int>(current);
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuProfilerStart(void) {
  ApiCall call(kGcuProfilerStart);
  RuntimeState::instance().profiler_active.store(true);
  prof_start(); // prof --capture-range profiler-api starts collecting here
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuProfilerStop(void) {
  ApiCall call(kGcuProfilerStop);
  RuntimeState::instance().profiler_active.store(false);
  prof_stop();
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT int gcusimProfilerActive(void) {
  return RuntimeState::instance().profiler_active.load() ? 1 : 0;
}

GCUSIM_EXPORT const char *gcuGetErrorString(gcuError_t error) {
  switch (error) {
  case gcuSuccess:
    return "gcuSuccess: no error";
  case gcuErrorInvalidValue:
    return "gcuErrorInvalidValue: an argument is out of range or names no device memory";
  case gcuErrorInvalidDevice:
    return "gcuErrorInvalidDevice: no such device";
  case gcuErrorMemoryAllocation:
    return "gcuErrorMemoryAllocation: out of device memory";
  case gcuErrorNotReady:
    return "gcuErrorNotReady: the work has not finished yet";
  case gcuErrorInvalidHandle:
    return "gcuErrorInvalidHandle: no such stream or event";
  }
  return "unknown gcuError_t";
}

// Runtime API: device memory, pinned host memory, copies and memsets.
#include "api_call.hpp"
#include "runtime_export.hpp"
#include "runtime_state.hpp"

using namespace prof::gcusim;

namespace {

/// Queues a copy on `handle`'s stream after checking that the device side(s)
/// lie in device memory; waits for it when `wait`.
gcuError_t queue_copy(ApiCall &call, void *dst, const void *src, size_t bytes, CopyKind kind,
                      gcuStream_t handle, bool wait) {
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(handle);
  if (!stream) return gcuErrorInvalidHandle;
  call.set_device(static_cast<int32_t>(stream->device()));
  if (dst == nullptr || src == nullptr) return gcuErrorInvalidValue;
  if (bytes == 0) return gcuSuccess;
  bool device_src = kind != CopyKind::HostToDevice;
  bool device_dst = kind != CopyKind::DeviceToHost;
  if ((device_src && !state.memory().find(src, bytes)) ||
      (device_dst && !state.memory().find(dst, bytes)))
    return gcuErrorInvalidValue;
  Device &device = state.simulator().device(stream->device());
  WorkOrigin origin{stream->id(), call.work_correlation_id(), 0};
  stream->enqueue(
      [&device, dst, src, bytes, kind, origin] { device.run_copy(dst, src, bytes, kind, origin); });
  if (wait) stream->synchronize();
  return gcuSuccess;
}

gcuError_t queue_memset(ApiCall &call, void *dst, int value, size_t bytes, gcuStream_t handle,
                        bool wait) {
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(handle);
  if (!stream) return gcuErrorInvalidHandle;
  call.set_device(static_cast<int32_t>(stream->device()));
  if (dst == nullptr) return gcuErrorInvalidValue;
  if (bytes == 0) return gcuSuccess;
  if (!state.memory().find(dst, bytes)) return gcuErrorInvalidValue;
  Device &device = state.simulator().device(stream->device());
  WorkOrigin origin{stream->id(), call.work_correlation_id(), 0};
  stream->enqueue(
      [&device, dst, value, bytes, origin] { device.run_memset(dst, value, bytes, origin); });
  if (wait) stream->synchronize();
  return gcuSuccess;
}

gcuError_t allocate(ApiCall &call, void **ptr, size_t bytes, prof_gcu_memory_kind memory) {
  uint32_t device = RuntimeState::current_device();
  call.set_device(static_cast<int32_t>(device));
  if (ptr == nullptr || bytes == 0) return gcuErrorInvalidValue;
  void *block = RuntimeState::instance().memory().allocate(
      device, bytes, memory, [&call](const BlockChange &change) { call.record_memory(change); });
  if (block == nullptr) return gcuErrorMemoryAllocation;
  *ptr = block;
  return gcuSuccess;
}

gcuError_t release(ApiCall &call, void *ptr, prof_gcu_memory_kind memory) {
  return RuntimeState::instance().memory().release(
             ptr, memory, [&call](const BlockChange &change) { call.record_memory(change); })
             ? gcuSuccess
             : gcuErrorInvalidValue;
}

} // namespace

GCUSIM_EXPORT gcuError_t gcuMalloc(void **ptr, size_t bytes) {
  ApiCall call(kGcuMalloc);
  return call.finish(allocate(call, ptr, bytes, PROF_GCU_MEMORY_DEVICE));
}

GCUSIM_EXPORT gcuError_t gcuFree(void *ptr) {
  ApiCall call(kGcuFree);
  if (ptr == nullptr) return call.finish(gcuSuccess);
  RuntimeState &state = RuntimeState::instance();
  std::optional<uint32_t> owner = state.memory().owner(ptr, PROF_GCU_MEMORY_DEVICE);
  if (!owner) return call.finish(gcuErrorInvalidValue);
  call.set_device(static_cast<int32_t>(*owner));
  state.synchronize_device(*owner); // queued work may still use it
  return call.finish(release(call, ptr, PROF_GCU_MEMORY_DEVICE));
}

GCUSIM_EXPORT gcuError_t gcuMallocHost(void **ptr, size_t bytes) {
  ApiCall call(kGcuMallocHost);
  return call.finish(allocate(call, ptr, bytes, PROF_GCU_MEMORY_PINNED));
}

GCUSIM_EXPORT gcuError_t gcuFreeHost(void *ptr) {
  ApiCall call(kGcuFreeHost);
  if (ptr == nullptr) return call.finish(gcuSuccess);
  std::optional<uint32_t> owner =
      RuntimeState::instance().memory().owner(ptr, PROF_GCU_MEMORY_PINNED);
  if (!owner) return call.finish(gcuErrorInvalidValue);
  call.set_device(static_cast<int32_t>(*owner));
  return call.finish(release(call, ptr, PROF_GCU_MEMORY_PINNED));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyH2D(void *dst, const void *src, size_t bytes) {
  ApiCall call(kGcuMemcpyH2D);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::HostToDevice, nullptr, true));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyD2H(void *dst, const void *src, size_t bytes) {
  ApiCall call(kGcuMemcpyD2H);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::DeviceToHost, nullptr, true));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyD2D(void *dst, const void *src, size_t bytes) {
  ApiCall call(kGcuMemcpyD2D);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::DeviceToDevice, nullptr, true));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyH2DAsync(void *dst, const void *src, size_t bytes,
                                           gcuStream_t stream) {
  ApiCall call(kGcuMemcpyH2DAsync);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::HostToDevice, stream, false));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyD2HAsync(void *dst, const void *src, size_t bytes,
                                           gcuStream_t stream) {
  ApiCall call(kGcuMemcpyD2HAsync);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::DeviceToHost, stream, false));
}

GCUSIM_EXPORT gcuError_t gcuMemcpyD2DAsync(void *dst, const void *src, size_t bytes,
                                           gcuStream_t stream) {
  ApiCall call(kGcuMemcpyD2DAsync);
  return call.finish(queue_copy(call, dst, src, bytes, CopyKind::DeviceToDevice, stream, false));
}

GCUSIM_EXPORT gcuError_t gcuMemset(void *dst, int value, size_t bytes) {
  ApiCall call(kGcuMemset);
  return call.finish(queue_memset(call, dst, value, bytes, nullptr, true));
}

GCUSIM_EXPORT gcuError_t gcuMemsetAsync(void *dst, int value, size_t bytes, gcuStream_t stream) {
  ApiCall call(kGcuMemsetAsync);
  return call.finish(queue_memset(call, dst, value, bytes, stream, false));
}

// Runtime API: kernel launches, streams, events and synchronization.
#include "api_call.hpp"
#include "runtime_export.hpp"
#include "runtime_state.hpp"

#include <prof/event.h>

using namespace prof::gcusim;

namespace {

/// A kernel launch; its records are of `category` (0: what the activity says).
gcuError_t launch(ApiFunction function, const char *name, gcuKernelFn body, void *args,
                  gcuStream_t stream_handle, uint16_t category) {
  ApiCall call(function);
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(stream_handle);
  if (!stream) return call.finish(gcuErrorInvalidHandle);
  call.set_device(static_cast<int32_t>(stream->device()));
  if (name == nullptr || *name == '\0' || body == nullptr) return call.finish(gcuErrorInvalidValue);
  Simulator &sim = state.simulator();
  uint32_t label = sim.labels().intern(name, category);
  Device &device = sim.device(stream->device());
  WorkOrigin origin{stream->id(), call.work_correlation_id(), sim.next_op_id()};
  stream->enqueue(
      [&device, body, args, label, origin] { device.run_kernel(body, args, label, origin); });
  return call.finish(gcuSuccess);
}

} // namespace

GCUSIM_EXPORT gcuError_t gcuLaunchKernel(const char *name, gcuKernelFn body, void *args,
                                         gcuStream_t stream) {
  return launch(kGcuLaunchKernel, name, body, args, stream, 0);
}

GCUSIM_EXPORT gcuError_t gcuLaunchCollectiveKernel(const char *name, gcuKernelFn body, void *args,
                                                   gcuStream_t stream) {
  return launch(kGcuLaunchCollectiveKernel, name, body, args, stream, PROF_CATEGORY_COMMUNICATION);
}

GCUSIM_EXPORT gcuError_t gcuStreamCreate(gcuStream_t *stream) {
  ApiCall call(kGcuStreamCreate);
  uint32_t device = RuntimeState::current_device();
  call.set_device(static_cast<int32_t>(device));
  if (stream == nullptr) return call.finish(gcuErrorInvalidValue);
  *stream = RuntimeState::instance().create_stream(device);
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuStreamDestroy(gcuStream_t handle) {
  ApiCall call(kGcuStreamDestroy);
  if (handle == nullptr) return call.finish(gcuErrorInvalidHandle); // the default stream stays
  std::shared_ptr<CommandStream> stream = RuntimeState::instance().remove_stream(handle);
  if (!stream) return call.finish(gcuErrorInvalidHandle);
  call.set_device(static_cast<int32_t>(stream->device()));
  stream->synchronize();
  stream.reset(); // ends its worker unless a device synchronize still holds it
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuStreamSynchronize(gcuStream_t handle) {
  ApiCall call(kGcuStreamSynchronize);
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(handle);
  if (!stream) return call.finish(gcuErrorInvalidHandle);
  call.set_device(static_cast<int32_t>(stream->device()));
  uint64_t start_ns = host_now_ns();
  stream->synchronize();
  state.simulator()
      .device(stream->device())
      .record_ts(kTsMemoryWait, start_ns, host_now_ns(), {stream->id(), call.work_correlation_id(), 0});
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuStreamWaitEvent(gcuStream_t handle, gcuEvent_t event_handle) {
  ApiCall call(kGcuStreamWaitEvent);
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(handle);
  std::shared_ptr<SimEvent> event = state.event(event_handle);
  if (!stream || !event) return call.finish(gcuErrorInvalidHandle);
  call.set_device(static_cast<int32_t>(stream->device()));
  uint64_t generation = event->latest();
  if (generation == 0) return call.finish(gcuSuccess); // never recorded: nothing to wait for
  Device &device = state.simulator().device(stream->device());
  WorkOrigin origin{stream->id(), call.work_correlation_id(), 0};
  stream->enqueue([&device, event, generation, origin] {
    uint64_t start_ns = host_now_ns();
    event->wait(generation);
    device.record_ts(kTsWaitStream, start_ns, host_now_ns(), origin);
  });
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuEventCreate(gcuEvent_t *event) {
  ApiCall call(kGcuEventCreate);
  call.set_device(static_cast<int32_t>(RuntimeState::current_device()));
  if (event == nullptr) return call.finish(gcuErrorInvalidValue);
  *event = RuntimeState::instance().create_event();
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuEventDestroy(gcuEvent_t event) {
  ApiCall call(kGcuEventDestroy);
  bool removed = RuntimeState::instance().remove_event(event);
  return call.finish(removed ? gcuSuccess : gcuErrorInvalidHandle);
}

GCUSIM_EXPORT gcuError_t gcuEventRecord(gcuEvent_t event_handle, gcuStream_t handle) {
  ApiCall call(kGcuEventRecord);
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<CommandStream> stream = state.stream(handle);
  std::shared_ptr<SimEvent> event = state.event(event_handle);
  if (!stream || !event) return call.finish(gcuErrorInvalidHandle);
  call.set_device(static_cast<int32_t>(stream->device()));
  uint64_t generation = event->add_record(stream->device(), stream->id());
  Device &device = state.simulator().device(stream->device());
  WorkOrigin origin{stream->id(), call.work_correlation_id(), 0};
  stream->enqueue([&device, event, generation, origin] {
    uint64_t start_ns = host_now_ns();
    event->complete(generation, start_ns);
    device.record_ts(kTsRecordStream, start_ns, host_now_ns(), origin);
  });
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuEventSynchronize(gcuEvent_t event_handle) {
  ApiCall call(kGcuEventSynchronize);
  RuntimeState &state = RuntimeState::instance();
  std::shared_ptr<SimEvent> event = state.event(event_handle);
  if (!event) return call.finish(gcuErrorInvalidHandle);
  SimEvent::State recorded = event->state();
  if (recorded.recorded == 0) return call.finish(gcuSuccess);
  call.set_device(static_cast<int32_t>(recorded.device));
  uint64_t start_ns = host_now_ns();
  event->wait(recorded.recorded);
  state.simulator()
      .device(recorded.device)
      .record_ts(kTsMemoryWait, start_ns, host_now_ns(),
                 {recorded.stream_id, call.work_correlation_id(), 0});
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuEventElapsedTime(float *ms, gcuEvent_t start, gcuEvent_t end) {
  ApiCall call(kGcuEventElapsedTime);
  RuntimeState &state = RuntimeState::instance();
  if (ms == nullptr) return call.finish(gcuErrorInvalidValue);
  std::shared_ptr<SimEvent> first = state.event(start);
  std::shared_ptr<SimEvent> last = state.event(end);
  if (!first || !last) return call.finish(gcuErrorInvalidHandle);
  SimEvent::State a = first->state();
  SimEvent::State b = last->state();
  call.set_device(static_cast<int32_t>(b.device));
  if (a.recorded == 0 || b.recorded == 0) return call.finish(gcuErrorInvalidValue);
  if (a.completed < a.recorded || b.completed < b.recorded) return call.finish(gcuErrorNotReady);
  *ms = static_cast<float>(
      static_cast<double>(static_cast<int64_t>(b.completed_ns - a.completed_ns)) / 1e6);
  return call.finish(gcuSuccess);
}

GCUSIM_EXPORT gcuError_t gcuDeviceSynchronize(void) {
  ApiCall call(kGcuDeviceSynchronize);
  RuntimeState &state = RuntimeState::instance();
  uint32_t device = RuntimeState::current_device();
  call.set_device(static_cast<int32_t>(device));
  uint64_t start_ns = host_now_ns();
  state.synchronize_device(device);
  state.simulator().device(device).record_ts(kTsMemoryWait, start_ns, host_now_ns(),
                                             {0, call.work_correlation_id(), 0});
  return call.finish(gcuSuccess);
}

#include "call_recorder.hpp"

#include "call_clock.hpp"
#include "interpose_runtime.hpp"
#include "open_calls.hpp"

#include <prof/python/frame_merge.hpp>
#include <prof/stacks/return_addresses.hpp>
#include <prof/thread_track.hpp>

#include <unistd.h>

#include <cerrno>
#include <mutex>

namespace prof::osrt {

CallRecorder::CallRecorder(const Host &host, const OsrtSettings &settings)
    : host_(host), settings_(settings), symbolizer_(host) {
  for (std::size_t i = 0; i < kOsrtFunctionCount; ++i)
    names_[i] = host_.intern(kOsrtFunctionNames[i]);
  category_ = host_.intern("osrt");
  if (settings_.python_frames) {
    python_ = python::find_python_runtime().runtime;
    if (python_) python_names_ = std::make_unique<PythonFrameNames>(host_, *python_);
  }
}

void CallRecorder::record(OsrtFunction function, uint64_t t0, uint64_t t1, void *caller) {
  const uint64_t end = CallClock::monotonic_ns_refining_rate();
  const uint64_t duration = CallClock::to_ns(t1 - t0);
  const uint64_t begin = end - duration;
  const prof_track_id track = thread_track();
  if (track == 0) return;
  host_.slice(track, begin, duration, names_[static_cast<unsigned>(function)], category_, 0);
  if (duration >= settings_.backtrace_threshold_ns) {
    const prof_stack_id id = stack(function, caller);
    if (id != 0) host_.stack(track, begin, id, category_);
  }
}

void CallRecorder::emit_unfinished(uint64_t now) {
  const uint64_t ticks_now = CallClock::ticks();
  for_each_open_call([&](const OpenCall &call) {
    const uint64_t duration = ticks_now > call.since ? CallClock::to_ns(ticks_now - call.since) : 0;
    // However short so far: it is what the thread is inside.
    if (duration > now || call.tid <= 0) return;
    const prof_track_id track = declare_thread_track(host_, call.tid);
    if (track == 0) return;
    const uint64_t begin = now - duration;
    const prof_string_id name = names_[static_cast<unsigned>(call.function)];
    host_.slice(track, begin, duration, name, category_, 0);
    // What stack a blocked thread has cannot be read from here: its call site stands for it.
    const prof_string_id frames[2] = {name, symbolizer_.frame(call.caller)};
    if (const prof_stack_id id = host_.api()->intern_stack(host_.context(), frames, 2))
      host_.stack(track, begin, id, category_);
  });
}

prof_track_id CallRecorder::thread_track() {
  ThreadState &state = t_thread;
  const uint32_t epoch = g_epoch.load(std::memory_order_acquire);
  if (state.epoch == epoch && state.track != 0) return state.track;
  state.track = declare_calling_thread_track(host_);
  state.epoch = epoch;
  return state.track;
}

prof_stack_id CallRecorder::stack(OsrtFunction function, void *caller) {
  // Room for this recorder's own frames above the call site.
  constexpr int kOwnFrames = 16;
  uintptr_t addresses[128 + kOwnFrames];
  const int count =
      stacks::capture_return_addresses(addresses, settings_.backtrace_depth + kOwnFrames);
  // Frames start at the application's call site; if it is not found (a
  // tail call), skip only record_call's own frames.
  int first = count;
  for (int i = 0; i < count; ++i) {
    if (addresses[i] == reinterpret_cast<uintptr_t>(caller)) {
      first = i;
      break;
    }
  }
  if (first == count) first = count < 3 ? count : 3;

  prof_string_id frames[128];
  uint32_t depth = 0;
  frames[depth++] = names_[static_cast<unsigned>(function)]; // the leaf: the OS runtime function
  const uint32_t most = static_cast<uint32_t>(settings_.backtrace_depth);
  if (python_) {
    python::PythonFrameRef python_frames[128];
    bool truncated = false;
    const int python_count = python::walk_python_frames(*python_, python_frames, 128, &truncated);
    const auto merged = python::merge_frames(
        *python_, std::span<const uintptr_t>(addresses + first, addresses + count),
        std::span<const python::PythonFrameRef>(python_frames, python_count),
        [this](uintptr_t address) { return symbolizer_.frame(address); },
        [this](const python::PythonFrameRef &frame) { return python_names_->frame(frame); });
    for (std::size_t i = 0; i < merged.size() && depth < most; ++i)
      frames[depth++] = merged[i];
    return host_.api()->intern_stack(host_.context(), frames, depth);
  }
  for (int i = first; i < count && depth < most; ++i)
    frames[depth++] = symbolizer_.frame(addresses[i]);
  return host_.api()->intern_stack(host_.context(), frames, depth);
}

void CallRecorder::reset_locks_after_fork() noexcept {
  symbolizer_.reset_lock();
  if (python_names_) python_names_->reset_lock();
}

} // namespace prof::osrt

#include "capture_emitter.hpp"

#include <chrono>
#include <thread>

namespace prof::cpu_perf {

std::string CaptureEmitter::frame_name(const Frame &f) {
  if (f.kernel) return options_.kernel ? symbolizer_.kernel_function(f.offset) : "[kernel]";
  if (f.module < 0) return unknown_address(f.offset);
  return symbolizer_.function(spaces_.module_path(f.module), f.offset);
}

prof_string_id CaptureEmitter::frame_id(const Frame &f) {
  auto found = frames_.find(f);
  if (found != frames_.end()) return found->second;
  const prof_string_id id = host_.intern(frame_name(f));
  frames_.emplace(f, id);
  return id;
}

std::string CaptureEmitter::thread_name(int32_t tid, const char *what) const {
  auto info = threads_table_.find(tid);
  if (info != threads_table_.end() && !info->second.name.empty()) return info->second.name;
  return std::string(what) + " " + std::to_string(tid);
}

prof_track_id CaptureEmitter::thread_track(int32_t pid, int32_t tid) {
  auto found = threads_.find(tid);
  if (found != threads_.end()) return found->second;
  if (auto info = threads_table_.find(tid); pid <= 0 && info != threads_table_.end())
    pid = info->second.pid;
  prof_track_id &process = processes_[pid];
  if (process == 0) process = host_.track(PROF_TRACK_PROCESS, thread_name(pid, "process"), 0, pid);
  const prof_track_id track =
      host_.track(PROF_TRACK_THREAD, thread_name(tid, "thread"), process, pid, tid);
  threads_[tid] = track;
  return track;
}

prof_track_id CaptureEmitter::cpu_track(int32_t cpu) {
  prof_track_id &track = cpus_[cpu];
  if (track == 0)
    track = host_.track(PROF_TRACK_CPU, "CPU " + std::to_string(cpu), 0, 0, 0, cpu);
  return track;
}

void CaptureEmitter::pace() {
  // The host drains rings periodically; a burst larger than one ring would
  // drop events, so give the drain room every so often.
  if (++emitted_ % 32768 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void CaptureEmitter::emit_sample(const Sample &s) {
  ids_.clear();
  for (const Frame &f : s.frames)
    ids_.push_back(frame_id(f));
  const prof_host_api *api = host_.api();
  const prof_stack_id stack =
      api->intern_stack(host_.context(), ids_.data(), static_cast<uint32_t>(ids_.size()));
  api->emit_sample(host_.context(), thread_track(s.pid, s.tid), s.time, stack);
  pace();
}

void CaptureEmitter::emit_state(const StateSlice &slice) {
  if (state_category_ == 0) {
    state_category_ = host_.intern(kStateCategory);
    cpu_category_ = host_.intern(kCpuCategory);
    for (int i = 0; i < 3; ++i)
      state_names_[i] = host_.intern(state_name(static_cast<ThreadState>(i)));
  }
  host_.slice(thread_track(0, slice.tid), slice.begin, slice.end - slice.begin,
              state_names_[static_cast<int>(slice.state)], state_category_);
  pace();
  if (slice.state != ThreadState::Running || slice.cpu < 0) return;
  prof_string_id &name = cpu_slice_names_[slice.tid];
  if (name == 0) name = host_.intern(thread_name(slice.tid, "thread"));
  host_.slice(cpu_track(slice.cpu), slice.begin, slice.end - slice.begin, name, cpu_category_,
              static_cast<uint64_t>(slice.tid));
  pace();
}

void CaptureEmitter::emit_counter(const CounterValue &v) {
  prof_track_id &track = counter_tracks_[{v.tid, v.counter}];
  if (track == 0) {
    const prof_track_id parent = thread_track(v.pid, v.tid > 0 ? v.tid : v.pid);
    const std::string name = options_.counters[v.counter].name +
                             (v.tid > 0 ? std::string() : std::string(" (process tree)"));
    track = host_.track(PROF_TRACK_COUNTER, name, parent, v.pid, v.tid, -1, "events");
  }
  host_.counter(track, v.time, static_cast<double>(v.value));
  pace();
}

void CaptureEmitter::emit(Capture &pending, uint64_t cutoff) {
  // An event goes out once its thread's track is declared, or once it is
  // older than the cutoff (which declares the track); the others keep their
  // order for the next call.
  auto emit_ready = [&](auto &items, auto time_of, auto tid_of, auto emit_one) {
    size_t kept = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      if (time_of(items[i]) <= cutoff || threads_.contains(tid_of(items[i])))
        emit_one(items[i]);
      else if (kept++ != i)
        items[kept - 1] = std::move(items[i]);
    }
    items.resize(kept);
  };
  emit_ready(
      pending.samples, [](const Sample &s) { return s.time; },
      [](const Sample &s) { return s.tid; }, [this](const Sample &s) { emit_sample(s); });
  emit_ready(
      pending.states, [](const StateSlice &s) { return s.end; },
      [](const StateSlice &s) { return s.tid; }, [this](const StateSlice &s) { emit_state(s); });
  emit_ready(
      pending.counters, [](const CounterValue &v) { return v.time; },
      [](const CounterValue &v) { return v.tid > 0 ? v.tid : v.pid; },
      [this](const CounterValue &v) { emit_counter(v); });
}

} // namespace prof::cpu_perf

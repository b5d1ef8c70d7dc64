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

prof_track_id CaptureEmitter::thread_track(const Capture &capture, int32_t pid, int32_t tid) {
  auto found = threads_.find(tid);
  if (found != threads_.end()) return found->second;
  auto name_of = [&](int32_t id, const char *what) {
    auto info = capture.threads.find(id);
    if (info != capture.threads.end() && !info->second.name.empty()) return info->second.name;
    return std::string(what) + " " + std::to_string(id);
  };
  if (auto info = capture.threads.find(tid); pid <= 0 && info != capture.threads.end())
    pid = info->second.pid;
  prof_track_id &process = processes_[pid];
  if (process == 0) process = host_.track(PROF_TRACK_PROCESS, name_of(pid, "process"), 0, pid);
  const prof_track_id track =
      host_.track(PROF_TRACK_THREAD, name_of(tid, "thread"), process, pid, tid);
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

uint64_t CaptureEmitter::emit(const Capture &capture) {
  const prof_host_api *api = host_.api();
  std::vector<prof_string_id> ids;
  for (const Sample &s : capture.samples) {
    ids.clear();
    for (const Frame &f : s.frames) ids.push_back(frame_id(f));
    const prof_stack_id stack =
        api->intern_stack(host_.context(), ids.data(), static_cast<uint32_t>(ids.size()));
    api->emit_sample(host_.context(), thread_track(capture, s.pid, s.tid), s.time, stack);
    pace();
  }
  const prof_string_id state_category = host_.intern(kStateCategory);
  const prof_string_id cpu_category = host_.intern(kCpuCategory);
  prof_string_id state_names[3];
  for (int i = 0; i < 3; ++i) state_names[i] = host_.intern(state_name(static_cast<ThreadState>(i)));
  std::map<int32_t, prof_string_id> thread_names;
  for (const StateSlice &slice : capture.states) {
    const prof_track_id track = thread_track(capture, 0, slice.tid);
    host_.slice(track, slice.begin, slice.end - slice.begin,
                state_names[static_cast<int>(slice.state)], state_category);
    pace();
    if (slice.state != ThreadState::Running || slice.cpu < 0) continue;
    prof_string_id &name = thread_names[slice.tid];
    if (name == 0) {
      auto info = capture.threads.find(slice.tid);
      name = host_.intern(info != capture.threads.end() && !info->second.name.empty()
                              ? info->second.name
                              : "thread " + std::to_string(slice.tid));
    }
    host_.slice(cpu_track(slice.cpu), slice.begin, slice.end - slice.begin, name, cpu_category,
                static_cast<uint64_t>(slice.tid));
    pace();
  }
  std::map<std::pair<int32_t, size_t>, prof_track_id> counter_tracks;
  for (const CounterValue &v : capture.counters) {
    prof_track_id &track = counter_tracks[{v.tid, v.counter}];
    if (track == 0) {
      const prof_track_id parent =
          v.tid > 0 ? thread_track(capture, v.pid, v.tid) : thread_track(capture, v.pid, v.pid);
      const std::string name = options_.counters[v.counter].name +
                               (v.tid > 0 ? std::string() : std::string(" (process tree)"));
      track = host_.track(PROF_TRACK_COUNTER, name, parent, v.pid, v.tid, -1, "events");
    }
    host_.counter(track, v.time, static_cast<double>(v.value));
    pace();
  }
  return emitted_;
}

} // namespace prof::cpu_perf

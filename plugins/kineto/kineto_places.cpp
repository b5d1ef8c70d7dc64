#include "kineto_places.hpp"

#include <prof/json_text.hpp>

#include <prof/launcher_rank.hpp>

namespace prof::kineto {

std::string process_name_without_rank(std::string_view name) {
  if (rank_in_track_name(name) >= 0) name = name.substr(0, name.rfind(" (rank "));
  return std::string(name);
}

KinetoPlaces::KinetoPlaces(ExportHost host, std::function<void(const std::string &)> emit)
    : host_(host), emit_(std::move(emit)) {}

const KinetoPlace &KinetoPlaces::use(prof_track_id track) {
  if (const auto it = places_.find(track); it != places_.end()) return it->second;
  return places_[track] = resolve(track);
}

KinetoPlace KinetoPlaces::resolve(prof_track_id track) {
  KinetoPlace place;
  const prof_track_desc *self = host_.track(track);
  if (self == nullptr) return place;
  place.counter = self->kind == PROF_TRACK_COUNTER;
  // The nearest thread, process, device and stream (engine) at or above it.
  const prof_track_desc *thread = nullptr, *process = nullptr, *device = nullptr, *stream = nullptr;
  prof_track_id process_id = 0, thread_id = 0, top_id = track;
  const prof_track_desc *top = self;
  for (prof_track_id id = track; id != 0;) {
    const prof_track_desc *desc = host_.track(id);
    if (desc == nullptr) break;
    top = desc;
    top_id = id;
    if (desc->kind == PROF_TRACK_THREAD && thread == nullptr) {
      thread = desc;
      thread_id = id;
    }
    if (desc->kind == PROF_TRACK_PROCESS && process == nullptr) {
      process = desc;
      process_id = id;
    }
    if (desc->kind == PROF_TRACK_DEVICE && device == nullptr) device = desc;
    if (desc->kind == PROF_TRACK_ENGINE && stream == nullptr && device == nullptr) stream = desc;
    if (desc->parent == id) break;
    id = desc->parent;
  }
  if (device != nullptr) {
    place.device = true;
    place.device_index = device->index >= 0 ? device->index : 0;
    place.pid = place.device_index;
    place.tid = stream != nullptr && stream->index >= 0 ? stream->index : 0;
    name_process(place.pid, device->name ? device->name : "");
    name_thread(place.pid, place.tid, "stream " + std::to_string(place.tid));
    return place;
  }
  if (thread != nullptr || process != nullptr) {
    const int32_t os_pid = process != nullptr ? process->pid : thread->pid;
    place.pid = os_pid > 0 ? os_pid : kSyntheticPid + process_id;
    if (main_pid_ == 0) main_pid_ = place.pid;
    name_process(place.pid,
                 process_name_without_rank(process && process->name ? process->name : ""));
    if (thread != nullptr) {
      place.tid = thread->tid > 0 ? thread->tid : kSyntheticTid + thread_id;
      name_thread(place.pid, place.tid, thread->name ? thread->name : "");
    }
    return place;
  }
  // Anything else (a top-level custom, network or CPU track): a row of its own.
  place.pid = kSyntheticPid + top_id;
  place.tid = kSyntheticTid + track;
  name_process(place.pid, top->name ? top->name : "");
  name_thread(place.pid, place.tid, self->name ? self->name : "");
  return place;
}

void KinetoPlaces::name_process(int64_t pid, const std::string &name) {
  if (name.empty() || !named_processes_.insert(pid).second) return;
  std::string record = "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":";
  append_int(record, pid);
  record += ",\"tid\":0,\"args\":{\"name\":";
  append_json_string(record, name);
  record += "}}";
  emit_(record);
}

void KinetoPlaces::name_thread(int64_t pid, int64_t tid, const std::string &name) {
  if (name.empty() || !named_threads_.insert({pid, tid}).second) return;
  std::string record = "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":";
  append_int(record, pid);
  record += ",\"tid\":";
  append_int(record, tid);
  record += ",\"args\":{\"name\":";
  append_json_string(record, name);
  record += "}}";
  emit_(record);
}

} // namespace prof::kineto
